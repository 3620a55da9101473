#!/usr/bin/env bash
# Session 9: what the last stop owed: the whole quick gpu_test at HEAD, and bench --grid over arrays;
# the cluster kernel's cost in short blocks (Nsight Compute beside vectorized-ordered's).
set -u
cd "$(dirname "$0")/.." || exit 2
export PATH=/usr/local/cuda/bin:$PATH
[ -d .gpu ] || tar -xzf .gpupack/gpu.tgz
O=${OUT:-gpu-out}; R=$O/s9b; mkdir -p "$R"
{ nvidia-smi --query-gpu=uuid,name,driver_version --format=csv,noheader; date -u '+%Y-%m-%d %H:%M:%S UTC'; } > "$R/device.txt"
save() { tar -czf "$O/s9b.tgz" -C "$O" s9b; }
step() { local name=$1 limit=$2; shift 2; local t0=$SECONDS; timeout "$limit" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - t0)) s $(grep -E 'PASSED|FAILED|SUMMARY|error' "$R/$name.txt" | tail -1 | cut -c1-90)" | tee -a "$R/steps.txt"; save; }
B=".gpu/run.sh .gpu/bin/reduction-lab"
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
F=warp-shuffle-vectorized,vectorized-ordered,cluster-dsmem-streaming,bulk-async-streaming,work-queue
step grid_default 60 $B bench -a $F --sizes 2^28 --format json --out "$R/grid_default.json"
for g in 2048 8192 16384 32768; do
  step "grid_$g" 60 $B bench -a ${F%,work-queue} --sizes 2^28 --grid $g --format json --out "$R/grid_$g.json"
done
for b in 256 512; do for g in 16384 32768; do
  step "bulk_b${b}_$g" 30 $B bench -a bulk-async-streaming --sizes 2^28 --block $b --grid $g --format json --out "$R/bulk_b${b}_$g.json"
done; done
step redux_default 30 $B bench -a redux-sync-streaming,work-queue --type int --sizes 2^28 --format json --out "$R/redux_default.json"
step redux_32768 30 $B bench -a redux-sync-streaming,warp-shuffle-vectorized --type int --sizes 2^28 --grid 32768 --format json --out "$R/redux_32768.json"
step small_grids 60 $B bench -a multiple-per-thread,cg-two-phase,cg-reduce-update-async,bulk-async,compensated --sizes 2^20,2^24+3 --grid 333 --format json --out "$R/small_grids.json"
step refuse_grid_sync 20 $B bench -a cg-grid-sync --sizes 2^20 --grid 8
step refuse_cluster 20 $B bench -a cluster-dsmem-streaming --sizes 2^20 --grid 7
for spec in "cluster-dsmem-streaming;cluster_dsmem_streaming<;16384" "vectorized-ordered;vectorized_ordered<;16384" \
            "cluster-dsmem-streaming;cluster_dsmem_streaming<;264" "vectorized-ordered;vectorized_ordered<;264"; do
  IFS=';' read -r algo kernel g <<<"$spec"
  step "ncu_${algo}_$g" 90 ncu --clock-control none --kernel-name-base demangled --kernel-name "regex:$kernel" \
    --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
    --section WarpStateStats --section SchedulerStats --csv --page raw \
    $B bench -a "$algo" --sizes 2^28 --block 1024 --grid "$g" --seconds 0.05 --format json --out "$R/ncub_${algo}_$g.json"
done
step gpu_test_quick 300 env REDLAB_GPU_QUICK=1 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1
python3 - "$R" <<'PY' > "$R/table.txt" 2>&1
import json, sys, glob, os
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    try: rows = json.load(open(f))["rows"]
    except Exception as e: print(os.path.basename(f), "unreadable", e); continue
    for r in rows:
        print(f"{os.path.basename(f):22} {r.get('algorithm',''):26} {r.get('type','')} n={r.get('n','')} b={r.get('block','')} g={r.get('grid','')} {r.get('pct_of_peak',0):.2f} {r.get('median_us',0):.2f}us ok={r.get('check_ok')}")
PY
save; cat "$R/table.txt" | cut -c1-150; cat "$R/steps.txt"
