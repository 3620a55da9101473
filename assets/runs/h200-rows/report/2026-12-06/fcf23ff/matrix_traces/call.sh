#!/usr/bin/env bash
# Session 15, call 3 (warm H200): gpu_test's matrix traces (the part of gpu_test call 1 left out),
# then memcheck over flat-rows' float matrix traces.
set -u
source scripts/experiments/call_lib.sh
call_begin s15c
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
T=".gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1"
step matrix_traces 470 $T --gtest_filter=Gpu.MatrixTracesEqualTheCpuModelBitForBit
step memcheck_flat 90 env REDLAB_IDS=flat-rows REDLAB_GPU_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 9 \
  $T --gtest_filter='Gpu.MatrixTraces*'
cat "$R/device.txt" "$R/steps.txt"; for f in "$R"/*.txt; do echo "== $f"; grep -E "PASSED|FAILED|ERROR SUMMARY|tests ran" "$f" | tail -3; done
cd "$O" && rm -rf s15c && ls
