#!/usr/bin/env bash
# Session 9: the streaming kernels' grids on this GPU (bulk tiles a block; vectors a thread).
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
O=${OUT:-gpu-out}; R=$O/s9a; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/s9a.tgz" -C "$O" s9a; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" | tee -a "$R/steps.txt"; save; }
step nvcc 120 nvcc -arch=sm_90 -O3 -std=c++20 -I. -o /tmp/streaming_waves scripts/experiments/streaming_waves.cu
step bulk_28 60 /tmp/streaming_waves 28 bulk
step vectors_28 90 /tmp/streaming_waves 28 vectors
step bulk_26 40 /tmp/streaming_waves 26 bulk
step bulk_24 40 /tmp/streaming_waves 24 bulk
step waves_28 120 /tmp/streaming_waves 28
grep -h "bulk\|work-queue" $R/bulk_28.txt | sort -k7 -n | tail -12
