#!/usr/bin/env bash
# Session 12, call 1: the two-wave rule (1a8db18) and DeviceShape through timed_grid, on whatever
# card comes (asked: an H200): the grid tests, the bench at rows of 256/64/16 and the aligned
# shapes in the chosen grid, rows of 100/96/48/200 in three and four waves of 256-thread blocks
# (1584 and 2112 on an H200: 4 blocks an SM), then the quick gpu_test.
set -u
source scripts/experiments/call_lib.sh
call_begin rule_h200
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step grid_tests 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves:Gpu.BenchRunsLanesPerRowInItsChosenGrid:Gpu.ARoundABlockEqualsTheModel:Gpu.FlatRowsInTheirTimedGridEqualTheModel:Gpu.BenchRunsFlatRowsInItsTimedGrid'
bench rows_float 60 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64,16777216x16 --type float
bench rows_half 50 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type half
A=1000000x100,1000000x96,2000000x48,500000x200
bench aligned 50 -a lanes-per-row --shapes $A --type float
for g in 528 1584 2112; do bench "aligned_g$g" 50 -a lanes-per-row --grid $g --shapes $A --type float; done
bench aligned_again 50 -a lanes-per-row --shapes $A --type float
step gpu_test_quick 300 env REDLAB_GPU_QUICK=1 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1
save; cat "$R/device.txt" "$R/steps.txt"; grep -E "device   |PASSED|FAILED|OK \]|Failure|waves|pay" "$R/grid_tests.txt" | head -20; tail -4 "$R/gpu_test_quick.txt"
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.2f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
