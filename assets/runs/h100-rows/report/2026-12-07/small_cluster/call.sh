#!/usr/bin/env bash
# A short call for what is left open on issue 53 and fits a few minutes of a machine: the small
# problem's fold through a cluster (small_cluster.cu, about 30 s: the catalog, the cluster fold
# checked bit for bit against it, our 1D sum); flat_rows_stages.cu's runs (a few seconds), whose
# last column drops the barrier at a tile's end; then on an H200 flat_odd_call.sh (about 90 s),
# whose `stages_runs` asks whether a tile's third pass makes the H200s' gap at rows of 15 floats.
# On the GPU machine, from the repository's root (.gpupack carried; both experiments are built
# there, about 40 s):
#   scripts/experiments/small_cluster_call.sh    results in $OUT/small_cluster.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin small_cluster
step nvcc 120 nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o .exp/small_cluster scripts/experiments/small_cluster.cu \
  kernels/model/matrix_shapes.cpp  # built here, always: a carried binary may predate the source
step small_cluster 90 .gpu/run.sh .exp/small_cluster
cat "$R/small_cluster.txt"
if grep -q H200 "$R/device.txt"; then  # flat_odd_call.sh builds and runs the stages itself
  scripts/experiments/flat_odd_call.sh > /dev/null 2>&1
  cat "$O/flat_odd/steps.txt" "$O/flat_odd/stages_runs.txt"
else
  step nvcc_stages 120 nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o .exp/flat_rows_stages \
    scripts/experiments/flat_rows_stages.cu
  step stages_runs 120 .gpu/run.sh .exp/flat_rows_stages runs
  cat "$R/stages_runs.txt"
fi
