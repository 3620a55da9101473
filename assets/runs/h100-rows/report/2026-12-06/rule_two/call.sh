#!/usr/bin/env bash
# Session 11, call 16: the rule's second form (two whole waves where rounds do not pay): the grid
# tests and the bench at rows of 256, 64, 16 and the aligned shapes, on whatever card comes.
set -u
source scripts/experiments/call_lib.sh
call_begin rule_two
export REDLAB_REQUIRE_GPU=1 REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step grid_tests 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves:Gpu.BenchRunsLanesPerRowInItsChosenGrid:Gpu.ARoundABlockEqualsTheModel'
bench rows_float 60 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64,16777216x16 --type float
bench rows_half 60 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type half
bench aligned 60 -a lanes-per-row --shapes 1000000x100,1000000x96,2000000x48,500000x200 --type float
save; cat "$R/device.txt" "$R/steps.txt"; grep -E "device   |PASSED|FAILED|OK \]|Failure" "$R/grid_tests.txt" | head
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.2f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
