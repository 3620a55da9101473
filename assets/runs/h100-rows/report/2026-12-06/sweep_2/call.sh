#!/usr/bin/env bash
# Session 12, call 2 (asked: an H200): the two-wave rule's grid tests and bench (s12a's steps but the
# quick gpu_test, which passed on H100 GPU-d6cb860f at 11:13), then issue 53's whole sweep.
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
for g in 528 1584 2112 15625; do bench "aligned_g$g" 50 -a lanes-per-row --grid $g --shapes $A --type float; done
bench aligned_again 50 -a lanes-per-row --shapes $A --type float
cat "$R/device.txt" "$R/steps.txt"; grep -E "device   |PASSED|FAILED|OK \]|Failure" "$R/grid_tests.txt" | head -20
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.2f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
scripts/experiments/sweep_call.sh > "$O/sweep_log.txt" 2>&1; tail -3 "$O/sweep_log.txt"
cd "$O" && tar czf s12b.tgz rule_h200 sweep sweep_log.txt && rm -rf rule_h200 rule_h200.tgz sweep sweep.tgz sweep_log.txt && ls
