#!/usr/bin/env bash
# Session 11, call 2: lanes-per-row at 10^6 x 100 (rows 16-byte aligned) held in one or two whole
# waves (asked grids) against its round of rows a block, with the bare-traffic bound (mixed_stream).
set -u
source scripts/experiments/call_lib.sh
call_begin lpr_held
( nvcc -arch=sm_90 -O3 -std=c++17 -o .exp/mixed_stream scripts/experiments/mixed_stream.cu > "$R/nvcc.txt" 2>&1 ) &
S=1000000x100,1000000x96,2000000x48,500000x200
for pass in 1 2; do
  bench "own_$pass" 40 -a lanes-per-row,flat-rows --shapes $S --type float
  for g in 528 1056 264; do bench "g${g}_$pass" 40 -a lanes-per-row --shapes $S --type float --grid $g; done
done
wait; step mixed 60 .exp/mixed_stream
save; cat "$R/steps.txt"
