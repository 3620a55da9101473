#!/usr/bin/env python3
"""Prints the tables of docs/benchmarks.md from the files of benchmark runs.

usage: scripts/bench-report.py FILE.json [FILE.json ...] > tables.md
       scripts/bench-report.py --grids FILE.json [FILE.json ...]: `bench --shapes ... --grid N`
  runs, one table per GPU, type and kernel: % of peak at each grid; a file whose name holds
  "default" is a run without --grid, marked "(own)": the kernel's own grid
  FILE.json: `reduction-lab bench --format json` output (one column per file; a `--shapes`
  run gets the matrix tables, one per file), or a frame report (`reduction-lab --headless ... --frame-report`, one row of the frame table).
  FILE.csv: repeated runs of `reduction-lab bench --format csv` (or algorithm,n,median_us,
  pct_of_peak lines), one after another: one row per size of the repeats table.
  The report's tables: scripts/bench-report.py assets/runs/h200/*.json assets/runs/h100/*.json
  assets/runs/h{200,100}/report/{frames.json,repeat_26-28.csv}
  (the shipped runs in assets/runs/RUN; the repeats and frame reports in assets/runs/RUN/report;
  other files are skipped)
Every number printed comes from the files; nothing is typed in.
"""
import csv
import json
import math
import os
import re
import sys

import catalog

OURS = ["work-queue", "warp-shuffle-vectorized"]  # our fastest sum kernels, held against CUB
MATRIX = [r["id"] for r in catalog.rows() if r["family"] == "matrix"]  # in the catalog's order
ROW_KERNELS = [r["id"] for r in catalog.rows() if r["family"] == "matrix" and r["lines"] == "rows"]  # a result a row
ROW_ANCHORS = ["cub-segmented", "cublas-gemv-rows"]
COLUMN_KERNELS, COLUMN_ANCHORS = [a for a in MATRIX if a.startswith("column-sums")], ["cublas-gemv-columns"]
HARRIS = catalog.harris_order()  # Harris' kernels 1 to 7, in his order


def gpu(name):
    """'NVIDIA H100 80GB HBM3' -> 'H100'."""
    m = re.search(r"\b[A-Z]{1,2}\d{2,4}\b", name)
    return m.group(0) if m else name


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    print("\n".join(out) + "\n")


def harris_g80():
    """Harris' quoted G80 step speedups, kernel 2 over 1 to 7 over 6, from app/core/bench.h
    (kHarrisG80Step), the one place they are written."""
    with open(os.path.join(catalog.ROOT, "app", "core", "bench.h")) as f:
        m = re.search(r"kHarrisG80Step\[\] = \{([^}]*)\}", f.read())
    if not m:
        raise SystemExit("bench-report.py: no kHarrisG80Step in app/core/bench.h")
    return [float(x) for x in m.group(1).split(",")]


def log2(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def read_repeats(path):
    """{(algorithm, n): [% of peak, in run order]} and the GPU, from repeated CSV runs."""
    with open(path) as f:
        lines = [line for line in f if line.strip()]
    header = lines[0]
    out, device = {}, ""
    for x in csv.DictReader([header] + [line for line in lines[1:] if line != header]):
        out.setdefault((x["algorithm"], int(x["n"])), []).append(float(x["pct_of_peak"]))
        device = device or gpu(x.get("device") or "")
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.basename(folder) == "report":  # assets/runs/RUN/report/FILE: the run's name
        folder = os.path.dirname(folder)
    return device or os.path.basename(folder).upper(), out


def matrix_tables(r):
    """% of peak per shape and algorithm, and each shape's best row and column kernel against
    the anchors the issue names (CUB's segmented reduce; cuBLAS gemv for columns)."""
    by = {}
    for x in r["rows"]:
        by.setdefault((x["rows"], x["cols"]), {})[x["algorithm"]] = x
    algos = [a for a in ROW_KERNELS + ROW_ANCHORS + COLUMN_KERNELS + COLUMN_ANCHORS + ["block-2d"]
             if any(a in v for v in by.values())]
    label = f"{gpu(r['device'])} {r['rows'][0]['type']}"
    print(f"{label} (`{r['path']}`, {r['date']}): % of peak per shape, rows x cols; "
          f"{sum(bool(x.get('check_ok')) for x in r['rows'])} of {len(r['rows'])} rows passed their checks:\n")
    pct = lambda v, a: f"{v[a]['pct_of_peak']:.1f}" if a in v else "—"
    table(["shape"] + [f"`{a}`" for a in algos], [[f"{log2(R)} x {log2(C)}"] + [pct(v, a) for a in algos]
                                                   for (R, C), v in sorted(by.items())])

    def best(v, names):
        have = [a for a in names if a in v]
        return max(have, key=lambda a: v[a]["pct_of_peak"]) if have else None

    rows = []
    for (R, C), v in sorted(by.items()):
        br, bc = best(v, ROW_KERNELS), best(v, COLUMN_KERNELS)
        seg, gemv = v.get("cub-segmented"), v.get("cublas-gemv-columns")
        diff = lambda ours, other: f"{ours['pct_of_peak'] - other['pct_of_peak']:+.1f}" if ours and other else "—"
        rows.append([f"{log2(R)} x {log2(C)}", f"`{br}` {v[br]['pct_of_peak']:.1f}" if br else "—", diff(v.get(br), seg),
                     f"`{bc}` {v[bc]['pct_of_peak']:.1f}" if bc else "—", diff(v.get(bc), gemv)])
    print(f"{label}: our best row and column kernel per shape, in points of peak over CUB's segmented reduce "
          f"and over cuBLAS gemv (columns); above 0: ours is faster:\n")
    table(["shape", "best row kernel (% peak)", "vs cub-segmented", "best column kernel (% peak)",
           "vs cublas-gemv-columns"], rows)


def grid_tables(paths):
    """% of peak of each grid-choosing matrix kernel at every grid it ran with, shape by shape;
    the best grid of a shape in bold, the kernel's own grid marked."""
    by = {}
    for path in paths:
        with open(path) as f:
            r = json.load(f)
        own = "default" in os.path.basename(path)
        for x in r["rows"]:
            if x.get("grid") and "rows" in x:  # matrix rows; array rows record their grids too
                key = (gpu(r["device"]), x["type"], x["algorithm"])
                by.setdefault(key, {}).setdefault((x["rows"], x["cols"]), {})[(x["grid"], own)] = x
    if not by:
        sys.exit("bench-report.py --grids: no row in these files records a grid")
    for (device, type_, algo), shapes in sorted(by.items()):
        print(f"{device} {type_}, `{algo}`: % of peak at each grid (blocks in the first pass), shape by shape; "
              f"the best in bold:\n")
        rows = []
        for (R, C), grids in sorted(shapes.items()):
            best = max(grids, key=lambda g: grids[g]["pct_of_peak"])

            def entry(g, x):
                text = f"{g[0]}{' (own)' if g[1] else ''}: {x['pct_of_peak']:.1f}"
                return (f"**{text}**" if g == best else text) + ("" if x.get("check_ok") else " (check failed)")

            rows.append([f"{log2(R)} x {log2(C)}", grids[best]["block"],
                         ", ".join(entry(g, x) for g, x in sorted(grids.items()))])
        table(["shape", "block", "grid: % of peak"], rows)


def main():
    if sys.argv[1:2] == ["--grids"]:
        grid_tables(sys.argv[2:])
        return
    runs, frames, repeats, matrices = [], [], [], []
    for path in sys.argv[1:]:
        if path.endswith(".csv"):
            with open(path) as f:
                head = f.readline()
            if "algorithm" in head and "pct_of_peak" in head:  # else Nsight Compute's, skipped
                repeats.append((path, read_repeats(path)))
            continue
        if not path.endswith(".json"):
            continue
        with open(path) as f:
            r = json.load(f)
        if "bench_running" in r:
            frames.append((path, r))
            continue
        if not isinstance(r, dict) or not isinstance(r.get("rows"), list) or "device" not in r:
            continue  # not a benchmark run (a ladder, a sweep of other tools): skipped, as documented
        if r["rows"] and "rows" in r["rows"][0]:
            r["path"] = path
            matrices.append(r)
            continue
        by = {}
        for x in r["rows"]:
            by.setdefault(x["n"], {})[x["algorithm"]] = x
        r["label"] = f"{gpu(r['device'])} {r['rows'][0]['type']}"
        r["path"], r["by"] = path, by
        runs.append(r)
    if not runs and not frames and not repeats and not matrices:
        sys.exit(__doc__)
    labels = [r["label"] for r in runs]

    if runs:
        print("The runs:\n")
        table(["run", "file", "device", "driver", "date", "peak GB/s", "rows", "checks passed", "samples discarded"],
              [[r["label"], f"`{r['path']}`", r["device"], r["driver"], r["date"], f"{r['peak_gbps']:.0f}",
                len(r["rows"]), sum(bool(x.get("check_ok")) for x in r["rows"]),
                sum(x.get("discarded", 0) for x in r["rows"])] for r in runs])

        big = max(runs[0]["by"])
        first = runs[0]["by"][big]
        order = sorted(first, key=lambda a: first[a]["median_us"])
        print(f"% of peak at n = {log2(big)}, every algorithm, fastest first (in {labels[0]}); "
              f"`copy` moves twice the bytes (read and write):\n")
        rows = []
        for a in order:
            cells = [f"{r['by'][big][a]['pct_of_peak']:.1f}" if a in r["by"].get(big, {}) else "—" for r in runs]
            blk = first[a].get("block") or "—"
            rows.append([f"`{a}`", blk, f"{first[a]['median_us']:.1f}"] + cells)
        table(["algorithm", "block", f"µs ({labels[0]})"] + labels, rows)

        def ratio(r, n, ours):
            w, c = r["by"].get(n, {}).get(ours), r["by"].get(n, {}).get("cub")
            return f"{c['median_us'] / w['median_us']:.3f}" if w and c else "—"

        print("CUB's time / ours at every n (above 1: ours is faster), as " +
              " / ".join(f"`{a}`" for a in OURS) + ":\n")
        rows = []
        for n in sorted(runs[0]["by"]):
            blocks = " / ".join(str(runs[0]["by"][n].get(a, {}).get("block") or "—") for a in OURS)
            rows.append([log2(n), blocks] + [" / ".join(ratio(r, n, a) for a in OURS) for r in runs])
        table(["n", "blocks"] + labels, rows)

        n24 = 1 << 24
        if all(n24 in r["by"] for r in runs):
            g80 = harris_g80()
            print("Harris' kernels 1 to 7 at n = 2^24: each one's speed-up over the one before. The last column "
                  "quotes Harris' own, on a G80 with 2^22 ints (\"Optimizing Parallel Reduction in CUDA\", "
                  "NVIDIA, 2007); its 1 to 7 is the product of his steps:\n")
            rows = []
            for i, a in enumerate(HARRIS):
                rows.append([f"`{a}`"] + ["—" if i == 0 else
                                          f"{r['by'][n24][HARRIS[i - 1]]['median_us'] / r['by'][n24][a]['median_us']:.2f}x"
                                          for r in runs] + ["—" if i == 0 else f"{g80[i - 1]:.2f}x"])
            rows.append(["1 to 7"] + [f"{r['by'][n24][HARRIS[0]]['median_us'] / r['by'][n24][HARRIS[-1]]['median_us']:.2f}x"
                                      for r in runs] + [f"{math.prod(g80):.2f}x"])
            table(["algorithm"] + labels + ["G80 (Harris)"], rows)

    for path, (device, rep) in repeats:
        print(f"{device}, `{path}`: % of peak in each repeat, in run order:\n")
        algos = sorted({a for a, _ in rep}, key=lambda a: (a == "cub", a))
        rows = []
        for n in sorted({n for _, n in rep}):
            cells = [" / ".join(f"{v:.2f}" for v in rep.get((a, n), [])) for a in algos]
            rows.append([log2(n)] + cells)
        table(["n"] + [f"`{a}`" for a in algos], rows)

    for r in matrices:
        matrix_tables(r)

    if frames:
        print("The window's frames while it benchmarks (headless, paced at 60 Hz):\n")
        rows = []
        for path, f in frames:
            b, idle = f["bench_running"], f["idle"]
            rows.append([gpu(f.get("renderer", "")), f"`{path}`", b["frames"], f"{b['p50_ms']:.2f}", f"{b['p99_ms']:.2f}",
                         f"{b['max_ms']:.1f}", b["over_16_7_ms"], idle["frames"], idle["over_16_7_ms"],
                         f"{idle['max_ms']:.0f}"])
        table(["GPU", "file", "frames benchmarking", "p50 ms", "p99 ms", "max ms", "over 16.7 ms", "idle frames",
               "idle over 16.7 ms", "idle max ms"], rows)


if __name__ == "__main__":
    main()
