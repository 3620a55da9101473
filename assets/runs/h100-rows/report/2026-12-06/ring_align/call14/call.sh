#!/usr/bin/env bash
# Session 14, call 3 (warm): what call 2 left out: flat-rows' float matrix traces, memcheck over
# flat-rows' traced runs, and racecheck, synccheck and initcheck over the bulk kernels' traced runs.
set -u
source scripts/experiments/call_lib.sh
call_begin s14c
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
T=".gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1"
step matrix_traces 100 env REDLAB_IDS=flat-rows REDLAB_GPU_QUICK=1 $T --gtest_filter='Gpu.MatrixTraces*'
step memcheck_flat 90 env REDLAB_IDS=flat-rows REDLAB_GPU_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 9 \
  $T --gtest_filter='Gpu.NarrowMatrixTraces*:Gpu.FlatRowsInTheir*'
for tool in racecheck synccheck initcheck; do
  step "$tool" 60 env REDLAB_IDS=bulk-async,bulk-async-streaming REDLAB_GPU_QUICK=1 compute-sanitizer --tool $tool \
    --error-exitcode 9 $T --gtest_filter='Gpu.TracesEqual*:Gpu.TimedKernels*'
done
cat "$R/device.txt" "$R/steps.txt"; for f in "$R"/*.txt; do echo "== $f"; grep -E "PASSED|FAILED|ERROR SUMMARY|RACECHECK SUMMARY" "$f" | tail -2; done
cd "$O" && rm -rf s14c && ls
