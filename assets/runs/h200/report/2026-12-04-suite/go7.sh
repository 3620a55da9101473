#!/bin/bash
# Session 2026-12-04 (3), call 7: racecheck over the array kernels' timed runs (quick set).
set -u
cd "$(dirname "$0")/.."
R=$OUT/r7; mkdir -p "$R"
tar -xzf .gpupack/gpu.tgz
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
export REDLAB_REQUIRE_GPU=1 REDLAB_GPU_QUICK=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
timeout ${T:-240} compute-sanitizer --tool racecheck --error-exitcode 9 --print-limit 20 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='Gpu.TimedKernelsMatchADoubleReference:Gpu.NarrowTimedSumsMatchADoubleReference:Gpu.BackToBack*' > "$R/racecheck.txt" 2>&1
echo "racecheck rc=$?: $(grep -E 'RACECHECK SUMMARY' "$R/racecheck.txt" | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' "$R/racecheck.txt" | head -1)"
grep -E '^\[ +(OK|FAILED) ' "$R/racecheck.txt"
