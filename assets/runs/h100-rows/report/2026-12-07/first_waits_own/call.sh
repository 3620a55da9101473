#!/usr/bin/env bash
# What ran: one call on GPU-1838907b (2026-12-07 16:41 UTC), the pack of
# first_waits_own.patch applied to 7bbc1c0 (PACK_RENDER=0), .gpupack/old-reduction-lab.gz the
# ticket's bench (e8721eb), .gpupack carried; scripts/experiments/first_waits_own_call.sh as below.
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
