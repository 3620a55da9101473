#!/usr/bin/env bash
# Issue 53's sweep on one GPU in one device call (prepared 2026-12-05 for the first H100 lent since
# 2026-11-27): the streaming limits of this GPU (scripts/experiments/mixed_stream.cu and
# rows_ceiling.cu, the bench's `copy`), the Hopper kernels' streaming forms beside the two-launch
# kernels, the row sweep of floats with CUB's segmented reduce and cuBLAS gemv beside ours, the odd
# shapes, halves and bfloat16, and the small problem against our 1D sum over the same elements. On
# the GPU machine, from the repository's root, after `scripts/gpu-suite.sh pack` here (.gpupack carried):
#   scripts/experiments/sweep_call.sh    results in $OUT/sweep.tgz (or ./gpu-out)
# Each step has its own time limit and a line in steps.txt; `bench --seconds 0.2 --format json`.
# ONLY_LIMITS=1 stops after the limits and the Hopper kernels.
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin sweep
step build_mixed 120 nvcc -arch=sm_90 -O3 -std=c++17 -o .exp/mixed_stream scripts/experiments/mixed_stream.cu
step mixed 60 .exp/mixed_stream
step build_ceiling 120 nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o .exp/rows_ceiling \
  scripts/experiments/rows_ceiling.cu kernels/model/matrix_shapes.cpp
step rows_ceiling 90 .exp/rows_ceiling
bench copy 30 -a copy,work-queue --sizes 2^28 --type float
bench hopper_float 90 -a cluster-dsmem-streaming,bulk-async-streaming,cluster-dsmem,bulk-async,vectorized-ordered,warp-shuffle-vectorized,work-queue,multiple-per-thread,cg-two-phase,cub \
  --sizes 2^20,2^24,2^28 --type float
bench hopper_int 90 -a redux-sync-streaming,redux-sync,cluster-dsmem-streaming,bulk-async-streaming,warp-shuffle-vectorized,work-queue,multiple-per-thread,cg-two-phase,cub \
  --sizes 2^20,2^24,2^28 --type int
[ -n "${ONLY_LIMITS:-}" ] && exit 0  # the limits and the Hopper kernels alone (a short call)
ROWS=batched-rows-vectorized,lanes-per-row,flat-rows,warp-per-row,thread-per-row,batched-rows-shuffle,cub-segmented,cublas-gemv-rows
bench sweep_float 150 -a "$ROWS" --shapes sweep --type float
bench odd_float 60 -a "$ROWS" --shapes 2^24x17,3000000x33,1000000x96,2^24x16 --type float
for t in half bf16; do
  bench "sweep_$t" 120 -a batched-rows-vectorized,lanes-per-row,flat-rows --shapes sweep --type "$t"
done
# Floats over the same rows and bytes as halves at rows of 64 and 16 (2026-12-05: held floats at
# rows of 64 read 92.0, held halves 85.7; is it the row's bytes or the halves?).
bench same_bytes 40 -a lanes-per-row --shapes 4194304x32,16777216x8 --type float
for t in float half bf16 int; do
  ids=warp-shuffle-vectorized,work-queue; [ $t = float ] || [ $t = int ] && ids=$ids,vectorized-ordered  # fixed order
  bench "small_$t" 30 -a $ids --sizes 3145731 --type "$t"
  bench "small_rows_$t" 30 -a batched-rows-vectorized --shapes 3x1048577 --type "$t"
done
bench sweep_float_2 150 -a "$ROWS" --shapes sweep --type float
step mixed_2 60 .exp/mixed_stream
