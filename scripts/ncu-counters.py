#!/usr/bin/env python3
"""Writes assets/counters/RUN.json from Nsight Compute's raw CSVs of one GPU call.

usage: scripts/ncu-counters.py DIR RUN
  DIR: device.txt (nvidia-smi's "name, driver", the UTC date, `ncu --version`'s last line) and
  ALGO.csv for each kernel (`ncu --import ALGO.ncu-rep --page raw --csv` of a report holding
  smsp__inst_executed.sum, gpu__time_duration.sum, launch__grid_size, launch__block_size; the
  first launch of the kernel, or every launch of one reduction for global-halving), as the
  device call in docs/perf-notes.md writes them. Every number written comes from the files.
"""
import csv
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def number(text):
    return float(text.replace(",", ""))


def kernel_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    data = rows[1:]  # the first row holds the units
    if not data:
        sys.exit(f"ncu-counters: {path}: no launch profiled")
    return data


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    folder, run = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "device.txt")) as f:
        device_line, recorded, tool = [line.strip() for line in f.read().splitlines()[:3]]
    device, driver = [s.strip() for s in device_line.split(",")]
    kernels = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".csv"):
            continue
        data = kernel_rows(os.path.join(folder, name))
        kernels.append({
            "algorithm": name[:-4],
            "kernel": data[0]["Kernel Name"],
            "launches": len(data),
            "instructions": int(sum(number(r["smsp__inst_executed.sum"]) for r in data)),
            "duration_us": round(sum(number(r["gpu__time_duration.sum"]) for r in data), 3),
            "grid": int(number(data[0]["launch__grid_size"])),
            "block": int(number(data[0]["launch__block_size"])),
        })
    report = {"device": device, "driver": driver, "recorded": recorded, "tool": "Nsight Compute " + tool,
              "metric": "smsp__inst_executed.sum: warp instructions executed",
              "request": "bench --sizes 2^24 --type float --op sum: each kernel's first launch "
                         "(global-halving: every launch of one reduction)",
              "n": 1 << 24, "type": "float", "kernels": kernels}
    out = os.path.join(ROOT, "assets", "counters", run + ".json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(out), prefix=".counters-")
    with os.fdopen(fd, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")
    os.replace(tmp, out)
    print(f"ncu-counters: {len(kernels)} kernels -> {os.path.relpath(out, ROOT)}")


if __name__ == "__main__":
    main()
