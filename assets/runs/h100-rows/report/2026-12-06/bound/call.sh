#!/usr/bin/env bash
# Session 10, call 2: what our 1D sums read over the odd shapes' bytes, and flat-rows in other blocks.
set -u
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/bound; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/bound.tgz" -C "$O" bound; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" | tee -a "$R/steps.txt"; save; }
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json"
for pass in 1 2; do
  step "flat1d_$pass" 60 $B --out "$R/flat1d_$pass.json" -a work-queue,warp-shuffle-vectorized,vectorized-ordered --sizes 251658240,285212672,100000000,99000000,268435456 --type float
  step "half1d_$pass" 60 $B --out "$R/half1d_$pass.json" -a work-queue,warp-shuffle-vectorized,vectorized-ordered --sizes 251658240,285212672,100000000,99000000,268435456 --type half
  step "odd_float_$pass" 60 $B --out "$R/odd_float_$pass.json" -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float
  step "odd_half_$pass" 60 $B --out "$R/odd_half_$pass.json" -a flat-rows,lanes-per-row --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type half
done
for blk in 128 512; do
  step "block_$blk" 60 $B --out "$R/block_$blk.json" -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float --block $blk
done
save; cat "$R/steps.txt"
