#!/usr/bin/env python3
"""Writes the tables of docs/benchmarks.md from `reduction-lab bench --format json` files.

usage: scripts/bench-report.py RESULTS.json [RESULTS.json ...] > tables.md
Every number printed comes from the files; nothing is typed in.
"""
import json
import sys

import catalog

# Harris' kernels 1 to 7, in his order; the seeds' two simpler starting points are shown apart.
# Our fastest sum kernels, each held against CUB at every n.
OURS = ["work-queue", "warp-shuffle-vectorized"]
HARRIS = catalog.harris_order()
SEED_STARTS = ["naive-serial", "global-halving"]


def block(row):
    """Threads per block the row ran with; files from before rows recorded it have none."""
    return str(row["block"]) if row.get("block") else "—"


def table(rows, header):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def main():
    for path in sys.argv[1:]:
        r = json.load(open(path))
        rows = r["rows"]
        typ, op = rows[0]["type"], rows[0]["op"]
        by = {}
        for x in rows:
            by.setdefault(x["n"], {})[x["algorithm"]] = x
        print(f"### {op} of {typ} — {r['device']}, driver {r['driver']}, {r['date']}, peak {r['peak_gbps']:.0f} GB/s\n")
        print(f"Source: `{path}`.\n")
        big = max(by)
        order = sorted(by[big].values(), key=lambda x: x["median_us"])
        print(f"All algorithms at n = 2^{big.bit_length() - 1}, fastest first:\n")
        print(table([[f"`{x['algorithm']}`", block(x), f"{x['median_us']:.1f}", f"{x['noise_pct']:.2f}%", x["samples"],
                      f"{x['gbps']:.0f}", f"{x['pct_of_peak']:.1f}%", x["check"]] for x in order],
                    ["algorithm", "block", "median µs", "noise", "samples", "GB/s", "% of peak", "check"]))
        n24 = 1 << 24
        if n24 in by:
            print(f"\nThe tree family at n = 2^24, Harris' kernels 1 to 7 in his order:\n")
            prev = first = None
            out = []
            for a in HARRIS:
                x = by[n24].get(a)
                if not x:
                    continue
                t = x["median_us"]
                out.append([f"`{a}`", f"{t:.1f}", f"{x['gbps']:.0f}", f"{x['pct_of_peak']:.1f}%",
                            f"{prev / t:.2f}x" if prev else "—", f"{first / t:.2f}x" if first else "—"])
                prev, first = t, first or t
            print(table(out, ["algorithm", "median µs", "GB/s", "% of peak", "step speedup", "cumulative"]))
            seeds = [[f"`{a}`", f"{by[n24][a]['median_us']:.1f}", f"{by[n24][a]['gbps']:.0f}",
                      f"{by[n24][a]['pct_of_peak']:.1f}%"] for a in SEED_STARTS if a in by[n24]]
            if seeds:
                print("\nThe seeds' starting points at n = 2^24 (not Harris' kernels):\n")
                print(table(seeds, ["algorithm", "median µs", "GB/s", "% of peak"]))
        for ours in OURS:
            out = []
            for n in sorted(by):
                w, c = by[n].get(ours), by[n].get("cub")
                if not w or not c:
                    continue
                out.append([f"2^{n.bit_length() - 1}", block(w), f"{w['median_us']:.2f} ± {w['noise_pct']:.1f}%",
                            f"{c['median_us']:.2f} ± {c['noise_pct']:.1f}%", f"{c['median_us'] / w['median_us']:.3f}",
                            f"{w['pct_of_peak']:.1f}%", f"{c['pct_of_peak']:.1f}%"])
            if out:
                print(f"\n`{ours}` against CUB at every n:\n")
                print(table(out, ["n", "our block", "ours µs", "CUB µs", "CUB time / ours", "ours % of peak",
                                  "CUB % of peak"]))
        print()


if __name__ == "__main__":
    main()
