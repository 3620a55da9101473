#!/usr/bin/env bash
# Validation of flat-rows' timed grid (a run of a tile and a half a block): its GPU tests, the four
# sanitizers over them, the A/B against the old wave, then the whole sweep call.
set -u
cd "$(dirname "$0")/.." || exit 2
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/val; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version,memory.total --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/val.tgz" -C "$O" val; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s $(grep -E 'PASSED|FAILED|SUMMARY' "$R/$name.txt" | tail -1 | cut -c1-70)" | tee -a "$R/steps.txt"; save; }
B=".gpu/run.sh .gpu/bin/reduction-lab bench --seconds 0.2 --format json"
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
T=".gpu/run.sh .gpu/bin/gpu_test"
NEW='Gpu.FlatRowsInTheirTimedGridEqualTheModel:Gpu.BenchRunsFlatRowsInItsTimedGrid'
step tests 150 $T --gtest_filter="$NEW:Gpu.HeldFlatRowSumsEqualTheModel:Gpu.NarrowTimedMatrixKernelsEqualTheModel:Gpu.TimedMatrixKernelsEqualTheModel:Gpu.BenchRunsLanesPerRowInItsChosenGrid"
for tool in memcheck racecheck synccheck initcheck; do
  step "san_$tool" 70 env REDLAB_GPU_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $T --gtest_filter="$NEW"
done
for pass in 1 2; do
  step "ab_new_$pass" 40 $B --out "$R/ab_new_$pass.json" -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float
  step "ab_old_$pass" 40 $B --out "$R/ab_old_$pass.json" -a flat-rows --shapes 16777216x15,16777216x17,1000000x100,3000000x33 --type float --grid 396
done
step neighbours 60 $B --out "$R/neighbours.json" -a lanes-per-row,flat-rows,thread-per-row --shapes 1000000x96,1000000x104,3000000x32,3000000x36 --type float
for blk in 128 512 1024; do
  step "lpr_b$blk" 40 $B --out "$R/lpr_b$blk.json" -a lanes-per-row --shapes 2^20x256,2^22x64,2^24x16 --type half --block $blk
done
OUT=$O/sweepdir timeout 330 scripts/experiments/sweep_call.sh > "$R/sweep_call.txt" 2>&1; echo "sweep_call rc=$?" >> "$R/steps.txt"
cp "$O/sweepdir/sweep.tgz" "$O/sweep.tgz" 2>/dev/null
save
