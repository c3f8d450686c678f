#!/usr/bin/env python3
"""Writes an arcloud session as a TUM RGB-D sequence with Unix timestamps.

usage: make-tum-sequence.py <session-dir> <out-dir> <unix-start>

The layout is the TUM RGB-D benchmark's: rgb.txt ("timestamp rgb/<timestamp>.<ext>"),
rgb/ with the images named by their timestamps, and groundtruth.txt
("timestamp tx ty tz qx qy qz qw", T_world_camera). Times are the session's plus
<unix-start>, written with 6 decimals as the benchmark does.
"""
import json
import os
import shutil
import sys

session_dir, out, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
session = json.load(open(os.path.join(session_dir, "session.json")))
os.makedirs(os.path.join(out, "rgb"), exist_ok=True)
rgb = ["# color images", "# timestamp filename"]
truth = ["# ground truth trajectory", "# timestamp tx ty tz qx qy qz qw"]
for frame in session["frames"]:
    stamp = "%.6f" % (start + frame["timestamp"])
    ext = os.path.splitext(frame["image"])[1]
    shutil.copyfile(os.path.join(session_dir, frame["image"]), os.path.join(out, "rgb", stamp + ext))
    rgb.append(f"{stamp} rgb/{stamp}{ext}")
    pose = frame.get("pose")
    if pose:
        t, q = pose["t"], pose["q"]
        truth.append(" ".join([stamp] + ["%.9f" % v for v in list(t) + list(q)]))
open(os.path.join(out, "rgb.txt"), "w").write("\n".join(rgb) + "\n")
open(os.path.join(out, "groundtruth.txt"), "w").write("\n".join(truth) + "\n")
print(f"{out}: {len(rgb) - 2} images, {len(truth) - 2} ground-truth poses from {start:.6f}")
