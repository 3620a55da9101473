// Prototype for issue 53 (an exploration, not part of the app): does the order blocks read in decide
// flat-rows' speed? See docs/benchmarks.md, "flat-rows with four reads in flight". On a GPU machine:
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -o flat_rows_order flat_rows_order.cu
//   ./flat_rows_order (the copies alone, then the four flat kernels); ONLY_SIMPLE=1 skips the copies;
//   ALIGN=1 times the copies alone from tiles a few floats past a 256-byte boundary
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "flat_rows_common.cuh"
namespace ptx = cuda::ptx;
constexpr unsigned kTile = 8192;  // floats
constexpr int kStages = 2;

__device__ u64 tile_of(bool runs, u64 k, u64 b, u64 G, u64 count) {
  if (!runs) return b + k * G;
  return count * b / G + k;  // a block's contiguous run of tiles
}
__device__ u64 tiles_of(bool runs, u64 b, u64 G, u64 count) {
  if (!runs) return b < count ? (count - b + G - 1) / G : 0;
  return count * (b + 1) / G - count * b / G;
}

// Copy-only: sum every float of the tiles (16-byte reads from shared).
__global__ void __launch_bounds__(256) bulk_sum(const float* __restrict__ in, u64 n, float* sink, bool runs) {
  extern __shared__ __align__(128) float buf[];
  __shared__ std::uint64_t full[kStages];
  const unsigned tid = threadIdx.x;
  const u64 count = n / kTile, G = gridDim.x, b = blockIdx.x, mine = tiles_of(runs, b, G, count);
  auto start = [&](u64 k, int s) {
    const u64 t = tile_of(runs, k, b, G, count);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], kTile * 4);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf + s * kTile, in + t * kTile, kTile * 4, &full[s]);
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
      float4 x = q[j];
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

// Plain float4 loads, 4 in flight a thread: grid-stride or a contiguous run a block.
__global__ void __launch_bounds__(256) load_sum(const float4* __restrict__ in, u64 n4, float* sink, bool runs) {
  float v = 0;
  u64 lo = 0, hi = n4, step = u64(gridDim.x) * blockDim.x, i0 = u64(blockIdx.x) * blockDim.x + threadIdx.x;
  if (runs) {
    lo = n4 * blockIdx.x / gridDim.x;
    hi = n4 * (blockIdx.x + 1) / gridDim.x;
    step = blockDim.x;
    i0 = lo + threadIdx.x;
  }
  u64 i = i0;
  for (; i + 3 * step < hi; i += 4 * step) {
    float4 a = __ldg(in + i), b = __ldg(in + i + step), c = __ldg(in + i + 2 * step), d = __ldg(in + i + 3 * step);
    v += a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w + c.x + c.y + c.z + c.w + d.x + d.y + d.z + d.w;
  }
  for (; i < hi; i += step) {
    float4 a = __ldg(in + i);
    v += a.x + a.y + a.z + a.w;
  }
  if (v == 12345.f) *sink = v;
}

// A flat row kernel: a tile's rows are those that start in it, one thread a row, the row cut by the
// tile's end read on from global memory (no carry); tiles interleaved across blocks (kRuns false)
// or a contiguous run of tiles a block (kRuns true); kUnroll: four reads in flight, added in order.
template <bool kRuns, bool kUnroll>
__global__ void __launch_bounds__(256)
    flat_simple(const float* __restrict__ in, u64 rows, u64 cols, float* __restrict__ out) {
  extern __shared__ __align__(128) float buf[];
  __shared__ std::uint64_t full[kStages];
  const unsigned tid = threadIdx.x;
  const u64 n = rows * cols, count = (n + kTile - 1) / kTile, G = gridDim.x, b = blockIdx.x;
  const u64 mine = tiles_of(kRuns, b, G, count), n4 = n / 4 * 4;
  auto tile_at = [&](u64 k) { return tile_of(kRuns, k, b, G, count); };
  auto start = [&](u64 k, int s) {
    const u64 t0 = tile_at(k) * kTile, e = t0 + kTile < n4 ? t0 + kTile : n4;
    const unsigned bytes = e > t0 ? unsigned(e - t0) * 4u : 0u;
    if (bytes) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], bytes);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf + s * kTile, in + t0, bytes, &full[s]);
    } else
      ptx::mbarrier_arrive(&full[s]);
  };
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
    for (int s = 0; s < kStages && u64(s) < mine; ++s) start(s, s);
  }
  __syncthreads();
  const int c = int(cols);
  for (u64 k = 0; k < mine; ++k) {
    const int s = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], unsigned(k / kStages) & 1u)) {}
    const u64 t0 = tile_at(k) * kTile, t1 = t0 + kTile < n ? t0 + kTile : n;
    const float* q = buf + s * kTile;
    if (t1 > n4) {
      for (u64 e = (n4 > t0 ? n4 : t0) + tid; e < t1; e += blockDim.x) buf[s * kTile + (e - t0)] = in[e];
      __syncthreads();
    }
    const u64 r0 = (t0 + cols - 1) / cols, r1x = (t1 + cols - 1) / cols, r1 = r1x < rows ? r1x : rows;
    const int f = int(r0 * cols - t0), nr = int(r1 - r0), span = int(t1 - t0);
    for (int i = int(tid); i < nr; i += int(blockDim.x)) {
      const int a = f + i * c, z = a + c, zz = z < span ? z : span;
      float v = 0;
      int j = a;
      if (kUnroll)
        for (; j + 3 < zz; j += 4) {
          float x[4];
          for (int u = 0; u < 4; ++u) x[u] = q[j + u];
          for (int u = 0; u < 4; ++u) v += x[u];
        }
      for (; j < zz; ++j) v += q[j];
      for (; j < z; ++j) v += __ldg(in + t0 + j);
      out[r0 + i] = v;
    }
    __syncthreads();
    if (tid == 0 && k + kStages < mine) {
      ptx::fence_proxy_async(ptx::space_shared);
      start(k + kStages, s);
    }
  }
}

int main() {
  const Lab lab = open_lab((1ull << 24) * 17, 1ull << 24);
  const int sms = lab.sms;
  float* const in = lab.in;
  float* sink;
  CK(cudaMalloc(&sink, 4));
  const int smem = kStages * kTile * 4;
  CK(cudaFuncSetAttribute(bulk_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  const auto pct = [&](double bytes, float ms) { return lab.pct(bytes, ms); };
  if (getenv("ALIGN")) {  // the copies alone, a contiguous run a block, from a few floats past a 256-byte boundary
    const u64 n = 1ull << 28;
    for (int off : {0, 4, 8, 16, 32, 4, 0}) {
      const float t = best_ms([&] { bulk_sum<<<3 * sms, 256, smem>>>(in + off, n, sink, true); });
      printf("tiles from byte %3d past a 256-byte boundary: %8.1f us %5.1f %% of peak\n", off * 4, t * 1e3,
             pct(n * 4.0, t));
    }
    return 0;
  }
  const u64 sizes[] = {(1ull << 24) * 17, (1ull << 24) * 15, 100000000ull, 99000000ull, 1ull << 28};
  for (u64 n : sizes) {
    if (getenv("ONLY_SIMPLE")) break;
    n = n / kTile * kTile;
    for (int runs = 0; runs < 2; ++runs) {
      const float t1 = best_ms([&] { bulk_sum<<<3 * sms, 256, smem>>>(in, n, sink, runs); });
      const float t2 = best_ms([&] { load_sum<<<8 * sms, 256>>>((const float4*)in, n / 4, sink, runs); });
      const float t3 = best_ms([&] { load_sum<<<3 * sms, 256>>>((const float4*)in, n / 4, sink, runs); });
      printf("n %10llu %-11s bulk 32KBx2 3/SM %5.1f %% | float4 8/SM %5.1f %% | float4 3/SM %5.1f %%\n", n,
             runs ? "runs" : "interleaved", pct(n * 4.0, t1), pct(n * 4.0, t2), pct(n * 4.0, t3));
    }
  }
  struct Shape {
    u64 r, c;
  };
  const Shape shapes[] = {{1ull << 24, 15}, {1ull << 24, 17}, {1000000, 100}, {3000000, 33},
                          {7, 3},           {1001, 1},        {333, 4097},    {5, 8191}};
  auto simple = [&](auto kern, const char* name) {
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    for (const Shape& sh : shapes) {
      CK(cudaMemset(lab.out, 0xff, sh.r * 4));
      const float t = best_ms([&] { kern<<<3 * sms, 256, smem>>>(in, sh.r, sh.c, lab.out); });
      printf("%-22s %9llu x %-6llu %9.1f us %5.1f %% wrong rows %llu\n", name, sh.r, sh.c, t * 1e3,
             pct(double(sh.r * sh.c + sh.r) * 4, t), lab.wrong_rows(sh.r, sh.c));
    }
  };
  simple(flat_simple<false, false>, "interleaved");
  simple(flat_simple<false, true>, "interleaved unroll4");
  simple(flat_simple<true, false>, "runs");
  simple(flat_simple<true, true>, "runs unroll4");
  return 0;
}
