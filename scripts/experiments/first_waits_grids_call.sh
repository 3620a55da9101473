#!/usr/bin/env bash
# first_waits_relaxed.patch's pack: the small problem in 64, 128, 192 and 256 chunks a row (grids
# 192-768, each one wave on an H100) against the ticket's build at 128, beside our 1D sums, three
# passes. Carry .gpupack (the patched pack and old-reduction-lab.gz), as first_waits_relaxed_call.sh.
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin first_waits_grids
for pass in 1 2 3; do
  for t in half bf16 float int; do
    for g in 192 384 576 768; do
      bench "new_${t}_${g}_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t" --grid "$g"
    done
    old "old_${t}_384_$pass" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t" --grid 384
    bench "small_1d_${t}_$pass" 30 -a warp-shuffle-vectorized --sizes 3145731 --type "$t"
  done
done
save
