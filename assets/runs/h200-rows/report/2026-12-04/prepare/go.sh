#!/bin/bash
# One device call (2026-12-04 session 2): the matrix GPU tests after the prepare hook and
# lanes_per_row's dropped parameters, the short-row and small-problem benches, Nsight Compute on
# lanes-per-row over halves and floats at rows of 64 and 16, then compute-sanitizer.
set -u
cd "$(dirname "$0")/.."
start=$SECONDS; deadline=${DEADLINE:-400}
R=$OUT/r; mkdir -p "$R"
tar -xzf .gpupack/gpu.tgz
B=".gpu/run.sh .gpu/bin/reduction-lab"; T=".gpu/run.sh .gpu/bin/gpu_test"
step() {  # step NAME SECONDS CMD...: runs CMD under a timeout if the deadline leaves room
  local name=$1 s=$2; shift 2
  if (( SECONDS - start + s > deadline )); then echo "SKIPPED $name (deadline)" >> "$R/steps.txt"; return; fi
  local t0=$SECONDS; timeout "$s" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s" >> "$R/steps.txt"
}
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
export REDLAB_REQUIRE_GPU=1
step gpu_test 170 env REDLAB_MATRIX_IDS=lanes-per-row,flat-rows,batched-rows-vectorized $T \
  --gtest_filter='Gpu.*Matrix*:Gpu.Held*:Gpu.TimedRow*:Gpu.BenchRuns*:Gpu.GoldenTraces*'
short=2^18x1024,2^20x256,2^22x64,2^24x16
for t in float half bf16; do
  step "short_$t" 40 $B bench -a lanes-per-row --shapes $short --type $t --seconds 0.2 --format csv
done
for t in half bf16 float; do
  step "small_matrix_$t" 25 $B bench --shapes 3x1048577 --type $t --seconds 0.2 --format csv
  step "small_array_$t" 25 $B bench -a warp-shuffle-vectorized,work-queue,cub --sizes 3145731 --type $t --seconds 0.2 --format csv
done
for spec in half:2^22x64 half:2^24x16 float:2^22x64 float:2^24x16; do
  t=${spec%%:*}; s=${spec#*:}; n=ncu_${t}_${s//^/}
  step "$n" 40 ncu --clock-control none --target-processes all --kernel-name-base demangled \
    --kernel-name "regex:rl::kernels::lanes_per_row_held<" --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section WarpStateStats --export "$R/$n" --force-overwrite \
    $B bench -a lanes-per-row --shapes "$s" --type "$t" --seconds 0.05 --format csv
  [ -s "$R/$n.ncu-rep" ] && ncu --import "$R/$n.ncu-rep" --page raw --csv > "$R/$n.csv" 2>/dev/null && rm -f "$R/$n.ncu-rep"
done
for tool in memcheck racecheck initcheck synccheck; do
  step "sanitizer_$tool" 60 env REDLAB_GPU_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 \
    $T --gtest_filter='Gpu.HeldNarrowRowSums*:Gpu.HeldRowSums*:Gpu.TimedRowKernelsChoose*:Gpu.BenchRuns*'
done
tar -czf "$OUT/r.tgz" -C "$OUT" r
cat "$R/steps.txt"
