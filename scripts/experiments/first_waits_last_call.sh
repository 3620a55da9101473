#!/usr/bin/env bash
# What first_waits_chunks_call.sh left (its call, 2026-12-07 17:00 UTC: the first-waits test's
# second case asked 16 chunks of rows of 5003 floats, more than the plan cuts, and the matrix
# traces' whole run passed 580 s before flat-rows' last cases): the first-waits test at rows of
# 40003, three sanitizers over it, and flat-rows' matrix traces. Carry .gpupack; results in
# $OUT/first_waits_last.tgz.
set -u
source "$(dirname "$0")/call_lib.sh"
export REDLAB_REQUIRE_GPU=1
call_begin first_waits_last
step first_waits 60 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.RowsEndWithTheFirstBlockWaiting*'
for tool in memcheck racecheck synccheck; do
  step "san_$tool" 60 compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter='Gpu.RowsEndWithTheFirstBlockWaiting*'
done
REDLAB_MATRIX_IDS=flat-rows step matrix_traces_flat 90 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
summarize
save
