#!/usr/bin/env python3
"""Ink height of text in a PNG region: rows holding pixels brighter than the region's background
by more than a threshold. Usage: scripts/ink-rows.py PNG X Y W H [threshold]. Prints top, bottom, height."""
import sys, zlib, struct
def load(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
        if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT': idat += body
    bpp = {2: 3, 6: 4}[ctype]; raw = zlib.decompress(idat); stride = w * bpp; rows = []; prev = bytearray(stride); i = 0
    for _ in range(h):
        f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line); prev = line
    return w, h, bpp, rows
path, x0, y0, rw, rh = sys.argv[1], *map(int, sys.argv[2:6]); thr = int(sys.argv[6]) if len(sys.argv) > 6 else 60
w, h, bpp, rows = load(path)
lum = lambda r, x: sum(rows[r][x * bpp:x * bpp + 3]) / 3
bg = sorted(lum(y, x) for y in range(y0, y0 + rh) for x in range(x0, x0 + rw))[(rw * rh) // 2]
ink = [y for y in range(y0, y0 + rh) if any(abs(lum(y, x) - bg) > thr for x in range(x0, x0 + rw))]
print(f"{path}: ink rows {ink[0]}..{ink[-1]}: {ink[-1] - ink[0] + 1} px" if ink else "no ink")
