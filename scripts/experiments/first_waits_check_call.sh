#!/usr/bin/env bash
# After `git apply scripts/experiments/first_waits_catalog.patch` and `scripts/gpu-suite.sh pack`
# (PACK_RENDER=0; .gpupack/old-reduction-lab.gz a pack's reduction-lab from before it; carry
# .gpupack): the shapes where the row's first block waits (one wave, at most a block's threads of
# chunks a row) and two beside them, timed by this pack's bench and by the ticket's, alternating,
# two passes, floats, halves and bfloat16; then work-queue at 2^28 to class the card.
# Results in $OUT/first_waits_check.tgz. (Ran 2026-12-07 as one command line of this content.)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin first_waits_check
shapes=3x1048577,1x4194304,5x100003,16x65536,32x262144,64x4100
for pass in 1 2; do
  for t in float half bf16; do
    bench "new_${t}_$pass" 40 -a batched-rows-vectorized --shapes "$shapes" --type "$t"
    old "old_${t}_$pass" 40 -a batched-rows-vectorized --shapes "$shapes" --type "$t"
  done
done
bench card_class 30 -a work-queue --sizes 268435456 --type float
save
