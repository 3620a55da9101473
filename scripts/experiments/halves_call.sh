#!/usr/bin/env bash
# Issue 53's device call (prepared 2026-12-04, run 2026-12-05: assets/runs/h200-rows/report/2026-12-05/): what holds
# halves below floats in flat-rows at the odd shapes, and what the last block's fold costs
# batched-rows-vectorized at 3 x (2^20 + 1) halves. On the GPU machine, from the repository's root,
# after `scripts/gpu-suite.sh pack` here (its .gpu/ carried, for Nsight Compute on the app's kernel):
#   scripts/experiments/halves_call.sh      results under $OUT/halves (or ./gpu-out/halves)
# Steps, each with its own time limit and a line in steps.txt:
#   small_fold    scripts/experiments/small_fold.cu (the fold: ticket, atomic, acq_rel; the 1D sum)
#   stages_half   scripts/experiments/flat_rows_stages.cu half (copies, + row sums' stores, the adds)
#   stages_float  the same over floats, in the same call, to compare
#   ncu_*         Nsight Compute on the catalog's flat-rows at 2^24 x 15, halves and floats
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin halves
NV=(nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels)
step build_small 120 "${NV[@]}" -o .exp/small_fold scripts/experiments/small_fold.cu kernels/model/matrix_shapes.cpp
step build_stages 120 "${NV[@]}" -o .exp/flat_rows_stages scripts/experiments/flat_rows_stages.cu
step small_fold 60 .exp/small_fold
step stages_half 90 .exp/flat_rows_stages half
step stages_float 90 .exp/flat_rows_stages
for t in half float; do
  n=ncu_${t}_224x15
  step "$n" 90 ncu --clock-control none --target-processes all --kernel-name-base demangled \
    --kernel-name "regex:rl::kernels::flat_rows<" --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --export "$R/$n" --force-overwrite \
    .gpu/run.sh .gpu/bin/reduction-lab bench -a flat-rows --shapes 2^24x15 --type "$t" --seconds 0.05 --format csv
  [ -s "$R/$n.ncu-rep" ] && ncu --import "$R/$n.ncu-rep" --page raw --csv > "$R/$n.csv" 2>/dev/null && rm -f "$R/$n.ncu-rep"
  [ -s "$R/$n.csv" ] && gzip -f "$R/$n.csv"
done
save
