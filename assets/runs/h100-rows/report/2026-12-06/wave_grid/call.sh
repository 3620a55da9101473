#!/usr/bin/env bash
# Session 11, call 10: the whole-wave grids lanes-per-row's timed kernel takes where rounds do not
# pay (rows_wave_grid.cu), and the Hopper kernels over 2^28 on whatever card comes.
set -u
source scripts/experiments/call_lib.sh
call_begin wave_grid
step build 180 nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -I. -Ikernels -o .exp/rows_wave_grid \
  scripts/experiments/rows_wave_grid.cu kernels/model/matrix_shapes.cpp
step grids 30 .exp/rows_wave_grid
bench hopper 40 -a cluster-dsmem-streaming,bulk-async-streaming,work-queue --sizes 2^28 --type float
bench hopper_int 40 -a redux-sync-streaming,work-queue --sizes 2^28 --type int
save; cat "$R/device.txt" "$R/steps.txt" "$R/grids.txt" "$R/build.txt" | head -60
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%.1f" % (r["algorithm"], r["pct_of_peak"]) for r in json.load(open(f))["rows"]))
PY
