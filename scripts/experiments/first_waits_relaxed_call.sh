#!/usr/bin/env bash
# first_waits_relaxed.patch applied (batched-rows-vectorized's rows ended by their first block
# waiting, its words relaxed at GPU scope) against the ticket, on one GPU in one call: its GPU test
# and the back-to-back test, memcheck over the first, then the small problem timed by this pack's
# bench and by the ticket's (.gpupack/old-reduction-lab.gz), alternating, beside our 1D sums; halves
# and bfloat16 also in 128 chunks a row (--grid 384). On the GPU machine, from the repository's root,
# after applying the patch and `scripts/gpu-suite.sh pack` here (.gpupack carried):
#   scripts/experiments/first_waits_relaxed_call.sh    results in $OUT/first_waits_relaxed.tgz
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin first_waits_relaxed
new_test='Gpu.RowsEndWithTheFirstBlockWaitingWhereTheGridIsOneWave'
step tests 120 env REDLAB_REQUIRE_GPU=1 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter="$new_test:Gpu.BackToBackMatrixRunsEachEqualTheModel"
step san_memcheck 60 .gpu/run.sh compute-sanitizer --tool memcheck --error-exitcode 1 .gpu/bin/gpu_test \
  --gtest_filter="$new_test"
for pass in 1 2; do
  for t in half bf16 float int; do
    bench "new_small_rows_${t}_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t"
    old "old_small_rows_${t}_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t"
    bench "small_1d_${t}_$pass" 30 -a warp-shuffle-vectorized,work-queue --sizes 3145731 --type "$t"
  done
  for t in half bf16; do
    bench "new_small_rows_${t}_384_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t" --grid 384
    old "old_small_rows_${t}_384_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t" --grid 384
  done
done
summarize
save
