#!/usr/bin/env python3
"""Writes the COLMAP model fixtures of Tests/Fixtures/COLMAP with pycolmap, the
reference implementation (the same library COLMAP itself is built from):

  model-bin/   cameras.bin, images.bin, points3D.bin   (COLMAP's default output)
  model-txt/   cameras.txt, images.txt, points3D.txt   (the same model as text)
  expected.json  what was put in: cameras (model, size, params) and images (name,
                 camera id, qvec w x y z, tvec), for the tests to compare against

Run it through the project's environment:  $(scripts/python-tools.sh)/python scripts/make-colmap-fixtures.py
"""
import json
import math
import os
import shutil
import sys

import numpy as np
import pycolmap

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "COLMAP")

cameras = [
    (1, "PINHOLE", 64, 48, [50.0, 51.0, 32.0, 24.0]),
    (2, "OPENCV", 64, 48, [50.5, 50.25, 31.5, 23.5, 0.1, -0.02, 0.001, 0.002]),
    (3, "SIMPLE_RADIAL", 64, 48, [49.0, 32.0, 24.0, 0.05]),
    (4, "OPENCV_FISHEYE", 64, 48, [30.0, 30.0, 32.0, 24.0, 0.1, 0.01, 0.0, 0.0]),
]


def quaternion(axis, angle):
    """Unit quaternion (w, x, y, z) of a rotation by `angle` about `axis`."""
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    s = math.sin(angle / 2)
    return [math.cos(angle / 2), a[0] * s, a[1] * s, a[2] * s]


images = [
    (1, "a.png", 1, quaternion([0.2, 1, 0.1], 0.7), [0.5, -0.2, 2.0]),
    (2, "sub/b.png", 2, quaternion([1, 0, 0], -0.3), [-1.0, 0.0, 0.5]),
    (7, "c.png", 1, quaternion([0, 0, 1], 2.5), [0.125, 3.0, -4.0]),
    (9, "fish.png", 4, quaternion([0, 1, 0], 0.1), [0.0, 0.0, 1.0]),
]

rec = pycolmap.Reconstruction()
modern = hasattr(rec, "add_camera_with_trivial_rig")   # pycolmap >= 3.12: rigs and frames
for cid, model, w, h, params in cameras:
    cam = pycolmap.Camera(model=model, width=w, height=h, params=params, camera_id=cid)
    if modern:
        rec.add_camera_with_trivial_rig(cam)
    else:
        rec.add_camera(cam)
for iid, name, cid, q, t in images:
    w, x, y, z = q
    pose = pycolmap.Rigid3d(pycolmap.Rotation3d(np.array([x, y, z, w])), np.array(t))   # Eigen order: x y z w
    points = [pycolmap.Point2D(np.array([10.5 + iid, 12.25]))] * (2 if iid == 2 else 0)
    img = pycolmap.Image(name=name, points2D=points, camera_id=cid, image_id=iid) if points else \
        pycolmap.Image(name=name, camera_id=cid, image_id=iid)
    if modern:
        rec.add_image_with_trivial_frame(img, pose)
    else:
        img.cam_from_world = pose
        rec.add_image(img)
        rec.register_image(iid)

for sub, write in [("model-bin", rec.write_binary), ("model-txt", rec.write_text)]:
    path = os.path.join(out, sub)
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    write(path)
    for extra in ("rigs", "frames"):   # newer COLMAP's rig files: not part of the fixture
        for ext in (".bin", ".txt"):
            p = os.path.join(path, extra + ext)
            if os.path.exists(p):
                os.remove(p)

expected = {
    "pycolmap": pycolmap.__version__,
    "cameras": [{"id": c, "model": m, "width": w, "height": h, "params": p} for c, m, w, h, p in cameras],
    "images": [{"id": i, "name": n, "camera": c, "qvec": q, "tvec": t} for i, n, c, q, t in images],
}
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
print(f"{out}: COLMAP fixtures written with pycolmap {pycolmap.__version__}")
