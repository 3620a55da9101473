#!/usr/bin/env bash
# flat-rows' runs (a tile and a half a block, cd65f92) on a GPU where they were never timed (an H200
# first: none had been lent since they landed), beside the wave, cuBLAS and lanes-per-row; the
# limits of reads with writes amid them (mixed_stream, its runs held or not), the Hopper kernels,
# and the card's clocks (two H100 groups read 1 point of peak apart). On the GPU machine, from the
# repository's root, after `scripts/gpu-suite.sh pack` here (.gpupack carried):
#   scripts/experiments/flat_runs_call.sh    results in $OUT/flat_runs.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin flat_runs
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE,MEMORY > "$R/clocks.txt" 2>&1
( nvcc -arch=sm_90 -O3 -std=c++17 -o .exp/mixed_stream scripts/experiments/mixed_stream.cu > "$R/nvcc.txt" 2>&1 ) &
for pass in 1 2; do
  bench "odd_$pass" 60 -a flat-rows,lanes-per-row,cublas-gemv-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33,16777216x16,1000000x96,1048576x256 --type float
  bench "wave_$pass" 40 -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float --grid 396
done
bench hopper 40 -a cluster-dsmem-streaming,bulk-async-streaming,work-queue --sizes 2^28 --type float
wait; step mixed 60 .exp/mixed_stream
save; cat "$R/steps.txt"
