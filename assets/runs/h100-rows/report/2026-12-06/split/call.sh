#!/usr/bin/env bash
# Session 10, call 5: where flat-rows' extra time over a 1D read goes, in its runs: the copies alone,
# with the row sums' stores, the adds (flat_rows_stages.cu runs); bulk copies over the same 1D bytes.
set -u
source scripts/experiments/call_lib.sh
call_begin split
NV=(nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels)
step build_stages 120 "${NV[@]}" -o .exp/flat_rows_stages scripts/experiments/flat_rows_stages.cu
for pass in 1 2; do
  bench "oned_$pass" 40 -a work-queue,bulk-async-streaming --sizes 100000000,99000000,251658240,268435456 --type float
  step "stages_runs_$pass" 120 .exp/flat_rows_stages runs
done
step stages_runs_half 120 .exp/flat_rows_stages half runs
step stages_wave 120 .exp/flat_rows_stages
save; cat "$R/steps.txt"; cat "$R/stages_runs_1.txt"
