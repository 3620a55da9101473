#!/bin/bash
# Second call: the matrix GPU tests the first call's traces test left unrun (it took its 170 s),
# the small problem of halves in several grids, then the traces test for lanes-per-row alone.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS; deadline=${DEADLINE:-200}
R=$OUT/r2; mkdir -p "$R"
tar -xzf .gpupack/gpu.tgz
B=".gpu/run.sh .gpu/bin/reduction-lab"; T=".gpu/run.sh .gpu/bin/gpu_test"
step() {
  local name=$1 s=$2; shift 2
  if (( SECONDS - start + s > deadline )); then echo "SKIPPED $name (deadline)" >> "$R/steps.txt"; return; fi
  local t0=$SECONDS; timeout "$s" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" >> "$R/steps.txt"
}
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
export REDLAB_REQUIRE_GPU=1
step gpu_test 80 $T --gtest_filter='Gpu.TimedMatrix*:Gpu.NarrowTimedMatrix*:Gpu.Held*:Gpu.TimedRow*:Gpu.BenchRuns*:Gpu.BackToBackMatrix*:Gpu.MatrixRunsRepeat*:Gpu.GoldenTraces*'
for t in half float; do
  step "small_array_$t" 15 $B bench -a warp-shuffle-vectorized --sizes 3145731 --type $t --seconds 0.2 --format csv
  for g in default 96 192 384 768; do
    step "small_${t}_$g" 15 $B bench -a batched-rows-vectorized --shapes 3x1048577 --type $t $([ $g = default ] || echo --grid $g) \
      --seconds 0.2 --format csv
  done
done
step traces_lanes 90 env REDLAB_MATRIX_IDS=lanes-per-row $T --gtest_filter='Gpu.MatrixTraces*'
tar -czf "$OUT/r2.tgz" -C "$OUT" r2
cat "$R/steps.txt"
