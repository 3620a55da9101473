#!/usr/bin/env bash
# Session 11, call 9: lanes-per-row's rounds only where they pay (rounds_pay): the two tests of the
# timed grid, the bench at rows of 256, 64 and 16, then the whole quick gpu_test.
set -u
source scripts/experiments/call_lib.sh
call_begin rounds_rule
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step grid_tests 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves:Gpu.BenchRunsLanesPerRowInItsChosenGrid:Gpu.ARoundABlockEqualsTheModel'
for t in float half; do
  bench "rows_$t" 60 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type $t
done
bench cublas 40 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64 --type float
bench hopper 40 -a work-queue --sizes 2^28 --type float
step gpu_test_quick 330 env REDLAB_GPU_QUICK=1 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1
save; cat "$R/device.txt" "$R/steps.txt"; grep -E "device   |PASSED|FAILED|OK \]" "$R/grid_tests.txt" | head; tail -5 "$R/gpu_test_quick.txt"
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    d = json.load(open(f))
    print(os.path.basename(f), " ".join("%s:%s:%dx%d:%s:%.1f%s" % (r["algorithm"][:4], r["type"][:2], r.get("rows", r["n"]), r.get("cols", 0), r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in d["rows"]))
PY
