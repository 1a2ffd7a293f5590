#!/usr/bin/env python3
"""Writes scripts/worlds/default_height.png: the default world's terrain (16-bit greyscale PNG).

Python 3 standard library only (zlib for the PNG's deflate, no pip). Deterministic: the same
script always writes the same bytes, so the committed PNG can be checked against it:

    python3 scripts/gen_heightmap.py [OUT.png]

Layout (world metres; the world file maps the image with cell_size 2 m, height_scale 80 m and
origin (-256, 0, -256), so pixel (i, j) is x = -256 + 2 i, z = -256 + 2 j):
  - a flat plaza around the origin at 12 m where the landmarks stand (radius 75 m), blended into
  - rolling hills (sums of smooth value noise) elsewhere, higher towards the west;
  - a terrain cliff: a plateau north of z = 120 rising 24 m over about 5 m (a ~78 deg face),
    too steep to walk, climbable;
  - a lake basin east of the plaza around (150, -30), its floor 7 m under the water (the world
    file puts the water surface at 11 m), with sloping shores to wade out on.
"""
import math
import struct
import sys
import zlib

SIZE = 257                  # samples along x and z (256 cells)
CELL = 2.0                  # m per cell
ORIGIN = -256.0             # m, world x/z of sample 0
HEIGHT_SCALE = 80.0         # m at the brightest value (65535)
PLAZA_HEIGHT = 12.0         # m
PLAZA_RADIUS = 75.0         # m, fully flat inside
PLAZA_BLEND = 30.0          # m of blend into the hills
CLIFF_Z = 120.0             # m, where the cliff face starts
CLIFF_RISE = 24.0           # m
CLIFF_WIDTH = 5.0           # m over which it rises
LAKE_X, LAKE_Z = 150.0, -30.0
LAKE_RADIUS = 48.0          # m, where the shore meets the hills
LAKE_FLOOR = 4.0            # m (the surface is 11 m: 7 m deep at the centre)


def lattice(ix, iz, seed):
    """A repeatable pseudo-random value in [0, 1) per lattice point (integer hash)."""
    h = (ix * 374761393 + iz * 668265263 + seed * 144665) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    h ^= h >> 16
    return (h & 0xFFFFFF) / float(0x1000000)


def value_noise(x, z, seed):
    ix, iz = math.floor(x), math.floor(z)
    fx, fz = x - ix, z - iz
    sx, sz = fx * fx * (3 - 2 * fx), fz * fz * (3 - 2 * fz)
    a = lattice(ix, iz, seed)
    b = lattice(ix + 1, iz, seed)
    c = lattice(ix, iz + 1, seed)
    d = lattice(ix + 1, iz + 1, seed)
    return (a + (b - a) * sx) + ((c + (d - c) * sx) - (a + (b - a) * sx)) * sz


def smoothstep(e0, e1, v):
    t = min(1.0, max(0.0, (v - e0) / (e1 - e0)))
    return t * t * (3 - 2 * t)


def height_at(x, z):
    # Hills: three octaves of value noise, 0..~22 m, rising towards the west (-x).
    n = 0.0
    amp, freq = 14.0, 1.0 / 70.0
    for octave in range(3):
        n += amp * value_noise(x * freq, z * freq, 11 + octave)
        amp *= 0.45
        freq *= 2.1
    west = smoothstep(0.0, 200.0, -x) * 12.0
    hills = 6.0 + n + west

    # The plaza: flat at PLAZA_HEIGHT inside its radius, blended into the hills outside.
    r = math.hypot(x, z)
    k = smoothstep(PLAZA_RADIUS, PLAZA_RADIUS + PLAZA_BLEND, r)
    h = PLAZA_HEIGHT * (1 - k) + hills * k

    # The cliff: a plateau to the north (+z), raised by CLIFF_RISE over CLIFF_WIDTH metres.
    t = min(1.0, max(0.0, (z - CLIFF_Z) / CLIFF_WIDTH))
    h += CLIFF_RISE * t

    # The lake: a bowl carved down to LAKE_FLOOR, shores blending back over its outer third.
    d = math.hypot(x - LAKE_X, z - LAKE_Z)
    if d < LAKE_RADIUS:
        w = smoothstep(LAKE_RADIUS * 0.35, LAKE_RADIUS, d)
        h = LAKE_FLOOR * (1 - w) + min(h, PLAZA_HEIGHT + 2.0) * w
    return max(0.0, min(HEIGHT_SCALE, h))


def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def write_png16(path, width, height, rows):
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter: none
        for v in row:
            raw += struct.pack(">H", v)
    ihdr = struct.pack(">IIBBBBB", width, height, 16, 0, 0, 0, 0)  # 16-bit greyscale
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(png_chunk(b"IHDR", ihdr))
        f.write(png_chunk(b"IDAT", zlib.compress(bytes(raw), 9)))
        f.write(png_chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "scripts/worlds/default_height.png"
    rows = []
    for j in range(SIZE):          # image row j is z = ORIGIN + CELL * j
        z = ORIGIN + CELL * j
        row = []
        for i in range(SIZE):
            x = ORIGIN + CELL * i
            v = int(round(height_at(x, z) / HEIGHT_SCALE * 65535.0))
            row.append(max(0, min(65535, v)))
        rows.append(row)
    write_png16(out, SIZE, SIZE, rows)


if __name__ == "__main__":
    main()
