#!/usr/bin/env bash
# Session 15, call 1: gpu_test on fcf23ff's tree (every test but the matrix traces; 009f5a1's
# ring_bytes not yet run on a GPU), CUDA's shared-memory reserve a block queried, and the bulk
# kernels' bench at 2^24 and 2^28 on a second card since ring_array.
set -u
source scripts/experiments/call_lib.sh
call_begin s15a
cat > .exp/reserve.cu <<'CU'
#include <cstdio>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
int main() {
  int v[5];
  const cudaDeviceAttr a[5] = {cudaDevAttrReservedSharedMemoryPerBlock, cudaDevAttrMaxSharedMemoryPerBlock,
      cudaDevAttrMaxSharedMemoryPerBlockOptin, cudaDevAttrMaxSharedMemoryPerMultiprocessor, cudaDevAttrMultiProcessorCount};
  const char* n[5] = {"reserved_smem_per_block", "max_smem_per_block", "max_smem_per_block_optin",
      "max_smem_per_sm", "sms"};
  for (int i = 0; i < 5; ++i) { CK(cudaDeviceGetAttribute(&v[i], a[i], 0)); printf("%s %d\n", n[i], v[i]); }
  return 0;
}
CU
cp .exp/reserve.cu "$R/reserve.cu"
step build_reserve 60 nvcc -arch=sm_90 -o .exp/reserve .exp/reserve.cu
step reserve 20 .exp/reserve
export REDLAB_REQUIRE_GPU=1 REDLAB_GOLDEN_DIR=$PWD/tests/data/golden REDLAB_TEST_SEED=${REDLAB_TEST_SEED:-$RANDOM$RANDOM}
echo "seed $REDLAB_TEST_SEED" >> "$R/steps.txt"
bench arrays 40 -a bulk-async,bulk-async-streaming,cluster-dsmem-streaming,work-queue --sizes 2^24,2^28 --type float
step gpu_test 440 .gpu/run.sh .gpu/bin/gpu_test --gtest_brief=1 --gtest_filter=-Gpu.MatrixTracesEqualTheCpuModelBitForBit
cat "$R/device.txt" "$R/steps.txt" "$R/reserve.txt"; tail -4 "$R/gpu_test.txt"; grep -E "FAILED|Failure" "$R/gpu_test.txt" | head
python3 - "$R" <<'PY'
import json, sys, os, glob
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json"))):
    j = json.load(open(f))
    print(os.path.basename(f), " ".join("%s:%s:%.2f%s" % (r["algorithm"][:12], r.get("n"), r["pct_of_peak"], "" if r["check_ok"] else "BAD") for r in j["rows"]))
PY
cd "$O" && rm -rf s15a && ls
