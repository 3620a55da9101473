#!/usr/bin/env bash
# Call 1 (2026-12-06, second session): gpu_test's matrix traces of thread-per-row and flat-rows
# (not run on the last tree), then every other gpu_test test (bench.cu's timing-only reducers).
source scripts/experiments/call_lib.sh
call_begin call1
export REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM} REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
echo "seed $REDLAB_TEST_SEED" >> "$R/device.txt"
T=".gpu/run.sh .gpu/bin/gpu_test"
step matrix_traces 270 env REDLAB_MATRIX_IDS=thread-per-row,flat-rows $T --gtest_filter=Gpu.MatrixTracesEqualTheCpuModelBitForBit
step gpu_test_rest 300 $T --gtest_filter=-Gpu.MatrixTracesEqualTheCpuModelBitForBit
