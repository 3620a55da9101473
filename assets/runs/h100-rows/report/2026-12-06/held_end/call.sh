#!/usr/bin/env bash
# Session 11, call 1: the queue with every sum held to its end (held mode), and the odd shapes'
# runs against the wave in the bench (flat_runs_call.sh's passes), on whatever card comes.
set -u
source scripts/experiments/call_lib.sh
call_begin held_end
NV=(nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels)
step build 180 "${NV[@]}" -o .exp/flat_rows_queue scripts/experiments/flat_rows_queue.cu kernels/model/matrix_shapes.cpp
step held_1 120 .exp/flat_rows_queue held
for pass in 1 2; do
  bench "odd_$pass" 60 -a flat-rows,lanes-per-row,cublas-gemv-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33,16777216x16,1000000x96,1048576x256 --type float
  bench "wave_$pass" 40 -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float --grid 396
done
step held_2 120 .exp/flat_rows_queue held
save; cat "$R/steps.txt" "$R/held_1.txt"
