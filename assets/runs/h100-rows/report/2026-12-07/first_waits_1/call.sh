#!/usr/bin/env bash
# batched-rows-vectorized's first-waits end (issue 53, the small problem) on one GPU in one call:
# its GPU tests and three compute-sanitizer tools over the new one, then the small problem timed
# by this commit's bench and by the bench before first-waits (.gpupack/old-reduction-lab.gz: the
# ticket alone), alternating, on the same card, beside our 1D sums of the same elements. On the GPU
# machine, from the repository's root, after `scripts/gpu-suite.sh pack` here (.gpupack carried):
#   scripts/experiments/first_waits_call.sh    results in $OUT/first_waits.tgz (or ./gpu-out)
# SWEEP=1 times the float sweep's shapes instead, both benches, after the tests.
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin first_waits
gunzip -c .gpupack/old-reduction-lab.gz > .exp/old-reduction-lab && chmod +x .exp/old-reduction-lab
old() {  # old NAME LIMIT ARGS...: the bench before first-waits, as `bench` runs this one
  local name=$1 limit=$2; shift 2
  step "$name" "$limit" .gpu/run.sh .exp/old-reduction-lab bench --seconds 0.2 --format json --out "$R/$name.json" "$@"
}
new_test='Gpu.RowsEndWithTheFirstBlockWaitingWhereTheGridIsOneWave'
step tests 200 env REDLAB_REQUIRE_GPU=1 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter="$new_test:Gpu.BackToBackMatrixRunsEachEqualTheModel:Gpu.*Golden*:Gpu.*Matrix*"
if [ -n "${SWEEP:-}" ]; then
  for pass in 1 2; do
    bench "new_sweep_$pass" 120 -a batched-rows-vectorized --shapes sweep --type float
    old "old_sweep_$pass" 120 -a batched-rows-vectorized --shapes sweep --type float
  done
  summarize; save; exit 0
fi
for tool in memcheck racecheck synccheck; do
  step "san_$tool" 150 .gpu/run.sh compute-sanitizer --tool "$tool" --error-exitcode 1 .gpu/bin/gpu_test \
    --gtest_filter="$new_test"
done
for pass in 1 2; do
  for t in half bf16 float int; do
    bench "new_small_rows_${t}_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t"
    old "old_small_rows_${t}_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t"
    bench "small_1d_${t}_$pass" 30 -a warp-shuffle-vectorized,work-queue --sizes 3145731 --type "$t"
  done
done
summarize
save
