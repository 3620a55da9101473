#!/usr/bin/env bash
# Call 2: the bench through its timing-only reducers (every row's check), then compute-sanitizer's
# four tools over issue 53's kernels (quick set): the Hopper streaming and bulk kernels' traces,
# flat-rows' and lanes-per-row's matrix traces, flat-rows held and in its timed grid.
source scripts/experiments/call_lib.sh
call_begin call2
export REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM} REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
echo "seed $REDLAB_TEST_SEED" >> "$R/device.txt"
T=".gpu/run.sh .gpu/bin/gpu_test"
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.05 --format json"
step bench_arrays 50 $B --sizes 1048576,1048579 --type float --out "$R/bench_arrays.json"
step bench_matrix 50 $B --shapes 1000x100,2^20x16,3x1048577,2^12x2^12 --type float --out "$R/bench_matrix.json"
step bench_matrix_half 30 $B --shapes 1000x100,2^20x16 --type half --out "$R/bench_matrix_half.json"
export REDLAB_GPU_QUICK=1 REDLAB_IDS=bulk-async,bulk-async-streaming,cluster-dsmem-streaming,redux-sync-streaming
export REDLAB_MATRIX_IDS=flat-rows,lanes-per-row
F='Gpu.TracesEqual*:Gpu.MatrixTraces*:Gpu.HeldFlat*:Gpu.FlatRowsInTheir*'
for tool in memcheck synccheck initcheck racecheck; do
  step "san_$tool" 105 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $T --gtest_filter="$F"
done
