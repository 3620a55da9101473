#!/usr/bin/env bash
# flat_runs (halves on 16-byte rows keep the wave): its tests, the halves' sweep, then the whole gpu_test.
set -u
cd "$(dirname "$0")/.." || exit 2
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/last; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version,memory.total --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/last.tgz" -C "$O" last; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s $(grep -E 'PASSED|FAILED|SUMMARY' "$R/$name.txt" | tail -1 | cut -c1-70)" | tee -a "$R/steps.txt"; save; }
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json"
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
T=".gpu/run.sh .gpu/bin/gpu_test"
NEW='Gpu.FlatRowsInTheirTimedGridEqualTheModel:Gpu.BenchRunsFlatRowsInItsTimedGrid'
step tests 90 $T --gtest_filter="$NEW"
step san_memcheck 60 env REDLAB_GPU_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $T --gtest_filter="$NEW"
step flat_half 60 $B --out "$R/flat_half.json" -a flat-rows,lanes-per-row --shapes sweep --type half
step gpu_test_quick 270 env REDLAB_GPU_QUICK=1 $T --gtest_brief=1
