#!/usr/bin/env bash
# Session 8: bulk-async-streaming's tiles a block, buffers and blocks; ints by vectors a thread.
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-gpu-out}; R=$O/s8f; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/s8f.tgz" -C "$O" s8f; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" | tee -a "$R/steps.txt"; save; }
step nvcc 120 nvcc -arch=sm_90 -O3 -std=c++20 -I. -o /tmp/streaming_waves scripts/experiments/streaming_waves.cu
step bulk_28 60 /tmp/streaming_waves 28 bulk
step bulk_26 40 /tmp/streaming_waves 26 bulk
step bulk_24 40 /tmp/streaming_waves 24 bulk
step vectors_28_int 90 /tmp/streaming_waves 28 vectors
grep -h "bulk\|work-queue" $R/bulk_28.txt | head -60
