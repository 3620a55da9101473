#!/usr/bin/env bash
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
R=${OUT:-gpu-out}/s8b; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
nvcc -arch=sm_90 -O3 -std=c++20 -I. -o /tmp/streaming_waves scripts/experiments/streaming_waves.cu > "$R/nvcc.txt" 2>&1
timeout 300 /tmp/streaming_waves 28 > "$R/streaming_waves.txt" 2>&1; echo "rc=$?" >> "$R/streaming_waves.txt"
tar -czf "${OUT:-gpu-out}/s8b.tgz" -C "${OUT:-gpu-out}" s8b
cat "$R/device.txt" "$R/streaming_waves.txt"
