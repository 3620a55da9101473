#!/bin/bash
# Session 2026-12-04 (3), call 1: gpu_test without the traces tests after b0b6682/d4fa5cd, the
# register-cap experiment, the matrix traces of flat-rows and batched-rows-vectorized.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS; deadline=${DEADLINE:-560}
R=$OUT/r; mkdir -p "$R"
tar -xzf .gpupack/gpu.tgz
B=".gpu/run.sh .gpu/bin/reduction-lab"; T=".gpu/run.sh .gpu/bin/gpu_test"
step() {
  local name=$1 s=$2; shift 2
  if (( SECONDS - start + s > deadline )); then echo "SKIPPED $name (deadline)" >> "$R/steps.txt"; return; fi
  local t0=$SECONDS; timeout "$s" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" >> "$R/steps.txt"
}
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
step rows_regs 60 .gpu/run.sh .gpu/bin/rows_regs
step gpu_test 250 $T --gtest_filter='-Gpu.*TracesEqualTheCpuModelBitForBit:Gpu.RecordGoldenTraces'
step matrix_traces $((deadline - (SECONDS - start) - 10)) env REDLAB_MATRIX_IDS=flat-rows,batched-rows-vectorized $T \
  --gtest_filter='Gpu.MatrixTracesEqualTheCpuModelBitForBit'
tar -czf "$OUT/r.tgz" -C "$OUT" r
cat "$R/steps.txt"; tail -3 "$R"/gpu_test.txt; tail -5 "$R/matrix_traces.txt"; cat "$R/rows_regs.txt"
