#!/usr/bin/env python3
"""Makes a long session out of a short one, for measuring what a long run costs:

    long-session.py SESSION_DIR FRAMES OUT_DIR

writes OUT_DIR/session.json with FRAMES frames that name SESSION_DIR's frames over and
over (ids 0000000, 0000001, ...; timestamps going on at the session's frame interval;
each frame's ground truth and odometry those of the frame it repeats), and copies
SESSION_DIR/frames/ beside it: a session reads only regular files inside its own folder,
not links out of it. An hour of phone video is about 100,000 frames.
Plain Python, no packages."""
import json, os, shutil, sys

if len(sys.argv) != 4:
    sys.exit(__doc__)
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
session = json.load(open(os.path.join(src, 'session.json')))
frames = session['frames']
step = frames[1]['timestamp'] - frames[0]['timestamp'] if len(frames) > 1 else 1 / 30
os.makedirs(out, exist_ok=True)
if not os.path.exists(os.path.join(out, 'frames')):
    shutil.copytree(os.path.join(src, 'frames'), os.path.join(out, 'frames'))
long = []
for i in range(n):
    f = dict(frames[i % len(frames)])
    f['id'], f['timestamp'] = '%07d' % i, frames[0]['timestamp'] + i * step
    long.append(f)
session['frames'], session['name'] = long, os.path.basename(os.path.normpath(out))
with open(os.path.join(out, 'session.json'), 'w') as fp:
    json.dump(session, fp)
