#!/usr/bin/env bash
# Session 8, call 1: the owed flat-rows checks (kFlatRunMaxBlock, kFlatRunBytes, bench_matrix_row)
# and the streaming kernels over grids of several waves.
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
R=${OUT:-gpu-out}/s8a; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
( nvcc -arch=sm_90 -O3 -std=c++20 -I. -o /tmp/streaming_waves scripts/experiments/streaming_waves.cu > "$R/nvcc.txt" 2>&1 ) &
export REDLAB_REQUIRE_GPU=1 REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" > "$R/steps.txt"
t=$SECONDS
timeout 120 .gpu/run.sh .gpu/bin/gpu_test --gtest_filter='Gpu.FlatRowsInTheirTimedGridEqualTheModel:Gpu.BenchRunsFlatRowsInItsTimedGrid' > "$R/tests.txt" 2>&1
echo "tests rc=$? $(grep -E 'PASSED|FAILED' "$R/tests.txt" | tail -1) $((SECONDS-t)) s" >> "$R/steps.txt"
S=16777216x15,16777216x17,1000000x100,3000000x33
for b in 512 1024; do
  t=$SECONDS
  timeout 60 .gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json --out "$R/b$b.json" -a flat-rows \
    --shapes $S --type float --block $b > "$R/b$b.txt" 2>&1
  echo "b$b rc=$? $((SECONDS-t)) s" >> "$R/steps.txt"
done
for g in 3168 1584; do
  t=$SECONDS
  timeout 60 .gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json --out "$R/b1024_g$g.json" -a flat-rows \
    --shapes $S --type float --block 1024 --grid $g > "$R/b1024_g$g.txt" 2>&1
  echo "b1024 grid $g rc=$? $((SECONDS-t)) s" >> "$R/steps.txt"
done
wait
t=$SECONDS
timeout 200 /tmp/streaming_waves 28 > "$R/streaming_waves.txt" 2>&1
echo "streaming_waves rc=$? $((SECONDS-t)) s" >> "$R/steps.txt"
cat "$R/steps.txt"
tar -czf "${OUT:-gpu-out}/s8a.tgz" -C "${OUT:-gpu-out}" s8a
grep -E "work-queue|waves" "$R/streaming_waves.txt" | head -120
