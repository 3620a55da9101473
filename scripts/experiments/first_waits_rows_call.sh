#!/usr/bin/env bash
# first_waits_own.patch packed, against the catalog's bench (.gpupack/old-reduction-lab.gz),
# alternating, two passes: where the row's first block waiting gains and where it loses, by the
# number of rows at three totals (2^20, 2^22, 2^24 elements, rows of odd length; 2^22 also in
# rows of a multiple of 4). first_waits_own_call.sh found it ahead at 1, 3 and 5 rows and behind
# at 16 and 32. Carry .gpupack after `scripts/gpu-suite.sh pack` (PACK_RENDER=0); results in
# $OUT/first_waits_rows.tgz.
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin first_waits_rows
rows="1 2 3 4 6 8 12 16 24 32 48"
odd() { local r s=; for r in $rows; do s+="${r}x$(((($1 + r - 1) / r) | 1)),"; done; echo "${s%,}"; }
even() { local r s=; for r in $rows; do s+="${r}x$(((($1 + 4 * r - 1) / (4 * r)) * 4)),"; done; echo "${s%,}"; }
declare -A sets=([o20]="$(odd $((1 << 20)))" [o22]="$(odd $((1 << 22)))" [o24]="$(odd $((1 << 24)))"
  [e22]="$(even $((1 << 22)))")
echo "${sets[@]}" > "$R/shapes.txt"
for pass in 1 2; do
  for t in float half; do
    for s in o20 o22 e22 o24; do
      bench "new_${t}_${s}_$pass" 60 -a batched-rows-vectorized --shapes "${sets[$s]}" --type "$t"
      old "old_${t}_${s}_$pass" 60 -a batched-rows-vectorized --shapes "${sets[$s]}" --type "$t"
    done
  done
done
for t in float half bf16; do bench "small_1d_$t" 30 -a warp-shuffle-vectorized --sizes 3145731 --type "$t"; done
save
