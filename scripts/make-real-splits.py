#!/usr/bin/env python3
"""Derives more real-photo splits from a scene laid out as ../shared/real/<scene>/ (images/ and
split-*/ COLMAP text models): the union of a scene's splits gives every photo's ground truth,
and a new split takes the named photos as map photos and every other photo as a query.

    make-real-splits.py SCENE_DIR OUT_SCENE_DIR NAME (--every K [--offset O] | --map A,B,...)

writes OUT_SCENE_DIR/split-NAME/{map,query}/{cameras,images,points3D}.txt and query_gt.tum
(the query cameras as camera-to-world TUM poses, the timestamp column the index), and links
OUT_SCENE_DIR/images to SCENE_DIR/images, so `arcloud bench real OUT_SCENE_DIR` reads it.
Plain Python, no packages."""
import argparse, glob, os, sys

def read_images(path):
    """name -> (qw, qx, qy, qz, tx, ty, tz, camera_id) from a COLMAP images.txt."""
    out, lines = {}, [l for l in open(path) if not l.startswith('#')]
    for k in range(0, len(lines), 2):
        f = lines[k].split()
        if len(f) >= 10:
            out[f[9]] = (tuple(float(v) for v in f[1:8]), f[8])
    return out

def camera_line(path):
    return [l for l in open(path) if l.strip() and not l.startswith('#')][0].strip()

def quat_mul(a, b):
    aw, ax, ay, az = a; bw, bx, by, bz = b
    return (aw*bw - ax*bx - ay*by - az*bz, aw*bx + ax*bw + ay*bz - az*by,
            aw*by - ax*bz + ay*bw + az*bx, aw*bz + ax*by - ay*bx + az*bw)

def rotate(q, v):
    w, x, y, z = q
    p = quat_mul(quat_mul(q, (0.0, *v)), (w, -x, -y, -z))
    return p[1:]

def write_model(folder, camera, entries):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, 'cameras.txt'), 'w') as f:
        f.write('# Camera list with one line of data per camera:\n#   CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]\n')
        f.write(camera + '\n')
    with open(os.path.join(folder, 'images.txt'), 'w') as f:
        f.write('# Image list with two lines of data per image:\n'
                '#   IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME\n#   POINTS2D[] as (X, Y, POINT3D_ID)\n')
        for i, (name, (p, cam)) in enumerate(entries, 1):
            f.write('%d %s %s %s\n\n' % (i, ' '.join('%.10f' % v for v in p), cam, name))
    open(os.path.join(folder, 'points3D.txt'), 'w').write('# 3D point list (empty: build your own points)\n')

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('scene'); ap.add_argument('out'); ap.add_argument('name')
    ap.add_argument('--every', type=int); ap.add_argument('--offset', type=int, default=0)
    ap.add_argument('--map', help='comma-separated map photo names')
    a = ap.parse_args()
    poses, camera = {}, None
    for split in sorted(glob.glob(os.path.join(a.scene, 'split-*'))):
        for part in ('map', 'query'):
            poses.update(read_images(os.path.join(split, part, 'images.txt')))
            camera = camera or camera_line(os.path.join(split, part, 'cameras.txt'))
    if not poses:
        sys.exit('%s: no split-*/ COLMAP models' % a.scene)
    names = sorted(poses)
    if a.map:
        chosen = a.map.split(',')
        unknown = [n for n in chosen if n not in poses]
        if unknown: sys.exit('not in the scene: ' + ', '.join(unknown))
    elif a.every:
        chosen = names[a.offset::a.every]
    else:
        sys.exit('give --every K or --map A,B,...')
    if len(chosen) < 2: sys.exit('a map needs at least two photos')
    queries = [n for n in names if n not in chosen]
    split = os.path.join(a.out, 'split-' + a.name)
    write_model(os.path.join(split, 'map'), camera, [(n, poses[n]) for n in chosen])
    write_model(os.path.join(split, 'query'), camera, [(n, poses[n]) for n in queries])
    with open(os.path.join(split, 'query_gt.tum'), 'w') as f:
        for i, n in enumerate(queries):
            (qw, qx, qy, qz, tx, ty, tz), _ = poses[n]
            # world->camera (COLMAP) to camera->world: q^-1, centre = -R^T t
            qi = (qw, -qx, -qy, -qz)
            c = [-v for v in rotate(qi, (tx, ty, tz))]
            f.write('%d %.10f %.10f %.10f %.10f %.10f %.10f %.10f\n' % (i, *c, -qx, -qy, -qz, qw))
    link = os.path.join(a.out, 'images')
    if not os.path.lexists(link):
        os.symlink(os.path.abspath(os.path.join(a.scene, 'images')), link)
    print('%s: %d map photos, %d queries' % (split, len(chosen), len(queries)))

main()
