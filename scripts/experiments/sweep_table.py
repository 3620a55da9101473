#!/usr/bin/env python3
"""Tables of one sweep call (scripts/experiments/sweep_call.sh): every number from its results.

usage: scripts/experiments/sweep_table.py DIR > tables.md
  DIR: the call's sweep/ folder (sweep_float, sweep_float_2, odd_float, sweep_{half,bf16},
  hopper_{float,int}, small_*, small_rows_*, copy: each NAME.json as `bench --format json` writes it,
  or NAME.csv from a call before 2026-12-05 12:30 UTC).
A file that is missing or cut short gives the rows it has; a row whose check failed is marked.
"""
import csv
import json
import os
import sys

OURS = ["batched-rows-vectorized", "lanes-per-row", "flat-rows", "warp-per-row", "thread-per-row", "batched-rows-shuffle"]
ANCHORS = ["cub-segmented", "cublas-gemv-rows"]


def read_rows(path):
    """The rows of one results file, JSON or CSV; check_ok as "yes" or "no" in both."""
    with open(path, newline="") as f:
        if ".json" in path:
            found = json.load(f).get("rows", [])
            for r in found:
                r["check_ok"] = "yes" if r.get("check_ok") is True else "no"
            return found
        return list(csv.DictReader(f))


def rows(folder, name):
    for ending in (".json", ".json.partial", ".csv", ".csv.partial"):
        path = os.path.join(folder, name + ending)
        if os.path.exists(path):
            return [r for r in read_rows(path) if r.get("algorithm") and r.get("pct_of_peak") not in (None, "")]
    return []


def shape(r):
    return (int(r["rows"]), int(r["cols"]))


def shape_name(s):
    def power(v):
        return f"2^{v.bit_length() - 1}" if v > 1 and v & (v - 1) == 0 else str(v)
    return f"{power(s[0])} x {power(s[1])}"


def pct(r):
    return f"{float(r['pct_of_peak']):.1f}" + ("" if r["check_ok"] == "yes" else " (check failed)")


def by_shape(passes):
    """{shape: {algorithm: [row of each pass]}} in the first pass's order of shapes."""
    out = {}
    for p in passes:
        for r in p:
            out.setdefault(shape(r), {}).setdefault(r["algorithm"], []).append(r)
    return out


def cell(found):
    return " / ".join(pct(r) for r in found) if found else ""


def best_of(found, names):
    """The best of `names` by its first pass: (algorithm, its rows)."""
    have = [(a, found[a]) for a in names if a in found]
    return max(have, key=lambda x: float(x[1][0]["pct_of_peak"])) if have else (None, [])


def matrix_table(title, passes, names, anchors):
    table = by_shape(passes)
    if not table:
        return
    cols = names + anchors
    print(f"\n{title}\n")
    print("| rows x cols | " + " | ".join(f"`{a}`" for a in cols) + " | best of ours | its lead over the anchors |")
    print("|" + "---|" * (len(cols) + 3))
    for s, found in table.items():
        best, got = best_of(found, names)
        lead = ""
        if best and any(a in found for a in anchors):
            anchor = max((float(found[a][0]["pct_of_peak"]) for a in anchors if a in found))
            lead = f"{float(got[0]['pct_of_peak']) - anchor:+.1f}"
        print(f"| {shape_name(s)} | " + " | ".join(cell(found.get(a)) for a in cols) + f" | {best or ''} | {lead} |")


def array_table(title, data):
    if not data:
        return
    sizes = sorted({int(r["n"]) for r in data})
    algos = list(dict.fromkeys(r["algorithm"] for r in data))
    print(f"\n{title}\n")
    print("| algorithm | " + " | ".join(f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n) for n in sizes) + " |")
    print("|" + "---|" * (len(sizes) + 1))
    for a in algos:
        got = {int(r["n"]): r for r in data if r["algorithm"] == a}
        print(f"| `{a}` | " + " | ".join(
            f"{pct(got[n])} ({float(got[n]['median_us']):.2f} µs)" if n in got else "" for n in sizes) + " |")


def small_table(folder):
    print("\nThe small problem, 3 x (2^20 + 1), against 1D sums of the same 3,145,731 elements (µs):\n")
    print("| type | `batched-rows-vectorized` (grid, block) | the fastest 1D sum | ratio | fixed-order 1D sum | ratio |")
    print("|---|---|---|---|---|---|")
    for t in ["float", "half", "bf16", "int"]:
        m, a = rows(folder, f"small_rows_{t}"), rows(folder, f"small_{t}")
        if not m or not a:
            continue
        us = float(m[0]["median_us"])
        fast = min(a, key=lambda r: float(r["median_us"]))
        fixed = [r for r in a if r["algorithm"] == "vectorized-ordered"]
        fixed_cells = (f"{float(fixed[0]['median_us']):.2f} (`vectorized-ordered`) | "
                       f"{us / float(fixed[0]['median_us']):.2f}x") if fixed else "| "
        print(f"| {t} | {us:.2f} ({m[0]['grid']}, {m[0]['block']}) | {float(fast['median_us']):.2f} "
              f"(`{fast['algorithm']}`) | {us / float(fast['median_us']):.2f}x | {fixed_cells} |")


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "device.txt")) as f:
        print("Device: " + " ".join(line.strip() for line in f))
    copy = rows(folder, "copy")
    if copy:
        print("\nThe read and the copy at 2^28 floats: " + ", ".join(
            f"`{r['algorithm']}` {pct(r)} %" for r in copy))
    array_table("Hopper kernels and the two-launch kernels, float sums, % of peak (µs):",
                rows(folder, "hopper_float"))
    array_table("The same, int sums:", rows(folder, "hopper_int"))
    passes = [rows(folder, "sweep_float"), rows(folder, "sweep_float_2")]
    matrix_table("Float sums, % of peak (pass 1 / pass 2):", [p for p in passes if p], OURS, ANCHORS)
    matrix_table("Odd shapes and their neighbours, float sums:", [rows(folder, "odd_float")], OURS, ANCHORS)
    matrix_table("Floats over the halves' rows and bytes (2^22 x 64 and 2^24 x 16 halves):",
                 [rows(folder, "same_bytes")], OURS, [])
    for t in ["half", "bf16"]:
        matrix_table(f"{t}, added in float, % of peak:", [rows(folder, f"sweep_{t}")], OURS[:3], [])
    small_table(folder)


if __name__ == "__main__":
    main()
