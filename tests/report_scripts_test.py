#!/usr/bin/env python3
"""The report scripts that run on the GPU machine, run here on files of their formats, so CI
catches a script that no longer reads them: bench-report.py over the files docs/benchmarks.md
names, over a shipped matrix sweep and
over `bench --grid` runs of the CPU model, ncu-table.py over a raw Nsight Compute CSV.

usage: tests/report_scripts_test.py REDUCTION_LAB
"""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script(name, *args):
    return subprocess.run([sys.executable, os.path.join(ROOT, "scripts", name), *args], check=True,
                          capture_output=True, text=True).stdout


def expect(text, part):
    if part not in text:
        sys.exit(f"report_scripts_test: expected {part!r} in:\n{text}")


def main():
    lab = sys.argv[1]
    os.environ.setdefault("REDLAB_BINARY", lab)  # the scripts list the algorithms through it
    # The shipped sweep's line, pinned: it changes when that file does.
    sweep = script("bench-report.py", os.path.join(ROOT, "assets/runs/h100/bench_matrix_float_sum.json"))
    expect(sweep, "| 2^14 x 2^14 | `batched-rows-shuffle` 94.9 | +1.9 | `column-sums-vectorized` 92.9 | +3.4 |")
    expect(sweep, "| 2^24 x 15 | `thread-per-row` 87.2 | +85.5 |")  # every row kernel in the running
    # docs/benchmarks.md's own command over the files it names: every run and repeat table read.
    runs = os.path.join("assets", "runs")
    shipped = [os.path.join(runs, r, f) for r in ("h200", "h100")
               for f in sorted(os.listdir(os.path.join(ROOT, runs, r))) if f.endswith(".json")]
    extra = [os.path.join(runs, r, "report", f) for r in ("h200", "h100") for f in ("frames.json", "repeat_26-28.csv")]
    report = subprocess.run([sys.executable, os.path.join("scripts", "bench-report.py"), *shipped, *extra], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    expect(report, "| H200 float | `assets/runs/h200/bench_float_sum.json` |")
    expect(report, "H100, `assets/runs/h100/report/repeat_26-28.csv`: % of peak in each repeat")
    expect(report, "| H200 | `assets/runs/h200/report/frames.json` |")
    with tempfile.TemporaryDirectory() as d:
        for grid in ["8", "40", "default"]:
            asked = [] if grid == "default" else ["--grid", grid]
            subprocess.run([lab, "bench", "--backend", "sim", "-a", "column-sums", "--shapes", "1000x64,33x257", *asked,
                            "--seconds", "0.01", "--format", "json", "--out", f"{d}/g{grid}.json"], check=True)
        grids = script("bench-report.py", "--grids", f"{d}/g8.json", f"{d}/g40.json", f"{d}/gdefault.json")
    expect(grids, "`column-sums`: % of peak at each grid")
    expect(grids, "| 1000 x 2^6 | 1024 | ")
    expect(grids, "8: 0.0")
    expect(grids, "40: 0.0")
    expect(grids, " (own): 0.0")
    table = script("ncu-table.py", os.path.join(ROOT, "tests/data/ncu_raw_sample.csv"))
    expect(table, "| `rl::kernels::column_sums` | 370.4 | 86.5 | 1.2 | 4096 | 128 | — | 32 |")
    expect(table, "long_scoreboard 21.8, lg_throttle 3.5, wait 1.2 |")
    # Sectors a load request, from the two counters where the report holds them (cuBLAS gemv's
    # 4-byte loads on an H100: assets/runs/h100-rows/report/2026-12-05/why/ncu_gemv256.csv.gz).
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        f.write('"Kernel Name","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",'
                '"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"\n"","sector",""\n'
                '"void gemv2T_kernel_val(int)","37,748,736","9,437,184"\n')
    try:
        expect(script("ncu-table.py", f.name), "| 4.0 | — |")
    finally:
        os.unlink(f.name)
    print("report scripts: bench-report.py (sweep, --grids) and ncu-table.py read their formats")


if __name__ == "__main__":
    main()
