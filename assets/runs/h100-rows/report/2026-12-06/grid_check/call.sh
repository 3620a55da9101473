#!/usr/bin/env bash
# Session 12, call 4 (asked: an H200): the pack of a3199e2 (lanes_timed_grid). On an H200, s12b's
# steps (the grid tests, the rule's bench, the whole sweep); on an H100, the grid tests and the
# bench at rows of 256, 64 and 16.
set -u
cd "$(dirname "$0")/.."
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then exec bash .gpupack/s12b.sh; fi
source scripts/experiments/call_lib.sh
call_begin grid_check
export REDLAB_REQUIRE_GPU=1 REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step grid_tests 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves:Gpu.BenchRunsLanesPerRowInItsChosenGrid:Gpu.ARoundABlockEqualsTheModel:Gpu.FlatRowsInTheirTimedGridEqualTheModel:Gpu.BenchRunsFlatRowsInItsTimedGrid'
bench rows_float 60 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16,1000000x100,1000000x96 --type float
save; cat "$R/device.txt" "$R/steps.txt"; grep -E "device   |PASSED|FAILED|OK \]|Failure" "$R/grid_tests.txt"
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.2f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
