#!/usr/bin/env bash
# Session 10, call 7: flat-rows' runs from a queue, every row sum held to the kernel's end.
set -u
source scripts/experiments/call_lib.sh
call_begin queue
NV=(nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels)
step build 120 "${NV[@]}" -o .exp/flat_rows_queue scripts/experiments/flat_rows_queue.cu
step queue_1 120 .exp/flat_rows_queue
step queue_2 120 .exp/flat_rows_queue
save; cat "$R/steps.txt" "$R/queue_1.txt"
