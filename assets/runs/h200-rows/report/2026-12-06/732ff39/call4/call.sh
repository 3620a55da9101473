#!/usr/bin/env bash
# Call 4: synccheck and initcheck over the whole quick set; flat-rows' runs against one wave at the
# odd shapes (two passes each); cluster-dsmem-streaming in clusters of 2, 4 and 8 at 2^28.
source scripts/experiments/call_lib.sh
call_begin call4
export REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM} REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden
echo "seed $REDLAB_TEST_SEED" >> "$R/device.txt"
S=2^24x15,2^24x17,1000000x100,3000000x33
for p in 1 2; do
  bench "runs_$p" 40 -a flat-rows --shapes $S
  bench "wave_$p" 40 -a flat-rows --shapes $S --grid 528
done
for c in 2 4 8; do bench "cluster_$c" 30 -a cluster-dsmem-streaming,work-queue --sizes 268435456 --cluster $c; done
T=".gpu/run.sh .gpu/bin/gpu_test"
for tool in synccheck initcheck; do
  step "all_$tool" 150 env REDLAB_GPU_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $T
done
