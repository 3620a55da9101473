#!/usr/bin/env bash
# Session 11, call 11: the rounds_pay build (HEAD) on whatever card comes: the grid tests, the bench
# at rows of 256, 64 and 16 in the bench's own grid (floats, halves) beside cuBLAS gemv (floats).
set -u
source scripts/experiments/call_lib.sh
call_begin rule_check
export REDLAB_REQUIRE_GPU=1 REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step grid_tests 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves:Gpu.BenchRunsLanesPerRowInItsChosenGrid'
for pass in 1 2; do
  bench "rows_float_$pass" 60 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64,16777216x16 --type float
  bench "rows_half_$pass" 60 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type half
done
save; cat "$R/device.txt" "$R/steps.txt"; grep -E "device   |PASSED|FAILED|OK \]" "$R/grid_tests.txt" | head
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.1f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
