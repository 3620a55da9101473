// Prototype for issue 53, second design: row sums of a row-major R x C float matrix whatever C.
// Each block owns a run of whole rows (so no row is split between blocks) and streams its run in
// tiles copied flat into shared memory by bulk copies (cp.async.bulk, an mbarrier a buffer,
// kStages buffers a block): the tile starts on the 16-byte boundary at or before the run's first
// element, so the copies never care where a row starts. Then g neighbouring threads add each row
// of the tile from shared memory (g a power of two chosen from C so that a warp's reads fall in
// different banks), meet through shuffles, and write the row; a row cut by a tile's end carries
// its sum to the next tile. An exploration, not part of the app. On a GPU machine:
//   nvcc -arch=sm_90 -O3 -std=c++17 -o flat_rows_tiles flat_rows_tiles.cu && ./flat_rows_tiles
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <type_traits>

#include "flat_rows_common.cuh"
namespace ptx = cuda::ptx;
__host__ __device__ inline u64 umin(u64 a, u64 b) { return a < b ? a : b; }
__host__ __device__ inline u64 umax(u64 a, u64 b) { return a > b ? a : b; }

template <int W>
struct VecOf;
template <>
struct VecOf<1> {
  using type = float;
};
template <>
struct VecOf<2> {
  using type = float2;
};
template <>
struct VecOf<4> {
  using type = float4;
};
// Adds W elements at p (16-, 8- or 4-byte aligned) to v in order.
template <int W>
__device__ __forceinline__ float fold_w(float v, const float* p) {
  const auto q = *reinterpret_cast<const typename VecOf<W>::type*>(p);
  if constexpr (W == 1) {
    return v + q;
  } else if constexpr (W == 2) {
    return (v + q.x) + q.y;
  } else {
    return (((v + q.x) + q.y) + q.z) + q.w;
  }
}

template <int W, int kStages>
__global__ void __launch_bounds__(256)
    flat_tiles(const float* __restrict__ in, u64 rows, u64 cols, float* __restrict__ out, unsigned tile, int glog) {
  extern __shared__ __align__(128) float buf[];
  __shared__ std::uint64_t full[kStages];
  __shared__ float carry[2];
  const unsigned tid = threadIdx.x, lane = tid & 31;
  const int g = 1 << glog;
  const u64 n = rows * cols;
  const u64 r0 = rows * blockIdx.x / gridDim.x, r1 = rows * (blockIdx.x + 1) / gridDim.x;
  const u64 lo = r0 * cols, hi = r1 * cols, base = lo & ~u64(3);
  const u64 copy_end = umin((hi + 3) & ~u64(3), n & ~u64(3));
  const u64 count = hi > lo ? (hi - base + tile - 1) / tile : 0;
  auto start = [&](u64 k, int s) {
    const u64 t0 = base + k * tile, e = umin(t0 + tile, copy_end);
    const unsigned bytes = e > t0 ? unsigned(e - t0) * 4u : 0u;
    if (bytes) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], bytes);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf + std::size_t(s) * tile, in + t0, bytes, &full[s]);
    } else {
      ptx::mbarrier_arrive(&full[s]);
    }
  };
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
    for (int s = 0; s < kStages && u64(s) < count; ++s) start(s, s);
  }
  __syncthreads();
  const int c = int(cols);  // the host keeps cols below 2^30
  // Row ra holds the window's first element; f0: its start, tile-relative (negative where it began
  // in an earlier tile). Kept from tile to tile with 32-bit divisions, so no 64-bit one a tile.
  u64 ra = r0;
  int f0 = int(lo - base);
  for (u64 k = 0; k < count; ++k) {
    const int s = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], unsigned(k / kStages) & 1u)) {}
    const u64 t0 = base + k * tile, w1 = umin(hi, t0 + tile);
    float* b = buf + std::size_t(s) * tile;
    if (w1 > copy_end) {  // the array's last elements past its last 16-byte boundary
      for (u64 e = umax(copy_end, t0) + tid; e < w1; e += blockDim.x) b[e - t0] = in[e];
      __syncthreads();
    }
    const int first = k == 0 ? int(lo - base) : 0, last = int(w1 - t0);
    const int nrows = int(unsigned(last - 1 - f0) / unsigned(c)) + 1, tasks = nrows << glog;
    for (int q = int(tid & ~31u); q < tasks; q += int(blockDim.x)) {  // warp-uniform
      const int t = q + int(lane), i = t >> glog, l = t & (g - 1);
      const int rs = f0 + i * c;
      const int a = rs > first ? rs : first, z = rs + c < last ? rs + c : last;
      float v = 0.f;
      if (i < nrows) {
#pragma unroll 4
        for (int j = a + l * W; j < z; j += g * W) v = fold_w<W>(v, b + j);
      }
      for (int off = g / 2; off > 0; off /= 2) v += __shfl_xor_sync(0xffffffffu, v, off);
      if (i < nrows && l == 0) {
        if (rs < first) v = carry[k & 1] + v;
        if (rs + c > last)
          carry[(k + 1) & 1] = v;
        else
          out[ra + i] = v;
      }
    }
    const int skip = int(unsigned(int(tile) - f0) / unsigned(c));  // rows wholly before the next tile
    ra += unsigned(skip), f0 += skip * c - int(tile);
    __syncthreads();
    if (tid == 0 && k + kStages < count) {
      ptx::fence_proxy_async(ptx::space_shared);
      start(k + kStages, s);
    }
  }
}

__global__ void read_ceiling(const float4* in, u64 n4, float* sink) {
  float v = 0;
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n4; i += u64(gridDim.x) * blockDim.x) {
    float4 q = __ldg(in + i);
    v += q.x + q.y + q.z + q.w;
  }
  if (v == 12345.f) *sink = v;
}

static int width_for(u64 cols) { return cols % 4 == 0 ? 4 : cols % 2 == 0 ? 2 : 1; }
// g: lanes a row. A phase of shared-memory reads serves 32 / W lanes; they hit different banks
// where g is the 2-adic part of the row's W-element units or g >= 32 / W.
static int glog_for(u64 cols) {
  const u64 w = width_for(cols), units = cols / w;
  int two = 0;
  while (two < 5 && units % (2ull << two) == 0) ++two;
  int phase = w == 4 ? 3 : w == 2 ? 4 : 5;
  int g = two < phase ? two : phase;
  if ((units >> g) > 64) g = 5;
  return g;
}

int main(int argc, char** argv) {
  const DeviceFacts dev = device_facts();
  const double peak = dev.peak;
  printf("device %s, %d SMs, peak %.0f GB/s\n", dev.prop.name, dev.sms, peak);
  struct Shape {
    u64 r, c;
  };
  const Shape shapes[] = {
      {1ull << 24, 15}, {1ull << 24, 16}, {1ull << 24, 17},      {1000000, 100}, {3000000, 33}, {1ull << 20, 256},
      {1ull << 22, 64}, {1ull << 26, 4},  {3, (1ull << 20) + 1}, {7, 3},         {5, 1},        {1001, 1},
      {333, 4097}};
  const u64 maxn = (1ull << 24) * 17;
  float *in, *out, *sink;
  unsigned long long* bad;
  CK(cudaMalloc(&in, maxn * 4));
  CK(cudaMalloc(&out, (1ull << 26) * 4));
  CK(cudaMalloc(&sink, 4));
  CK(cudaMalloc(&bad, 8));
  fill<<<1024, 256>>>(in, maxn);
  CK(cudaGetLastError());
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  struct Cfg {
    unsigned tile;
    int stages;
    int gforce;  // -1: the rule
  };
  // The last four: more, smaller buffers in the same shared memory (docs/benchmarks.md, "four reads in flight").
  const Cfg cfgs[] = {{8192, 2, -1}, {6144, 2, -1}, {4096, 2, -1}, {8192, 3, -1}, {8192, 2, 0},
                      {4096, 4, -1}, {2048, 8, -1}, {4096, 3, -1}, {2048, 6, -1}};
  const int only_cfg = argc > 2 ? atoi(argv[1]) : -1, only_shape = argc > 2 ? atoi(argv[2]) : -1;
  int ci = -1;
  for (const Cfg& cf : cfgs) {
    ++ci;
    int si = -1;
    for (const Shape& sh : shapes) {
      ++si;
      if (only_cfg >= 0 && (ci != only_cfg || si != only_shape)) continue;
      const u64 n = sh.r * sh.c;
      const int glog = cf.gforce >= 0 ? cf.gforce : glog_for(sh.c);
      const std::size_t smem = std::size_t(cf.stages) * cf.tile * 4;
      int per_sm = 0;
      const int w = width_for(sh.c);
      auto pick = [&](auto st) {
        constexpr int S = decltype(st)::value;
        return w == 4 ? flat_tiles<4, S> : w == 2 ? flat_tiles<2, S> : flat_tiles<1, S>;
      };
      auto kern = cf.stages == 2   ? pick(std::integral_constant<int, 2>{})
                  : cf.stages == 3 ? pick(std::integral_constant<int, 3>{})
                  : cf.stages == 4 ? pick(std::integral_constant<int, 4>{})
                  : cf.stages == 6 ? pick(std::integral_constant<int, 6>{})
                                   : pick(std::integral_constant<int, 8>{});
      CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, 256, smem));
      const unsigned blocks = unsigned(dev.sms * per_sm);
      auto run = [&] { kern<<<blocks, 256, smem>>>(in, sh.r, sh.c, out, cf.tile, glog); };
      CK(cudaMemset(out, 0xff, sh.r * 4));
      run();
      CK(cudaGetLastError());
      CK(cudaMemset(bad, 0, 8));
      check<<<1024, 256>>>(in, sh.r, sh.c, out, bad);
      CK(cudaGetLastError());
      unsigned long long nbad = 0;
      CK(cudaMemcpy(&nbad, bad, 8, cudaMemcpyDeviceToHost));
      float ms = 0, best = 1e9, cbest = 1e9;
      for (int i = 0; i < (only_cfg >= 0 ? 1 : 20); ++i) {
        CK(cudaEventRecord(a));
        run();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        best = std::min(best, ms);
        CK(cudaEventRecord(a));
        read_ceiling<<<dev.sms * 8, 256>>>((const float4*)in, n / 4, sink);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        cbest = std::min(cbest, ms);
      }
      const double bytes = double(n) * 4 + double(sh.r) * 4;
      printf("tile %5u x%d w %d g %2d %d/SM %9llu x %-8llu %9.1f us %5.1f %% | ceiling %5.1f %% | wrong rows %llu\n",
             cf.tile, cf.stages, w, 1 << glog, per_sm, sh.r, sh.c, best * 1e3, bytes / (best * 1e-3) / 1e9 / peak * 100,
             double(n / 4 * 16) / (cbest * 1e-3) / 1e9 / peak * 100, nbad);
    }
  }
  return 0;
}
