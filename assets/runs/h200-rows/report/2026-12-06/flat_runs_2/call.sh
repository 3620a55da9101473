#!/usr/bin/env bash
# Session 11, call 3: flat_runs_call.sh (runs against the wave, neighbours, cuBLAS, the Hopper
# kernels, mixed_stream, clocks) and the queue's held mode, on whatever card comes.
set -u
scripts/experiments/flat_runs_call.sh > /dev/null 2>&1
source scripts/experiments/call_lib.sh
call_begin queue_held
NV=(nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels)
step build 180 "${NV[@]}" -o .exp/flat_rows_queue scripts/experiments/flat_rows_queue.cu kernels/model/matrix_shapes.cpp
step held_1 120 .exp/flat_rows_queue held
step held_2 120 .exp/flat_rows_queue held
save
cat "$O/flat_runs/device.txt" "$O/flat_runs/steps.txt" "$R/steps.txt"
python3 - "$O/flat_runs" <<'PY'
import json, sys, os
for f in ("odd_1", "odd_2", "wave_1", "wave_2", "hopper"):
    d = json.load(open(os.path.join(sys.argv[1], f + ".json")))
    for r in d["rows"]:
        print(f, r["algorithm"], r.get("rows", r["n"]), r.get("cols", ""), r.get("grid", ""), "%.1f" % r["pct_of_peak"], r["check_ok"])
PY
