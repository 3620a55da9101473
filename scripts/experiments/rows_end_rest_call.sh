#!/usr/bin/env bash
# The rest of the GPU suite after the host-side changes of 941cc4e and ba31cc0 (the first-waits
# kernel for 4-byte results only; each launch reporting the end its rows took; tickets and words
# zeroed on the reducer's stream): a call after first_waits_last_call.sh, which runs the first-waits
# test, the sanitizers over it and batched-rows-vectorized's and flat-rows' matrix traces.
#   PART=tests   gpu_test but the matrix family's traces and the first-waits test (about 4 minutes)
#   PART=traces  the matrix family's traces but batched-rows-vectorized's and flat-rows' (about 7)
# On the GPU machine, from the repository's root, after `PACK_RENDER=0 scripts/gpu-suite.sh pack`
# here (.gpupack carried): results in $OUT/rows_end_PART.tgz (or ./gpu-out).
set -u
source "$(dirname "$0")/call_lib.sh"
export REDLAB_REQUIRE_GPU=1
part=${PART:-tests}
call_begin "rows_end_$part"
if [ "$part" = tests ]; then
  step gpu_test 540 .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter='-Gpu.MatrixTracesEqualTheCpuModelBitForBit:Gpu.RowsEndWithTheFirstBlockWaiting*'
else
  REDLAB_MATRIX_IDS=batched-rows,batched-rows-shuffle,batched-rows-split,column-sums,column-sums-vectorized,column-sums-naive,block-2d,warp-per-row,lanes-per-row,thread-per-row \
    step matrix_traces 560 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
fi
summarize
save
cat "$R/device.txt" "$R/steps.txt" "$R/summary.txt"
