#!/usr/bin/env bash
# What first_waits_chunks_call.sh left (its call, 2026-12-07 17:00 UTC: the first-waits test's
# second case asked 16 chunks of rows of 5003 floats, more than the plan cuts, and the matrix
# traces' whole run passed 580 s before flat-rows' last cases): the first-waits test at rows of
# 40003, four sanitizers over it, batched-rows-vectorized's and flat-rows' matrix traces (the launch
# names the first-waits kernel for 4-byte results only since 2026-12-07 19:45 UTC); then, on whatever card comes (no
# H200 has timed the first block waiting), the small problem and our 1D sums beside it, against
# the ticket's bench (.gpupack/old-reduction-lab.gz, e8721eb), two passes, and the card's class.
# Carry .gpupack; results in $OUT/first_waits_last.tgz.
set -u
source "$(dirname "$0")/call_lib.sh"
export REDLAB_REQUIRE_GPU=1
call_begin first_waits_last
step first_waits 60 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.RowsEndWithTheFirstBlockWaiting*'
for tool in memcheck racecheck synccheck initcheck; do
  step "san_$tool" 60 compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter='Gpu.RowsEndWithTheFirstBlockWaiting*'
done
REDLAB_MATRIX_IDS=batched-rows-vectorized step matrix_traces_brv 90 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
REDLAB_MATRIX_IDS=flat-rows step matrix_traces_flat 90 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
summarize
for pass in 1 2; do
  for t in float half bf16 int; do
    bench "new_${t}_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577,4x262145,16x262145 --type "$t"
    old "old_${t}_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577,4x262145,16x262145 --type "$t"
    bench "small_1d_${t}_$pass" 30 -a warp-shuffle-vectorized --sizes 3145731 --type "$t"
  done
done
bench card_class 30 -a work-queue --sizes 268435456 --type float
save
