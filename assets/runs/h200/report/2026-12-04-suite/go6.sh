#!/bin/bash
# Session 2026-12-04 (3), call 6: compute-sanitizer's four tools over the matrix GPU tests whose
# kernels use shared memory the most (flat-rows' bulk copies and held ring, lanes-per-row's held
# sums, the timed matrix kernels in every type), in the quick set.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS
R=$OUT/r6; mkdir -p "$R"
tar -xzf .gpupack/gpu.tgz
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
export REDLAB_REQUIRE_GPU=1 REDLAB_GPU_QUICK=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
F='Gpu.HeldFlatRowSums*:Gpu.HeldRowSums*:Gpu.HeldNarrowRowSums*:Gpu.TimedMatrixKernels*:Gpu.NarrowTimedMatrixKernels*'
for tool in racecheck synccheck memcheck initcheck; do
  left=$((${DEADLINE:-420} - (SECONDS - start)))
  (( left > 30 )) || { echo "SKIPPED $tool (deadline)"; continue; }
  timeout $left compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 .gpu/run.sh .gpu/bin/gpu_test \
    --gtest_filter="$F" > "$R/$tool.txt" 2>&1
  echo "$tool rc=$? $((SECONDS - start)) s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$tool.txt" | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' "$R/$tool.txt" | head -1)"
done
