#!/usr/bin/env bash
# Session 10, call 4: lanes-per-row's block size at 2^20 x 256 (level with cuBLAS gemv), beside cuBLAS.
set -u
source scripts/experiments/call_lib.sh
call_begin blocks
for pass in 1 2; do
  bench "cublas_$pass" 40 -a cublas-gemv-rows,lanes-per-row --shapes 1048576x256,4194304x64 --type float
  for blk in 128 512 1024; do
    bench "lpr_b${blk}_$pass" 40 -a lanes-per-row --shapes 1048576x256,4194304x64 --type float --block $blk
  done
  bench "half_$pass" 40 -a lanes-per-row,flat-rows --shapes 4194304x64,16777216x15 --type half
  for blk in 128 512; do
    bench "half_b${blk}_$pass" 40 -a lanes-per-row,flat-rows --shapes 4194304x64,16777216x15 --type half --block $blk
  done
done
save; cat "$R/steps.txt"
