#!/usr/bin/env bash
# Session 13, call 1 (asked: an H200; any card runs it all): a3bcb72 (DeviceShape explicit, the
# shape from DeviceInfo::shape()) through the grid tests and the quick gpu_test; the two-wave
# rule's bench (lanes-per-row beside cuBLAS gemv, halves, aligned rows in the bench's grid and in
# asked grids); issue 53's whole sweep.
# On an H200 also the streaming kernels over vectors a thread and bulk-async-streaming's buffers
# and tiles a block (owed since "The streaming kernels in more, shorter blocks": H100s only).
set -u
source scripts/experiments/call_lib.sh
call_begin rule_13
summary() {
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    print(os.path.basename(f), " ".join("%s:%dx%d:%s:%.2f%s" % (r["algorithm"][:4], r["rows"], r["cols"], r.get("grid", ""), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in json.load(open(f))["rows"]))
PY
}
H200=; grep -q H200 "$R/device.txt" && H200=1
( nvcc -arch=sm_90 -O3 -std=c++20 -I. -Ikernels -o .exp/rows_queue scripts/experiments/rows_queue.cu \
    kernels/model/matrix_shapes.cpp > "$R/nvcc_queue.txt" 2>&1 ) &
[ -n "$H200" ] && { nvcc -arch=sm_90 -O3 -std=c++20 -I. -o .exp/streaming_waves scripts/experiments/streaming_waves.cu > "$R/nvcc.txt" 2>&1 & }
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step grid_tests 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves:Gpu.BenchRunsLanesPerRowInItsChosenGrid:Gpu.ARoundABlockEqualsTheModel:Gpu.FlatRowsInTheirTimedGridEqualTheModel:Gpu.BenchRunsFlatRowsInItsTimedGrid'
if [ -z "$H200" ]; then  # an H100: the tests alone (35 H100s have run the bench's rule and the sweep)
  step gpu_test_quick 300 env REDLAB_GPU_QUICK=1 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1
  wait; step rows_queue 120 .exp/rows_queue
  bench rows_float 60 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64,16777216x16 --type float
  bench aligned 50 -a lanes-per-row,flat-rows --shapes 1000000x100,1000000x96,2000000x48,500000x200 --type float
  cat "$R/device.txt" "$R/steps.txt"; grep -E "PASSED|FAILED|Failure" "$R/grid_tests.txt" | head; tail -4 "$R/gpu_test_quick.txt"
  summary; grep -c WRONG "$R/rows_queue.txt"
  cd "$O" && tar czf s13a.tgz rule_13 && rm -rf rule_13 rule_13.tgz && ls; exit 0
fi
bench rows_float 60 -a lanes-per-row,cublas-gemv-rows --shapes 1048576x256,4194304x64,16777216x16 --type float
bench rows_half 50 -a lanes-per-row --shapes 1048576x256,4194304x64,16777216x16 --type half
A=1000000x100,1000000x96,2000000x48,500000x200
bench aligned 50 -a lanes-per-row --shapes $A --type float
for p in 1 2; do  # 1, 2, 3, 4 and 8 waves of four blocks of 256 an SM (an H200's 132 SMs)
  for g in 528 1056 1584 2112 4224; do bench "aligned_g${g}_$p" 50 -a lanes-per-row --grid $g --shapes $A --type float; done
done
bench aligned_again 50 -a lanes-per-row --shapes $A --type float
cat "$R/device.txt" "$R/steps.txt"; grep -E "device   |PASSED|FAILED|OK \]|Failure" "$R/grid_tests.txt" | head -20
summary
step gpu_test_quick 300 env REDLAB_GPU_QUICK=1 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1
tail -4 "$R/gpu_test_quick.txt"
scripts/experiments/sweep_call.sh > "$O/sweep_log.txt" 2>&1; tail -3 "$O/sweep_log.txt"
wait; step rows_queue 120 .exp/rows_queue; grep -c WRONG "$R/rows_queue.txt"
if [ -n "$H200" ]; then
  step vectors_28 120 .exp/streaming_waves 28 vectors
  step bulk_28 60 .exp/streaming_waves 28 bulk
  tail -n 12 "$R/vectors_28.txt" "$R/bulk_28.txt"
fi
cd "$O" && tar czf s13a.tgz rule_13 sweep sweep_log.txt && rm -rf rule_13 rule_13.tgz sweep sweep.tgz sweep_log.txt && ls
