#!/usr/bin/env bash
# flat-rows on the GPU after a change to its tiles (run for flat_tile_in_kernel.patch): gpu_test's matrix traces
# of flat-rows at every shape, bit for bit against the CPU model; the tests of its timed grid,
# held row sums, golden traces and timed matrix kernels; then compute-sanitizer's four tools over
# its traces, timed grid and held sums (the quick set). From this tree's pack (.gpupack/gpu.tgz).
# On the GPU machine, from the repository's root (.gpupack carried):
#   scripts/experiments/flat_verify_call.sh    results in $OUT/flat_verify.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin flat_verify
export REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM} REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
export REDLAB_MATRIX_IDS=flat-rows
echo "seed $REDLAB_TEST_SEED" >> "$R/device.txt"
T=".gpu/run.sh .gpu/bin/gpu_test"
step matrix_traces 150 $T --gtest_filter=Gpu.MatrixTracesEqualTheCpuModelBitForBit
step flat_tests 150 $T --gtest_filter='Gpu.FlatRows*:Gpu.HeldFlat*:Gpu.BenchRunsFlat*:Gpu.GoldenTraces*:Gpu.TimedMatrix*:Gpu.MatrixRunsRepeat*:Gpu.BackToBackMatrix*'
F='Gpu.MatrixTraces*:Gpu.HeldFlat*:Gpu.FlatRowsInTheir*'
for tool in memcheck synccheck initcheck racecheck; do
  step "san_$tool" 75 env REDLAB_GPU_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $T \
    --gtest_filter="$F"
done
summarize
save; cat "$R/steps.txt" "$R/summary.txt"
