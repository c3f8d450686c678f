"""Triangulate a split's map photos with pycolmap, the given camera poses held fixed.

A yardstick for arcloud's map builder: for each split (layout in shared/real/README.md:
map/ is a COLMAP text model with the poses and an empty points3D.txt, image names
relative to ../images), COLMAP extracts SIFT features from the map photos, matches them
exhaustively (with geometric verification) and triangulates points with the known
cameras and poses (COLMAP's point_triangulator: poses and intrinsics fixed, points
refined). Prints one line per split: map photos, then 3D points, mean track length and
mean reprojection error twice: with COLMAP's default of ignoring two-view tracks, and
with points seen in two photos only kept too (same features and matches). Options are
otherwise COLMAP's defaults (SIFT, 8192 features, ratio 0.8, cross-check).

Usage: python pycolmap-triangulate.py [--features N] [--keep DIR] SPLIT_DIR...
Needs: pip install pycolmap numpy (tested with pycolmap 4.2.1, CPU only).
"""
import argparse
import pathlib
import tempfile

import pycolmap


def match(split: pathlib.Path, work: pathlib.Path, features: int) -> None:
    """Writes work/database.db: the map model's cameras and images, SIFT features, matches."""
    model = pycolmap.Reconstruction(split / "map")
    image_dir = (split / ".." / "images").resolve()
    # The database gets the model's own rig, camera, frame and image ids, so that the
    # triangulator can pair every posed image with its features.
    db = pycolmap.Database.open(work / "database.db")
    for rig in model.rigs.values():
        db.write_rig(rig, use_rig_id=True)
    for camera in model.cameras.values():
        db.write_camera(camera, use_camera_id=True)
    for frame in model.frames.values():
        db.write_frame(frame, use_frame_id=True)
    for image in model.images.values():
        db.write_image(image, use_image_id=True)
    db.close()

    extraction = pycolmap.FeatureExtractionOptions()
    extraction.sift.max_num_features = features
    names = sorted(im.name for im in model.images.values())
    pycolmap.extract_features(work / "database.db", image_dir, image_names=names,
                              extraction_options=extraction, device=pycolmap.Device.cpu)
    pycolmap.match_exhaustive(work / "database.db", device=pycolmap.Device.cpu)


def triangulate(split: pathlib.Path, work: pathlib.Path, two_view: bool) -> pycolmap.Reconstruction:
    """COLMAP's point_triangulator on the database of match(): the map model's poses held fixed."""
    options = pycolmap.IncrementalPipelineOptions()
    options.triangulation.ignore_two_view_tracks = not two_view
    out = work / ("sparse-two-view" if two_view else "sparse")
    out.mkdir(exist_ok=True)
    return pycolmap.triangulate_points(pycolmap.Reconstruction(split / "map"), work / "database.db",
                                       (split / ".." / "images").resolve(), out, options=options)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("splits", nargs="+", type=pathlib.Path, help="split folders holding map/")
    parser.add_argument("--features", type=int, default=8192, help="SIFT features per photo (default 8192)")
    parser.add_argument("--keep", type=pathlib.Path, help="keep each split's database and model under DIR")
    args = parser.parse_args()
    pycolmap.logging.minloglevel = pycolmap.logging.WARNING
    print("split\tmap photos\tpoints\tmean track\tmean reproj px\tpoints (2-view kept)\tmean track\tmean reproj px")
    for split in args.splits:
        with tempfile.TemporaryDirectory() as tmp:
            work = pathlib.Path(tmp)
            if args.keep:
                work = args.keep / "_".join(split.resolve().parts[-2:])
                work.mkdir(parents=True, exist_ok=False)
            match(split, work, args.features)
            cols = [str(split), str(len(pycolmap.Reconstruction(split / "map").images))]
            for two_view in (False, True):
                r = triangulate(split, work, two_view)
                cols += [str(r.num_points3D()), f"{r.compute_mean_track_length():.2f}",
                         f"{r.compute_mean_reprojection_error():.2f}"]
            print("\t".join(cols), flush=True)


if __name__ == "__main__":
    main()
