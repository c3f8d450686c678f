#!/usr/bin/env python3
"""Measures GeoPoses from photos' EXIF GPS on a real split in metres (the Strecha scenes,
-z up): copies the split's photos with made-up GPS written into their EXIF (a chosen
georeference plus noise, as a phone would record them), then runs `map build --colmap`
(units and up left unknown, as for any COLMAP model), `dataset import-colmap` of the
queries and `localize`, and prints the GeoPoses' distance from each photo's own reading
(the summary's figure) and from where the camera truly was under the chosen georeference.

    scripts/exif-gps-real.py ../shared/real/herz-jesus-P25/split-s2 out/exif-herz [--noise 8] [--seed 1]

Only the standard library; the scene is placed at --origin with its +x at --heading."""
import argparse, json, math, os, random, shutil, statistics, struct, subprocess, sys

A, E2 = 6378137.0, 6.69437999014e-3  # WGS 84


def centres(images_txt):
    """Image name -> camera centre (-R^T t) from a COLMAP images.txt."""
    out, lines = {}, [l for l in open(images_txt).read().splitlines() if not l.startswith("#")]
    for line in lines[::2]:                            # each image's line, then its points' line
        f = line.split()
        if len(f) < 10:
            continue
        w, x, y, z = map(float, f[1:5]); t = list(map(float, f[5:8]))
        r = [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
             [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
             [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]
        out[f[9]] = [-sum(r[j][i] * t[j] for j in range(3)) for i in range(3)]
    return out


def geodetic(c, origin, heading):
    """Scene point (metres, -z up) -> (lat, lon, h) with the scene's +x at `heading`."""
    e0, n0, u = c[0], -c[1], -c[2]                     # half turn about x: -z becomes up
    b = math.radians(heading)                          # +x at compass bearing b
    e = e0 * math.sin(b) - n0 * math.cos(b); n = e0 * math.cos(b) + n0 * math.sin(b)
    lat0, lon0, h0 = origin
    s = math.sin(math.radians(lat0))
    m = A * (1 - E2) / (1 - E2 * s * s) ** 1.5; nn = A / math.sqrt(1 - E2 * s * s)
    return (lat0 + math.degrees(n / m), lon0 + math.degrees(e / (nn * math.cos(math.radians(lat0)))), h0 + u)


def app1(lat, lon, alt):
    """An APP1 Exif segment: IFD0 with the GPS IFD pointer, the GPS IFD (little-endian)."""
    def dms(d):
        a = abs(d); deg = int(a); mi = int((a - deg) * 60); sec = int(round(((a - deg) * 3600 - mi * 60) * 10000))
        return struct.pack("<6I", deg, 1, mi, 1, sec, 10000)
    entries = [(0, 1, 4, bytes([2, 3, 0, 0])), (1, 2, 2, (b"S" if lat < 0 else b"N") + b"\0"), (2, 5, 3, dms(lat)),
               (3, 2, 2, (b"W" if lon < 0 else b"E") + b"\0"), (4, 5, 3, dms(lon)),
               (5, 1, 1, bytes([1 if alt < 0 else 0])), (6, 5, 1, struct.pack("<2I", int(round(abs(alt) * 100)), 100))]
    gps_offset = 8 + 2 + 12 + 4
    data_offset = gps_offset + 2 + 12 * len(entries) + 4
    table, data = struct.pack("<H", len(entries)), b""
    for tag, typ, count, value in entries:
        table += struct.pack("<HHI", tag, typ, count)
        if len(value) <= 4:
            table += value.ljust(4, b"\0")
        else:
            table += struct.pack("<I", data_offset + len(data)); data += value
    tiff = b"II*\0" + struct.pack("<I", 8) + struct.pack("<HHHII", 1, 0x8825, 4, 1, gps_offset) + b"\0" * 4
    tiff += table + b"\0" * 4 + data
    payload = b"Exif\0\0" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("split"); p.add_argument("out")
    p.add_argument("--origin", default="52.3731,4.8922,2.5"); p.add_argument("--heading", type=float, default=30)
    p.add_argument("--noise", type=float, default=8, help="95 %% horizontal accuracy, metres (twice the sigma vertically)")
    p.add_argument("--seed", type=int, default=1); p.add_argument("--arcloud", default=".build/debug/arcloud")
    a = p.parse_args()
    origin = tuple(map(float, a.origin.split(","))); rng = random.Random(a.seed); sigma = a.noise / 2.4477
    split, out = os.path.abspath(a.split), os.path.abspath(a.out)
    shutil.rmtree(out, ignore_errors=True); os.makedirs(os.path.join(out, "images"))
    truth = {}
    for part in ("map", "query"):
        shutil.copytree(os.path.join(split, part), os.path.join(out, part))
        for name, c in centres(os.path.join(split, part, "images.txt")).items():
            lat, lon, h = geodetic(c, origin, a.heading); truth[name] = (lat, lon)
            noisy = geodetic([c[0] + sigma * rng.gauss(0, 1), c[1] - sigma * rng.gauss(0, 1),
                              c[2] - 2 * sigma * rng.gauss(0, 1)], origin, a.heading)
            jpeg = open(os.path.join(split, "..", "images", name), "rb").read()
            with open(os.path.join(out, "images", name), "wb") as f:
                f.write(jpeg[:2] + app1(*noisy) + jpeg[2:])

    def run(*args):
        r = subprocess.run([a.arcloud, *args], capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{' '.join(args[:2])} failed: {r.stderr.strip()}")
        return r.stdout
    images = os.path.join(out, "images")
    print(run("map", "build", "--colmap", os.path.join(out, "map"), "--images", images,
              "--out", os.path.join(out, "map.vpsmap"), "--quiet").strip())
    print(next((l.strip() for l in run("map", "inspect", os.path.join(out, "map.vpsmap")).splitlines()
                if "georeference" in l), "not georeferenced"))
    print(run("dataset", "import-colmap", os.path.join(out, "query"), os.path.join(out, "session"),
              "--images", images).strip())
    run("localize", "--map", os.path.join(out, "map.vpsmap"), os.path.join(out, "session"), "--out", os.path.join(out, "run"))
    summary = json.load(open(os.path.join(out, "run", "summary.json")))
    g = summary.get("geoPosesToGPS")
    print("GeoPose vs own GPS: " + (f"median {g['medianHorizontalDistance']:.2f} m, p95 {g['p95HorizontalDistance']:.2f} m, "
                                    f"max {g['maxHorizontalDistance']:.2f} m ({g['frames']} frames)" if g else "none"))
    errors = []
    for line in open(os.path.join(out, "run", "results.jsonl")):
        o = json.loads(line); geo = o["result"].get("geoPose")
        if not geo:
            continue
        lat, lon = truth[os.path.basename(o.get("image", ""))]
        sin = math.sin(math.radians(lat))
        m = A * (1 - E2) / (1 - E2 * sin * sin) ** 1.5; n = A / math.sqrt(1 - E2 * sin * sin)
        errors.append(math.hypot(math.radians(geo["position"]["lat"] - lat) * m,
                                 math.radians(geo["position"]["lon"] - lon) * n * math.cos(math.radians(lat))))
    if errors:
        print(f"GeoPose vs truth: median {statistics.median(errors):.2f} m, max {max(errors):.2f} m ({len(errors)} frames)")


if __name__ == "__main__":
    main()
