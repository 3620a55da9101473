#!/usr/bin/env bash
# Whether bulk-async-streaming with its tiles from a counter (streaming_queue.cu, its ring on a
# 128-byte boundary) closes the slower H100s' gap at 2^28, where the catalog's reads 92.3 and
# work-queue 94.3-94.4 (docs/benchmarks.md, "Bulk copies into shared memory on 128-byte
# boundaries": measured so far only on a fast card and one not classed). The bench's Hopper kernels
# and work-queue first, twice, so the card's class is in the same call (about 90 s in all).
# On the GPU machine, from the repository's root (.gpupack carried):
#   scripts/experiments/hopper_card_call.sh    results in $OUT/hopper_card.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin hopper_card
A=work-queue,bulk-async-streaming,cluster-dsmem-streaming,vectorized-ordered,warp-shuffle-vectorized
for pass in 1 2; do
  bench "float_$pass" 60 -a "$A" --sizes 2^20,2^28 --type float
  bench "int_$pass" 60 -a redux-sync-streaming,work-queue --sizes 2^20,2^28 --type int
done
step nvcc 120 nvcc -arch=sm_90 -O3 -std=c++20 -I. -o .exp/streaming_queue scripts/experiments/streaming_queue.cu
step queue 120 .exp/streaming_queue 28
cat "$R/device.txt" "$R/steps.txt"
python3 scripts/experiments/bench_pct.py "$R"/float_*.json "$R"/int_*.json
cat "$R/queue.txt"
