#!/usr/bin/env bash
# The GPU suite after kernels/shuffle.cuh was split (b6f9b96: block_shuffle.cuh, chunk_ends.cuh,
# shuffle_rows.cuh; device code moved, not changed) and the host-side changes before it (941cc4e,
# ba31cc0, de59a90): a call after first_waits_last_call.sh, which runs the first-waits test, four
# sanitizers over it and batched-rows-vectorized's and flat-rows' matrix traces. Here: every GPU
# test but the matrix traces and the first-waits test, then batched-rows-shuffle's matrix traces
# (the other moved kernel). About 5 minutes. The rest of the matrix family's traces (their kernels
# did not move): PART=traces bash scripts/experiments/rows_end_rest_call.sh.
# Carry .gpupack; results in $OUT/split.tgz.
set -u
source "$(dirname "$0")/call_lib.sh"
export REDLAB_REQUIRE_GPU=1
call_begin split
step gpu_test 420 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='-Gpu.MatrixTracesEqualTheCpuModelBitForBit:Gpu.RowsEndWithTheFirstBlockWaiting*'
REDLAB_MATRIX_IDS=batched-rows-shuffle step matrix_traces_brs 120 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
summarize
save
cat "$R/device.txt" "$R/steps.txt" "$R/summary.txt"
