#!/usr/bin/env python3
"""The COLMAP-frame check (maps in any units and any frame), in two steps (plain Python, no packages).

export <mapping session> <query session> <out dir> [--scale S]
    Re-expresses both sessions in another frame, as a COLMAP reconstruction would give it:
    y down, z into the scene (a 180-degree turn about x) and every length times S
    (default 0.3). Writes <out>/colmap/{cameras,images,points3D}.txt for the mapping
    session (image names relative to the mapping session folder) and <out>/query/, a
    copy of the query session whose ground-truth poses are transformed; its odometry
    (and so each frame's gravity) stays as the device measured it.

compare <results.jsonl in the new frame> <results.jsonl of a baseline> [--scale S]
    Maps the first run's poses and ground truth back to the original frame and counts,
    for both runs, the frames within (5 cm, 2 deg) of the ground truth and the accepted
    frames off by more than 25 cm. Exits 1 when the first run places fewer frames within
    (5 cm, 2 deg) than the baseline, or places any frame wrongly.
"""
import json, math, os, shutil, sys

FLIP = ((1, 0, 0), (0, -1, 0), (0, 0, -1))  # 180 degrees about x: y down, z into the scene


def mat_from_quat(q):  # q = [x, y, z, w]
    x, y, z, w = q
    n = math.sqrt(x * x + y * y + z * z + w * w); x, y, z, w = x / n, y / n, z / n, w / n
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)),
            (2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)),
            (2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)))


def quat_from_mat(m):  # -> [x, y, z, w]
    t = m[0][0] + m[1][1] + m[2][2]
    if t > 0:
        s = math.sqrt(t + 1) * 2
        q = [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, s / 4]
    elif m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2
        q = [s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s]
    elif m[1][1] > m[2][2]:
        s = math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2
        q = [(m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s]
    else:
        s = math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2
        q = [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4, (m[1][0] - m[0][1]) / s]
    return q


def mul(a, b):
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def apply(m, v):
    return tuple(sum(m[i][k] * v[k] for k in range(3)) for i in range(3))


def transpose(m):
    return tuple(tuple(m[j][i] for j in range(3)) for i in range(3))


def to_new(pose, scale):
    """T_map_camera in the original frame -> in the new frame."""
    r = mul(FLIP, mat_from_quat(pose['q']))
    c = tuple(scale * x for x in apply(FLIP, pose['t']))
    return r, c


def to_original(pose, scale):
    r = mul(FLIP, mat_from_quat(pose['q']))  # FLIP is its own inverse
    c = tuple(x / scale for x in apply(FLIP, pose['t']))
    return r, c


def export(mapping, query, out, scale):
    m = json.load(open(os.path.join(mapping, 'session.json')))
    cam = m['camera']
    if cam.get('distortion'):
        k = cam['distortion'] + [0] * (4 - len(cam['distortion']))
        camera = f"1 OPENCV {cam['width']} {cam['height']} {cam['fx']} {cam['fy']} {cam['cx']} {cam['cy']} " + ' '.join(map(str, k[:4]))
    else:
        camera = f"1 PINHOLE {cam['width']} {cam['height']} {cam['fx']} {cam['fy']} {cam['cx']} {cam['cy']}"
    os.makedirs(os.path.join(out, 'colmap'), exist_ok=True)
    with open(os.path.join(out, 'colmap', 'cameras.txt'), 'w') as f:
        f.write('# CAMERA_ID, MODEL, WIDTH, HEIGHT, PARAMS[]\n' + camera + '\n')
    with open(os.path.join(out, 'colmap', 'images.txt'), 'w') as f:
        f.write('# IMAGE_ID, QW, QX, QY, QZ, TX, TY, TZ, CAMERA_ID, NAME\n# POINTS2D[] as (X, Y, POINT3D_ID)\n')
        n = 0
        for i, fr in enumerate(m['frames']):
            if not fr.get('pose'):
                continue
            r, c = to_new(fr['pose'], scale)
            rcw = transpose(r)
            t = tuple(-x for x in apply(rcw, c))
            qx, qy, qz, qw = quat_from_mat(rcw)
            f.write(f"{i + 1} {qw!r} {qx!r} {qy!r} {qz!r} {t[0]!r} {t[1]!r} {t[2]!r} 1 {fr['image']}\n\n")
            n += 1
    open(os.path.join(out, 'colmap', 'points3D.txt'), 'w').write('# no points: arcloud triangulates its own\n')
    q = json.load(open(os.path.join(query, 'session.json')))
    for fr in q['frames']:
        if fr.get('pose'):
            r, c = to_new(fr['pose'], scale)
            fr['pose'] = {'t': list(c), 'q': quat_from_mat(r)}
    qdir = os.path.join(out, 'query')
    shutil.copytree(os.path.join(query, 'frames'), os.path.join(qdir, 'frames'))
    json.dump(q, open(os.path.join(qdir, 'session.json'), 'w'), indent=1)
    print(f"colmap-frame: {n} mapping images and {len(q['frames'])} query frames re-expressed y-down at scale {scale}")


def angle(a, b):
    d = mul(transpose(a), b)
    return math.degrees(math.acos(max(-1.0, min(1.0, (d[0][0] + d[1][1] + d[2][2] - 1) / 2))))


def score(path, scale):
    good = wrong = accepted = frames = 0
    for line in open(path):
        r = json.loads(line)
        frames += 1
        res = r['result']
        if res.get('status') != 'localized':
            continue
        accepted += 1
        if scale is None:
            (rp, cp) = (mat_from_quat(res['pose']['q']), res['pose']['t'])
            (rg, cg) = (mat_from_quat(r['groundTruth']['q']), r['groundTruth']['t'])
        else:
            rp, cp = to_original(res['pose'], scale)
            rg, cg = to_original(r['groundTruth'], scale)
        dt = math.dist(cp, cg)
        good += dt <= 0.05 and angle(rp, rg) <= 2
        wrong += dt > 0.25
    return good, wrong, accepted, frames


def compare(new, baseline, scale):
    g, w, a, n = score(new, scale)
    bg, bw, ba, bn = score(baseline, None)
    print(f"colmap-frame: new frame with gravity: {g}/{n} within (5 cm, 2 deg), {a} accepted, {w} off by > 25 cm")
    print(f"colmap-frame: baseline:               {bg}/{bn} within (5 cm, 2 deg), {ba} accepted, {bw} off by > 25 cm")
    if g < bg or w > 0:
        print('colmap-frame: FAILED: the map in the COLMAP frame localizes worse than the baseline')
        sys.exit(1)


def main(argv):
    scale = 0.3
    if '--scale' in argv:
        i = argv.index('--scale'); scale = float(argv[i + 1]); del argv[i:i + 2]
    if len(argv) == 4 and argv[0] == 'export':
        export(argv[1], argv[2], argv[3], scale)
    elif len(argv) == 3 and argv[0] == 'compare':
        compare(argv[1], argv[2], scale)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv[1:])
