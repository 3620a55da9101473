#!/usr/bin/env bash
# Session 8: the whole gpu_test (quick set) at HEAD, then the streaming kernels over vectors a thread.
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/s8e; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/s8e.tgz" -C "$O" s8e; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s $(grep -E 'PASSED|FAILED|SUMMARY' "$R/$name.txt" | tail -1 | cut -c1-70)" | tee -a "$R/steps.txt"; save; }
( nvcc -arch=sm_90 -O3 -std=c++20 -I. -o /tmp/streaming_waves scripts/experiments/streaming_waves.cu > "$R/nvcc.txt" 2>&1 ) &
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step gpu_test_quick 280 env REDLAB_GPU_QUICK=1 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1
wait
step vectors_28 60 /tmp/streaming_waves 28 vectors floats
step vectors_26 40 /tmp/streaming_waves 26 vectors floats
