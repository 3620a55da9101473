#!/usr/bin/env python3
"""Prints one table of Nsight Compute's counters, a row per profiled kernel.

usage: scripts/ncu-table.py FILE.csv [FILE.csv ...]
  FILE.csv: `ncu --import REPORT.ncu-rep --page raw --csv` of a report holding the sections
  SpeedOfLight, MemoryWorkloadAnalysis, Occupancy, LaunchStats and WarpStateStats
  (scripts/gpu-suite.sh with MATRIX_WHY=1 writes them). A counter a file lacks prints as "—".
Every number printed comes from the files.
"""
import csv
import os
import re
import sys

COLUMNS = [  # (heading, ncu's metric)
    ("µs", "gpu__time_duration.sum"),
    ("DRAM % of peak", ("gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",  # newer ncu
                        "dram__throughput.avg.pct_of_peak_sustained_elapsed")),
    ("L2 hit %", "lts__t_sector_hit_rate.pct"),
    ("grid", "launch__grid_size"),
    ("block", "launch__block_size"),
    ("waves a SM", "launch__waves_per_multiprocessor"),
    ("registers", "launch__registers_per_thread"),
    ("occupancy % (theory)", "sm__maximum_warps_per_active_cycle_pct"),
    ("occupancy % (achieved)", "sm__warps_active.avg.pct_of_peak_sustained_active"),
]
STALL = ("smsp__average_warps_issue_stalled_", "_per_issue_active.ratio")
# Global loads' 32-byte sectors over their requests (a warp's load instruction): 16 for a warp of
# 16-byte loads, 4 for 4-byte ones. Present where the report was taken with
# --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum.
SECTORS = ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def read(path):
    """Rows of {metric: (value, unit)} from a raw CSV: a header, a row of units, then kernels."""
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]  # ncu's own notes are not quoted
    rows = list(csv.reader(lines))
    if len(rows) < 3:
        return []
    header, units = rows[0], rows[1]
    return [{h: (v, u) for h, v, u in zip(header, r, units)} for r in rows[2:]]


def cell(k, metric):
    """A counter's value as printed; `metric` may be a tuple of names, the first present read."""
    if isinstance(metric, tuple):
        metric = next((m for m in metric if m in k), metric[0])
    v = k.get(metric)
    if not v:
        return "—"
    x = number(v[0])
    if x is None:
        return v[0]
    if metric == "gpu__time_duration.sum":  # ncu reports it in ns, us or ms
        x *= {"nsecond": 1e-3, "usecond": 1, "msecond": 1e3, "second": 1e6}.get(v[1], 1)
    return f"{x:.1f}" if x != int(x) else str(int(x))


def sectors_a_request(k):
    sectors, requests = (number(k[m][0]) if m in k else None for m in SECTORS)
    return f"{sectors / requests:.1f}" if sectors is not None and requests else "—"


def stalls(k):
    """The three largest stall reasons, in warps stalled per issued instruction."""
    found = []
    for m, (v, _) in k.items():
        reason = m[len(STALL[0]):-len(STALL[1])]
        if m.startswith(STALL[0]) and m.endswith(STALL[1]) and reason != "selected" and number(v):  # selected: issuing
            found.append((number(v), reason))
    return ", ".join(f"{name} {x:.1f}" for x, name in sorted(found, reverse=True)[:3]) or "—"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = ["| file | kernel | " + " | ".join(h for h, _ in COLUMNS) +
           " | sectors a load request | top stalls (warps per issue) |",
           "|" + "---|" * (len(COLUMNS) + 4)]
    for path in sys.argv[1:]:
        kernels = read(path)
        if not kernels:
            sys.exit(f"ncu-table.py: {path} holds no profiled kernel")
        for k in kernels:
            name = re.sub(r"^void ", "", k.get("Kernel Name", ("?", ""))[0]).split("(")[0].split("<")[0]
            out.append(f"| `{os.path.basename(path)}` | `{name[:60]}` | " +
                       " | ".join(cell(k, m) for _, m in COLUMNS) + f" | {sectors_a_request(k)} | {stalls(k)} |")
    print("\n".join(out))


if __name__ == "__main__":
    main()
