#!/usr/bin/env bash
# What ran: one call on GPU-1838907b (2026-12-07 16:41 UTC, warm after first_waits_own/), the same
# pack; scripts/experiments/first_waits_rows_call.sh as below.
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
