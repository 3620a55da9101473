#!/usr/bin/env bash
# Session 10, call 3: flat-rows with every row sum of a run held to its end; halves' 1D bound.
set -u
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/held; mkdir -p "$R" .exp
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/held.tgz" -C "$O" held; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" | tee -a "$R/steps.txt"; save; }
step nvcc 120 nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o .exp/flat_rows_held scripts/experiments/flat_rows_held.cu
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json"
step half1d 60 $B --out "$R/half1d.json" -a work-queue,warp-shuffle-vectorized --sizes 251658240,285212672,100000000,99000000,268435456 --type half
step held_1 120 .exp/flat_rows_held
step held_2 120 .exp/flat_rows_held
save; cat "$R/steps.txt"; cat "$R/held_1.txt"
