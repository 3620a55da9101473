#!/usr/bin/env bash
# Call 3: compute-sanitizer's four tools over the other row kernels' matrix traces and timed runs
# (quick set), then memcheck over the whole quick set.
source scripts/experiments/call_lib.sh
call_begin call3
export REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM} REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
echo "seed $REDLAB_TEST_SEED" >> "$R/device.txt"
T=".gpu/run.sh .gpu/bin/gpu_test"
export REDLAB_GPU_QUICK=1
F='Gpu.MatrixTraces*:Gpu.NarrowMatrixTraces*:Gpu.TimedMatrix*:Gpu.Held*:Gpu.ARound*'
for tool in memcheck synccheck initcheck racecheck; do
  step "rows_$tool" 100 env REDLAB_MATRIX_IDS=batched-rows-vectorized,thread-per-row,warp-per-row,batched-rows-split \
    compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $T --gtest_filter="$F"
done
step all_memcheck 200 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $T
for f in "$R"/*.txt; do echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$f" | tail -2 | tr '\n' ' ')"; done > "$R/summary.txt"
save
