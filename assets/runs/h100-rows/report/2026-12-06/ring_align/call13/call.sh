#!/usr/bin/env bash
# Session 14, call 2: bulk copies into rings on 128-byte boundaries (ring_array). The experiment
# (stages 2-4, the ring where it falls and on a boundary), the catalog's bulk kernels and flat-rows
# through their GPU tests, memcheck, and the bench.
set -u
source scripts/experiments/call_lib.sh
call_begin s14b
( nvcc -arch=sm_90 -O3 -std=c++20 -I. -o .exp/streaming_queue scripts/experiments/streaming_queue.cu > "$R/nvcc.txt" 2>&1 ) &
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
IDS=bulk-async,bulk-async-streaming,flat-rows
wait; step streaming_queue 60 .exp/streaming_queue 28
step gpu_test 120 env REDLAB_IDS=$IDS REDLAB_GPU_QUICK=1 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1 \
  --gtest_filter='Gpu.TracesEqual*:Gpu.TimedKernels*:Gpu.GoldenTraces*:Gpu.HeldFlat*:Gpu.FlatRowsInTheir*:Gpu.BenchRunsFlat*:Gpu.NarrowMatrixTraces*:Gpu.RepeatedRuns*:Gpu.BackToBackSinglePass*'
step memcheck 100 env REDLAB_IDS=$IDS REDLAB_GPU_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 9 \
  .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1 --gtest_filter='Gpu.TracesEqual*:Gpu.TimedKernels*:Gpu.HeldFlatRowSums*'
bench arrays 30 -a bulk-async,bulk-async-streaming,work-queue --sizes 2^24,2^28 --type float
bench odd_float 40 -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float
cat "$R/device.txt" "$R/steps.txt"; tail -3 "$R/gpu_test.txt"; grep -E "ERROR SUMMARY" "$R/memcheck.txt" | tail -1
grep -E "ring at" "$R/streaming_queue.txt" | sort -u; grep -E "^--|WRONG|bulk" "$R/streaming_queue.txt" | head -40
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    j = json.load(open(f))
    print(os.path.basename(f), " ".join("%s:%s:%.2f%s" % (r["algorithm"][:9], ("%dx%d" % (r["rows"], r["cols"])) if r.get("rows") else r.get("n"), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in j["rows"]))
PY
cd "$O" && rm -rf s14b && ls
