#!/bin/bash
# Session 2026-12-04 (3), call 2: halves against floats over the same bytes and rows (is it the
# conversions or the shape?), the machine code of lanes-per-row's timed kernel, the array traces
# test (quick set), the headless render tests.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS; deadline=${DEADLINE:-540}
R=$OUT/r2; mkdir -p "$R"
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
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
for pass in 1 2 3; do
  step "same_bytes_half_$pass" 40 $B bench -a lanes-per-row,batched-rows-vectorized --shapes 2^18x1024,2^20x256,2^22x64,2^24x16 --type half --seconds 0.3 --format csv
  step "same_bytes_float_$pass" 40 $B bench -a lanes-per-row,batched-rows-vectorized --shapes 2^18x512,2^20x128,2^22x32,2^24x8 --type float --seconds 0.3 --format csv
done
step sass 60 sh -c "cuobjdump -sass .gpu/bin/reduction-lab | awk '/Function : .*lanes_per_row_held/{p=1} p&&/Function : /&&!/lanes_per_row_held/{p=0} p'"
step render_test 60 env REDLAB_REQUIRE_GL=1 .gpu/run.sh .gpu/bin/render_test
step array_traces $((deadline - (SECONDS - start) - 10)) env REDLAB_GPU_QUICK=1 $T \
  --gtest_filter='Gpu.TracesEqualTheCpuModelBitForBit:Gpu.NarrowTracesEqualTheCpuModelBitForBit'
gzip -f "$R/sass.txt"
tar -czf "$OUT/r2.tgz" -C "$OUT" r2
cat "$R/steps.txt"; tail -4 "$R/array_traces.txt"
for f in "$R"/same_bytes_*_1.txt; do echo "== $f"; cat "$f"; done
