#!/usr/bin/env bash
# Session 11, call 4: the queue with smaller tiles, more of them in flight (flat_rows_queue.cu tiles).
set -u
source scripts/experiments/call_lib.sh
call_begin queue_tiles
NV=(nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels)
step build 180 "${NV[@]}" -o .exp/flat_rows_queue scripts/experiments/flat_rows_queue.cu kernels/model/matrix_shapes.cpp
step tiles_1 120 .exp/flat_rows_queue tiles
step tiles_2 120 .exp/flat_rows_queue tiles
bench odd 60 -a flat-rows --shapes 1000000x100,3000000x33 --type float
bench hopper 40 -a work-queue --sizes 2^28 --type float
save; cat "$R/steps.txt" "$R/tiles_1.txt"
