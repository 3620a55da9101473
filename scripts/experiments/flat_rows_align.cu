// Prototype for issue 53 (an exploration, not part of the app): does a bulk copy's source
// alignment decide its speed? 32 KB tiles, two buffers a block, three blocks an SM, each block a
// contiguous run of tiles starting `off` floats past a 256-byte boundary (off 4: 16-byte aligned
// only, as flat-rows' runs start; 32: 128-byte aligned).
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -o flat_rows_align flat_rows_align.cu
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "flat_rows_common.cuh"
namespace ptx = cuda::ptx;
constexpr unsigned kTile = 8192;  // floats
constexpr int kStages = 2;

__global__ void __launch_bounds__(256) bulk_sum(const float* __restrict__ in, u64 n, float* sink) {
  extern __shared__ __align__(128) float buf[];
  __shared__ std::uint64_t full[kStages];
  const unsigned tid = threadIdx.x;
  const u64 count = n / kTile, k0 = count * blockIdx.x / gridDim.x, mine = count * (blockIdx.x + 1) / gridDim.x - k0;
  auto start = [&](u64 k, int s) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], kTile * 4);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf + s * kTile, in + (k0 + k) * kTile, kTile * 4,
                       &full[s]);
  };
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
    for (int s = 0; s < kStages && u64(s) < mine; ++s) start(s, s);
  }
  __syncthreads();
  float v = 0;
  for (u64 k = 0; k < mine; ++k) {
    const int s = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], unsigned(k / kStages) & 1u)) {}
    const float4* q = reinterpret_cast<const float4*>(buf + s * kTile);
    for (unsigned j = tid; j < kTile / 4; j += blockDim.x) {
      const float4 x = q[j];
      v += x.x + x.y + x.z + x.w;
    }
    __syncthreads();
    if (tid == 0 && k + kStages < mine) {
      ptx::fence_proxy_async(ptx::space_shared);
      start(k + kStages, s);
    }
  }
  if (v == 12345.f) *sink = v;
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const double peak = peak_gbps(0);
  const int sms = prop.multiProcessorCount;
  const u64 n = (1ull << 24) * 16;
  float *in, *sink;
  CK(cudaMalloc(&in, (n + 64) * 4));
  CK(cudaMalloc(&sink, 4));
  fill<<<1024, 256>>>(in, n + 64);
  CK(cudaGetLastError());
  const int smem = kStages * kTile * 4;
  CK(cudaFuncSetAttribute(bulk_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int off : {0, 4, 8, 16, 32, 4, 0}) {
    float best = 1e9, ms = 0;
    for (int i = 0; i < 21; ++i) {
      CK(cudaEventRecord(e0));
      bulk_sum<<<3 * sms, 256, smem>>>(in + off, n, sink);
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (i > 0) best = std::min(best, ms);
    }
    CK(cudaGetLastError());
    printf("offset %2d floats (%3d bytes): %8.1f us %5.1f %% of peak\n", off, off * 4, best * 1e3,
           n * 4.0 / (best * 1e-3) / 1e9 / peak * 100);
  }
  return 0;
}
