#!/usr/bin/env bash
# One call for what is owed since e42f185's GPU runs, where a session may get only one machine:
# every GPU test but the matrix family's traces (the first-waits test with its checks of the end
# each launch took, since ba31cc0/de59a90; the 1D traces of every kernel that calls the moved
# block_shuffle and chunk_ends, b6f9b96), the matrix traces of the two kernels that moved
# (batched-rows-shuffle and batched-rows-vectorized, shuffle_rows.cuh), and memcheck and racecheck
# over the first-waits test. About 7 minutes (SANITIZERS= : about 5). What it leaves: first_waits_last_call.sh's
# synccheck, initcheck, flat-rows' traces and benches; PART=traces of rows_end_rest_call.sh.
# Carry .gpupack; results in $OUT/owed.tgz.
set -u
source "$(dirname "$0")/call_lib.sh"
export REDLAB_REQUIRE_GPU=1
call_begin owed
# QUICK=1, where under four minutes of device time are left: the array traces, the first-waits
# test, the timed kernels and the golden traces only, each step cut shorter.
traces_limit=110
if [ -n "${QUICK:-}" ]; then
  traces_limit=50
  step gpu_test 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TracesEqualTheCpuModelBitForBit:Gpu.RowsEndWithTheFirstBlockWaiting*:Gpu.TimedKernelsMatchADoubleReference:Gpu.GoldenTracesStillMatchThisGpu:Gpu.OwnCooperativeLaunch*'
else
  step gpu_test 330 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='-Gpu.MatrixTracesEqualTheCpuModelBitForBit'
fi
REDLAB_MATRIX_IDS=batched-rows-shuffle,batched-rows-vectorized step matrix_traces "$traces_limit" \
  .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
for tool in ${SANITIZERS-memcheck racecheck}; do  # SANITIZERS= for none, where device time is short
  step "san_$tool" 60 compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter='Gpu.RowsEndWithTheFirstBlockWaiting*'
done
summarize
save
cat "$R/device.txt" "$R/steps.txt" "$R/summary.txt"
