#!/usr/bin/env bash
# Session 14, call 1 (asked: an H200): bulk-async-streaming with its tiles from a counter
# (scripts/experiments/streaming_queue.cu), on any card. On an H200 also what s13 owed there: the
# grid tests, the two-wave rule's bench, rows_queue, streaming_waves (vectors, bulk), the sweep.
set -u
source scripts/experiments/call_lib.sh
call_begin s14
H200=; grep -q H200 "$R/device.txt" && H200=1
step build_queue 150 nvcc -arch=sm_90 -O3 -std=c++20 -I. -o .exp/streaming_queue scripts/experiments/streaming_queue.cu
step streaming_queue 200 .exp/streaming_queue 28 24 20
bench hopper_float 60 -a bulk-async-streaming,cluster-dsmem-streaming,work-queue --sizes 2^20,2^28 --type float
grep -c WRONG "$R/streaming_queue.txt"; grep -E "^--|2\^28|queue 32Kx2|bulk-async" "$R/streaming_queue.txt" | head -60
[ -z "$H200" ] && { cd "$O" && tar czf s14.tgz s14 && rm -rf s14 s14.tgz.tmp; ls; exit 0; }
( nvcc -arch=sm_90 -O3 -std=c++20 -I. -Ikernels -o .exp/rows_queue scripts/experiments/rows_queue.cu \
    kernels/model/matrix_shapes.cpp > "$R/nvcc_rows_queue.txt" 2>&1 ) &
( nvcc -arch=sm_90 -O3 -std=c++20 -I. -o .exp/streaming_waves scripts/experiments/streaming_waves.cu > "$R/nvcc_waves.txt" 2>&1 ) &
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step grid_tests 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves:Gpu.BenchRunsLanesPerRowInItsChosenGrid:Gpu.ARoundABlockEqualsTheModel:Gpu.FlatRowsInTheirTimedGridEqualTheModel:Gpu.BenchRunsFlatRowsInItsTimedGrid'
bench rows_float 60 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64,16777216x16 --type float
bench rows_half 50 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type half
A=1000000x100,1000000x96,2000000x48,500000x200
bench aligned 50 -a lanes-per-row --shapes $A --type float
for g in 528 1056 2112 4224; do bench "aligned_g${g}" 50 -a lanes-per-row --grid $g --shapes $A --type float; done
wait; step rows_queue 120 .exp/rows_queue; grep -c WRONG "$R/rows_queue.txt"
step vectors_28 120 .exp/streaming_waves 28 vectors
step bulk_28 60 .exp/streaming_waves 28 bulk
cat "$R/device.txt" "$R/steps.txt"
cd "$O" && tar czf s14.tgz s14 && rm -rf s14 && ls
