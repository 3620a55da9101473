#!/bin/bash
# Session 2026-12-04 (3), call 5: 3 x (2^20 + 1) of halves in blocks of 128 to 1024 beside the
# 1D sum of the same halves; then compute-sanitizer's synccheck and initcheck over the quick set.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS
R=$OUT/r5; mkdir -p "$R"
tar -xzf .gpupack/gpu.tgz
B=".gpu/run.sh .gpu/bin/reduction-lab"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
for pass in 1 2; do
  for b in 128 256 512 1024; do
    timeout 30 $B bench -a batched-rows-vectorized --shapes 3x1048577 --type half --block $b --seconds 0.2 \
      --format csv > "$R/small_half_b${b}_$pass.txt" 2>&1
  done
  timeout 30 $B bench -a warp-shuffle-vectorized --sizes 3145731 --type half --seconds 0.2 --format csv \
    > "$R/small_array_half_$pass.txt" 2>&1
done
echo "small $((SECONDS - start)) s"
ONLY_SANITIZERS=1 SANITIZERS="synccheck initcheck" SANITIZER_TIMEOUT=230 OUT=$R \
  timeout $((${DEADLINE:-560} - (SECONDS - start))) scripts/gpu-suite.sh run > "$R/san.txt" 2>&1
echo "sanitizers rc=$? $((SECONDS - start)) s"
cat "$R/summary.txt" 2>/dev/null
for f in "$R"/small_*; do awk -F, -v f="${f##*/}" 'NR==2 {print f, $1, "block", $7, "grid", $8, $10, "us", $15, "%", $17}' "$f"; done
