#!/usr/bin/env bash
# Session 2026-12-05 (evening): validation of the round-a-block catalog (331aff0) and flat-rows' grids.
set -u
cd "$(dirname "$0")/.." || exit 2
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/next; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version,memory.total --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/next.tgz" -C "$O" next; cp "$R/steps.txt" "$O/steps.txt"; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s $(grep -E 'PASSED|FAILED|SUMMARY' "$R/$name.txt" | tail -1 | cut -c1-70)" | tee -a "$R/steps.txt"; save; }
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json"
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
T=".gpu/run.sh .gpu/bin/gpu_test"
NEW='Gpu.ARoundABlockEqualsTheModel:Gpu.BenchRunsLanesPerRowInItsChosenGrid:Gpu.TimedRowKernelsChooseARoundABlockOrWholeWaves'
TIMED="$NEW:Gpu.TimedMatrixKernelsEqualTheModel:Gpu.HeldRowSumsEqualTheModel:Gpu.HeldFlatRowSumsEqualTheModel:Gpu.NarrowTimedMatrixKernelsEqualTheModel:Gpu.HeldNarrowRowSumsEqualTheModel:Gpu.BackToBackMatrixRunsEachEqualTheModel:Gpu.MatrixRunsRepeatBitForBit"
step timed_tests 150 $T --gtest_filter="$TIMED"
# flat-rows over grids (the default is one wave of the blocks an SM holds; tiles are 32 KB)
for g in 0 792 1584 3168 6336 12672 25344; do
  step "flat_g$g" 60 $B --out "$R/flat_g$g.json" -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float --grid $g
done
for g in 0 1584 6336 12672; do
  step "flat_half_g$g" 40 $B --out "$R/flat_half_g$g.json" -a flat-rows --shapes 16777216x15,1000000x100 --type half --grid $g
done
for blk in 512 1024; do for g in 0 3168; do
  step "flat_b${blk}_g$g" 40 $B --out "$R/flat_b${blk}_g$g.json" -a flat-rows --shapes 16777216x15,1000000x100 --type float --block $blk --grid $g
done; done
step rows_float 120 $B --out "$R/rows_float.json" -a lanes-per-row,flat-rows,thread-per-row,cublas-gemv-rows \
  --shapes 2^20x256,2^22x64,2^24x16,1000000x100,1000000x96,2^24x15,2^24x17,3000000x33 --type float
step rows_half 60 $B --out "$R/rows_half.json" -a lanes-per-row,flat-rows --shapes 2^20x256,2^22x64,2^24x16,2^24x15 --type half
for tool in memcheck racecheck synccheck initcheck; do
  step "san_$tool" 80 env REDLAB_GPU_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $T --gtest_filter="$NEW"
done
