#!/usr/bin/env bash
# Session 10, call 6: lanes-per-row in whole waves, its row sums held (an asked grid holds them where
# a block's share fits), against its round a block, on a fast H100: halves and bfloat16 at 2^22 x 64,
# floats at 2^20 x 256 beside cuBLAS gemv.
set -u
source scripts/experiments/call_lib.sh
call_begin waves
for pass in 1 2; do
  bench "own_$pass" 40 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64 --type float
  for t in half bf16; do bench "own_${t}_$pass" 40 -a lanes-per-row --shapes 4194304x64 --type $t; done
  for g in 264 396 528 660 792 1056; do
    bench "g${g}_$pass" 40 -a lanes-per-row --shapes 1048576x256 --type float --grid $g
    for t in half bf16; do bench "g${g}_${t}_$pass" 40 -a lanes-per-row --shapes 4194304x64 --type $t --grid $g; done
  done
done
save; cat "$R/steps.txt"
