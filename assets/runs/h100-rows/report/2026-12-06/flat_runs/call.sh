#!/usr/bin/env bash
# flat-rows' runs (a tile and a half a block, cd65f92) on a GPU where they were never timed (an H200
# first: none had been lent since they landed), beside the wave, cuBLAS and lanes-per-row; the
# limits of reads with writes amid them (mixed_stream, its runs held or not), the Hopper kernels,
# and the card's clocks (two H100 groups read 1 point of peak apart). On the GPU machine, from the
# repository's root, after `scripts/gpu-suite.sh pack` here (.gpupack carried):
#   scripts/experiments/flat_runs_call.sh    results in $OUT/flat_runs.tgz (or ./gpu-out)
set -u
cd "$(dirname "$0")/../.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/flat_runs; mkdir -p "$R" .exp
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/flat_runs.tgz" -C "$O" flat_runs; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" | tee -a "$R/steps.txt"; save; }
nvidia-smi -q -d CLOCK,PERFORMANCE,POWER,TEMPERATURE,MEMORY > "$R/clocks.txt" 2>&1
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json"
( nvcc -arch=sm_90 -O3 -std=c++17 -o .exp/mixed_stream scripts/experiments/mixed_stream.cu > "$R/nvcc.txt" 2>&1 ) &
for pass in 1 2; do
  step "odd_$pass" 60 $B --out "$R/odd_$pass.json" -a flat-rows,lanes-per-row,cublas-gemv-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33,16777216x16,1000000x96,1048576x256 --type float
  step "wave_$pass" 40 $B --out "$R/wave_$pass.json" -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float --grid 396
done
step hopper 40 $B --out "$R/hopper.json" -a cluster-dsmem-streaming,bulk-async-streaming,work-queue --sizes 2^28 --type float
wait; step mixed 60 .exp/mixed_stream
save; cat "$R/steps.txt"
