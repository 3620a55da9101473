#!/usr/bin/env bash
# small_tagged.cu on any sm_90 card (about 30 s with its build): the small problem's fold with
# totals tagged by the launch's epoch, no fence (`tagged`) or no ticket (`first`), against the
# catalog's ticket fold, one atomic a block and our 1D sum; then small_fold.cu for the same card.
# On the GPU machine, from the repository's root (.gpupack carried, for call_lib.sh):
#   scripts/experiments/small_tagged_call.sh    results in $OUT/small_tagged.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin small_tagged
for x in small_tagged small_fold; do
  step "nvcc_$x" 120 nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o ".exp/$x" "scripts/experiments/$x.cu" \
    kernels/model/matrix_shapes.cpp  # built here, always: a carried binary may predate the source
  step "$x" 120 .gpu/run.sh ".exp/$x"
  step "${x}_2" 120 .gpu/run.sh ".exp/$x"
done
cat "$R/device.txt" "$R/steps.txt" "$R/small_tagged.txt" "$R/small_tagged_2.txt" "$R/small_fold.txt"
