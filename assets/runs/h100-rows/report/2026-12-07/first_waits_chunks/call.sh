#!/usr/bin/env bash
# What ran: two calls on GPU-ce95d05d (2026-12-07 17:00 and 17:05 UTC; work-queue 95.4 % at 2^28,
# card_class.json: a fast H100), the pack of e42f185's tree (the first-waits end from
# kFirstWaitsMinChunks chunks a row) but for its GPU test (its second case then rows of 5003; rows
# of 40003 in e42f185, not yet run on a GPU); .gpupack carried. The first call (first_waits_chunks/):
#   bash scripts/experiments/first_waits_chunks_call.sh
# the second, warm (first_waits_traces/, its own call.sh; cut at 580 s in flat-rows):
#   MATRIX_TRACES=1 bash scripts/experiments/first_waits_chunks_call.sh
set -u
source "$(dirname "$0")/call_lib.sh"
export REDLAB_REQUIRE_GPU=1
if [ -n "${MATRIX_TRACES:-}" ]; then
  call_begin first_waits_traces
  step matrix_traces 580 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
  summarize; save; exit
fi
call_begin first_waits_chunks
step gpu_test 300 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='-Gpu.MatrixTracesEqualTheCpuModelBitForBit'
REDLAB_MATRIX_IDS=batched-rows-vectorized step matrix_traces_brv 200 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
for tool in memcheck racecheck synccheck; do
  step "san_$tool" 60 compute-sanitizer --tool "$tool" --error-exitcode 9 .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter='Gpu.RowsEndWithTheFirstBlockWaiting*'
done
summarize
rows="1 2 3 4 6 8 12 16 24 32 48"
odd() { local r s=; for r in $rows; do s+="${r}x$(((($1 + r - 1) / r) | 1)),"; done; echo "${s%,}"; }
sets="3x1048577,5x100003,16x65536,32x262144,64x4100 $(odd $((1 << 20))) $(odd $((1 << 22)))"
for pass in 1 2; do
  for t in float half bf16; do
    k=0
    for s in $sets; do
      k=$((k + 1))
      bench "new_${t}_${k}_$pass" 60 -a batched-rows-vectorized --shapes "$s" --type "$t"
      old "old_${t}_${k}_$pass" 60 -a batched-rows-vectorized --shapes "$s" --type "$t"
    done
  done
done
for t in float half bf16 int; do bench "small_1d_$t" 30 -a warp-shuffle-vectorized --sizes 3145731 --type "$t"; done
bench card_class 30 -a work-queue --sizes 268435456 --type float
save
