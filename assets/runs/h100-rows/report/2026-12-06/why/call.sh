#!/usr/bin/env bash
# Session 9: MATRIX_WHY with its load-sector counters.
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/s9c; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/s9c.tgz" -C "$O" s9c; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" | tee -a "$R/steps.txt"; save; }
B=".gpu/run.sh .gpu/bin/reduction-lab"
step small_grids 60 $B bench -a multiple-per-thread,cg-two-phase,cg-reduce-update-async,bulk-async,compensated --sizes 2^20,16777219 --grid 333 --format json --out "$R/small_grids.json"
step why 540 env OUT="$R/why" ONLY_WHY=1 scripts/gpu-suite.sh run
save; cat "$R/steps.txt"; tail -40 "$R/why/summary.txt" 2>/dev/null
