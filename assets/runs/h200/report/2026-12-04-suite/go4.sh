#!/bin/bash
# Session 2026-12-04 (3), call 4: the two own-process GPU tests as the suite runs them (REDLAB_BINARY
# exported as a command line), then the suite's benchmark (float and int sums of every algorithm,
# 2^16..2^28, the charts, the window's frames while the Bandwidth tab benchmarks).
set -u
cd "$(dirname "$0")/.."
start=$SECONDS
mkdir -p "$OUT/a"
tar -xzf .gpupack/gpu.tgz
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$OUT/device.txt"
REDLAB_REQUIRE_GPU=1 REDLAB_BINARY=".gpu/run.sh .gpu/bin/reduction-lab" timeout 60 .gpu/run.sh .gpu/bin/gpu_test \
  --gtest_filter='Gpu.Own*Process*' > "$OUT/own_process.txt" 2>&1
echo "own process rc=$? $((SECONDS - start)) s"; tail -3 "$OUT/own_process.txt"
ONLY_BENCH=1 OUT=$OUT/a timeout $((${DEADLINE:-560} - (SECONDS - start))) scripts/gpu-suite.sh run > "$OUT/a/run.txt" 2>&1
echo "bench rc=$? $((SECONDS - start)) s"
cat "$OUT/a/summary.txt" 2>/dev/null
