#!/usr/bin/env bash
# The catalog with the row's first block waiting from kFirstWaitsMinChunks chunks a row (the pack
# of the tree, `scripts/gpu-suite.sh pack` with PACK_RENDER=0; .gpupack/old-reduction-lab.gz the
# ticket's bench, e8721eb): gpu_test but the whole matrix family's traces (MATRIX_TRACES=1 runs
# those alone, over 8 minutes), the family's traces of batched-rows-vectorized, three sanitizers
# over the first-waits test, then the bench against the ticket at first_waits_rows_call.sh's shapes
# and the small problem (two passes, alternating) and the card's class (work-queue at 2^28).
# Carry .gpupack; results in $OUT/first_waits_chunks.tgz.
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
