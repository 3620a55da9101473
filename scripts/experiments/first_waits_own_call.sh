#!/usr/bin/env bash
# first_waits_own.patch packed (the row's first block waiting as its own instantiation of
# batched-rows-vectorized, the head and tail loaded after the body as before; the ticket's
# instantiation the catalog's code; the plan's rules the catalog's), against the catalog's bench
# (.gpupack/old-reduction-lab.gz), alternating, two passes: the small problem (halves and bfloat16
# also in 128 chunks a row, --grid 384, where the first block waits) and the shapes beside it.
# Carry .gpupack after `scripts/gpu-suite.sh pack` (PACK_RENDER=0); results in $OUT/first_waits_own.tgz.
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin first_waits_own
shapes=3x1048577,1x4194304,5x100003,16x65536,32x262144,64x4100
for pass in 1 2; do
  for t in float half bf16 int; do
    bench "new_${t}_$pass" 40 -a batched-rows-vectorized --shapes "$shapes" --type "$t"
    old "old_${t}_$pass" 40 -a batched-rows-vectorized --shapes "$shapes" --type "$t"
  done
  for t in half bf16; do
    bench "new_${t}_384_$pass" 20 -a batched-rows-vectorized --shapes 3x1048577 --type "$t" --grid 384
    old "old_${t}_384_$pass" 20 -a batched-rows-vectorized --shapes 3x1048577 --type "$t" --grid 384
  done
  bench "small_1d_$pass" 30 -a warp-shuffle-vectorized --sizes 3145731 --type half
done
save
