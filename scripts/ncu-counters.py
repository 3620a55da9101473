#!/usr/bin/env python3
"""Writes assets/counters/RUN.json from Nsight Compute's raw CSVs of one GPU call.

usage: scripts/ncu-counters.py DIR RUN
  DIR: device.txt (nvidia-smi's "name, driver", the UTC date, `ncu --version`'s last line) and
  ALGO.csv for each kernel (`ncu --import ALGO.ncu-rep --page raw --csv` of a report holding
  smsp__inst_executed.sum, gpu__time_duration.sum, launch__grid_size, launch__block_size; the
  first launch of the kernel, or every launch of one reduction for global-halving), as the
  device call in docs/perf-notes.md writes them. Durations are converted to microseconds by the
  unit the CSV's row of units gives (ns, us, ms or s); an unknown unit stops the script. Where the report holds them, also shared-memory
  bank conflicts and instructions, global load sectors and requests, threads a warp instruction,
  DRAM throughput and bytes read, and the warp-state stall reasons (WarpStateStats): sums over the
  launches, the rest of the first; and what each bench ran over, from bench_ALGO.json beside it.
  Every number written comes from the files.
"""
import csv
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def number(text):
    return float(text.replace(",", ""))


SUMS = {  # field: metric, summed over the launches
    "shared_load_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "shared_store_conflicts": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "shared_loads": "smsp__inst_executed_op_shared_ld.sum",
    "shared_stores": "smsp__inst_executed_op_shared_st.sum",
    "global_load_sectors": "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "global_load_requests": "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
}
STALL = "smsp__average_warps_issue_stalled_"
BYTES = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9}
# gpu__time_duration.sum's unit, as the CSV's row of units gives it (Nsight Compute picks one to
# suit the value: "nsecond"/"usecond"/"msecond"/"second", or "ns"/"us"/"ms"/"s"), in microseconds.
MICROSECONDS = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1.0, "us": 1.0, "\u00b5s": 1.0, "msecond": 1e3,
                "ms": 1e3, "second": 1e6, "s": 1e6}


def duration_us(path, units, data):
    """The launches' gpu__time_duration.sum in microseconds, by the unit the CSV gives it in."""
    metric = "gpu__time_duration.sum"
    unit = units.get(metric, "").strip()
    if unit not in MICROSECONDS:
        sys.exit(f"ncu-counters: {path}: {metric} in unit {unit!r}, not one of {sorted(MICROSECONDS)}")
    return round(sum(number(r[metric]) for r in data) * MICROSECONDS[unit], 3)


def extra_fields(units, data):
    out = {}
    for field, metric in SUMS.items():
        if metric in units:
            out[field] = int(sum(number(r[metric]) for r in data))
    first = data[0]
    if "smsp__thread_inst_executed_per_inst_executed.ratio" in units:
        out["threads_per_instruction"] = round(number(first["smsp__thread_inst_executed_per_inst_executed.ratio"]), 2)
    # Lanes with their predicate on: those that did work (the ratio above counts predicated-off lanes too).
    pred_on = "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio"
    if pred_on in units:
        on = round(number(first[pred_on]), 2)
        # Each metric may come from its own replay of the kernel. Where a kernel's work differs
        # between replays (cg-reduce-update-async, 2026-11-27: 5.97 on against 5.94 active), the
        # two ratios can contradict; the app refuses that, so the pair is not written.
        if on <= out.get("threads_per_instruction", 32) + 0.01:
            out["pred_on_per_instruction"] = on
        else:
            print(f"ncu-counters: {first.get('Kernel Name', '?')[:60]}: {on} lanes on against "
                  f"{out['threads_per_instruction']} active (different replays): lanes on left out", file=sys.stderr)
    if "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed" in units:
        out["dram_pct"] = round(number(first["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"]), 2)
    if "dram__bytes_read.sum" in units:
        out["dram_read_bytes"] = int(sum(number(r["dram__bytes_read.sum"]) * BYTES[units["dram__bytes_read.sum"]] for r in data))
    stalls = {k[len(STALL):-len("_per_issue_active.ratio")]: number(first[k]) for k in units
              if k.startswith(STALL) and k.endswith("_per_issue_active.ratio")}
    stalls.pop("selected", None)  # issuing, not a stall
    if stalls:  # the three largest, cycles a warp spends stalled per instruction issued
        top = sorted(stalls.items(), key=lambda kv: -kv[1])[:3]
        out["stalls"] = [{"reason": name, "cycles": round(value, 2)} for name, value in top]
    return out


def power(n):
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def input_of(folder, algo):
    """What the profiled bench ran over, from its own results (bench_ALGO.json): "2^24 floats",
    "4096 x 4096 floats"; the cluster size where it ran clusters."""
    with open(os.path.join(folder, f"bench_{algo}.json")) as f:
        row = json.load(f)["rows"][0]
    shape = f"{row['rows']} x {row['cols']}" if row.get("rows") else power(row["n"])
    out = {"input": f"{shape} {row['type']}s"}
    if row.get("cluster"):
        out["cluster"] = row["cluster"]
    return out


def kernel_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    data = rows[1:]  # the first row holds the units
    if not data:
        sys.exit(f"ncu-counters: {path}: no launch profiled")
    return rows[0], data


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
        path = os.path.join(folder, name)
        units, data = kernel_rows(path)
        kernels.append({
            "algorithm": name[:-4],
            "kernel": data[0]["Kernel Name"],
            "launches": len(data),
            "instructions": int(sum(number(r["smsp__inst_executed.sum"]) for r in data)),
            "duration_us": duration_us(path, units, data),
            "grid": int(number(data[0]["launch__grid_size"])),
            "block": int(number(data[0]["launch__block_size"])),
            **input_of(folder, name[:-4]),
            **extra_fields(units, data),
        })
    report = {"device": device, "driver": driver, "recorded": recorded, "tool": "Nsight Compute " + tool,
              "metric": "smsp__inst_executed.sum: warp instructions executed",
              "request": "bench --sizes 2^24 --type float --op sum (redux-sync: int; the matrix kernels "
                         "--shapes 4096x4096, the short-row ones 1048576x16): each kernel's first launch "
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
