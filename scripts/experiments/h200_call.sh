#!/usr/bin/env bash
# What only an H200 can answer for issue 53, in one call; on any other card it records the card and
# stops, so a call that did not get an H200 costs only the machine's start. On an H200:
# flat_odd_call.sh (about 90 s: why 2^24 x 15 reads about 7 points under 2^24 x 17 there, with
# flat_rows_stages.cu's tiles a pass shorter and its tile-end barrier dropped), then
# streaming_waves.cu's `28 bulk`, `26 bulk` and `28 vectors` (a few seconds each: whether
# bulk-async-streaming with a tile or two a block, which reads 93.3-94.2 on H100s where its one
# wave misses 93, reads as well on an H200), then small_cluster.cu (the small problem's cluster
# fold, slower on two H100s), then flat_sms_call.sh's `sms` (about 20 s: the same prototype with
# every SM, to set beside an H100 with 94 SMs free, the emulation of an H200 of 2026-12-07).
# On the GPU machine, from the repository's root, after `PACK_RENDER=0 scripts/gpu-suite.sh pack`
# here (.gpupack carried):
#   scripts/experiments/h200_call.sh    results in $OUT/h200.tgz and $OUT/flat_odd.tgz (or ./gpu-out)
set -u
source "$(dirname "$0")/call_lib.sh"
call_begin h200
cat "$R/device.txt"
grep -q H200 "$R/device.txt" || { echo "h200_call: not an H200; nothing run"; save; exit 0; }
scripts/experiments/flat_odd_call.sh > "$R/flat_odd_call.txt" 2>&1
step nvcc_waves 120 nvcc -arch=sm_90 -O3 -std=c++20 -I. -o .exp/streaming_waves scripts/experiments/streaming_waves.cu
step bulk_28 60 .exp/streaming_waves 28 bulk
step bulk_26 40 .exp/streaming_waves 26 bulk
step vectors_28 90 .exp/streaming_waves 28 vectors
step nvcc_cluster 120 nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o .exp/small_cluster scripts/experiments/small_cluster.cu \
  kernels/model/matrix_shapes.cpp
step small_cluster 90 .exp/small_cluster
MODES=sms scripts/experiments/flat_sms_call.sh > "$R/flat_sms_call.txt" 2>&1
cat "$R/steps.txt" "$O/flat_odd/steps.txt"
grep -h "bulk\|work-queue" "$R/bulk_28.txt" | head -30
cat "$O/flat_odd/stages_runs.txt" "$O/flat_sms/sms_1.txt"
