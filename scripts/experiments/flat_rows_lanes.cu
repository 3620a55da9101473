// Prototype for issue 53 (an exploration, not part of the app): the simpler flat kernel of
// flat_rows_order.cu (a tile's rows are those that start in it; the row cut by the tile's end is
// read on from global memory: no carry) with `lanes` threads a row (flat_row_lanes: a warp's
// reads in 32 banks) and a shuffle a halving, and tiles that hold no row's start left uncopied.
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -o flat_rows_lanes flat_rows_lanes.cu
//   ./flat_rows_lanes
#include <cuda/ptx>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "flat_rows_common.cuh"
namespace ptx = cuda::ptx;
constexpr unsigned kTile = 8192;  // floats: 32 KB
constexpr int kStages = 2;

// The lanes the catalog's flat_row_lanes gives (kernels/matrix_shapes.h).
int flat_row_lanes(u64 cols) {
  int g = 1;
  while (g < 32 && cols % u64(2 * g) == 0 && cols / u64(2 * g) >= 4) g *= 2;
  return (cols + g - 1) / g > 64 ? 32 : g;
}

// Block b takes tiles [count * b / G, count * (b + 1) / G). kSkip: a tile where no row starts is
// not copied (its elements are read from global memory by the row that started before it).
template <bool kSkip>
__global__ void __launch_bounds__(256)
    flat_lanes(const float* __restrict__ in, u64 rows, u64 cols, int lanes, float* __restrict__ out) {
  extern __shared__ __align__(128) float buf[];
  __shared__ std::uint64_t full[kStages];
  const unsigned tid = threadIdx.x, lane = tid % 32;
  const u64 n = rows * cols, count = (n + kTile - 1) / kTile, G = gridDim.x, b = blockIdx.x;
  const u64 k0 = count * b / G, mine = count * (b + 1) / G - k0, n4 = n / 4 * 4;
  const auto first_row = [&](u64 t0) { return (t0 + cols - 1) / cols; };  // the first row starting at or after t0
  const auto start = [&](u64 k, int s) {
    const u64 t0 = (k0 + k) * kTile, e = t0 + kTile < n4 ? t0 + kTile : n4;
    const bool owns = !kSkip || first_row(t0) * cols < (t0 + kTile < n ? t0 + kTile : n);
    const unsigned bytes = e > t0 && owns ? unsigned(e - t0) * 4u : 0u;
    if (bytes) {
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], bytes);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf + s * kTile, in + t0, bytes, &full[s]);
    } else {
      ptx::mbarrier_arrive(&full[s]);
    }
  };
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
    for (int s = 0; s < kStages && u64(s) < mine; ++s) start(s, s);
  }
  __syncthreads();
  const int c = int(cols), shift = __ffs(lanes) - 1;
  for (u64 k = 0; k < mine; ++k) {
    const int s = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], unsigned(k / kStages) & 1u)) {}
    const u64 t0 = (k0 + k) * kTile, t1 = t0 + kTile < n ? t0 + kTile : n;
    float* q = buf + s * kTile;
    if (t1 > n4) {  // the matrix's last elements, past its last whole vector
      for (u64 e = (n4 > t0 ? n4 : t0) + tid; e < t1; e += blockDim.x) q[e - t0] = in[e];
      __syncthreads();
    }
    const u64 r0 = first_row(t0), r1x = first_row(t1), r1 = r1x < rows ? r1x : rows;
    const int f = int(r0 * cols - t0), span = int(t1 - t0);
    const int tasks = r1 > r0 ? int(r1 - r0) << shift : 0;
    for (int p = int(tid - lane); p < tasks; p += int(blockDim.x)) {  // warp-uniform
      const int t = p + int(lane), i = t >> shift, l = t & (lanes - 1);
      const int a = f + i * c, z = a + c, zz = z < span ? z : span;
      float v = 0;
      if (t < tasks) {
        int j = a + l;
        for (; j + 3 * lanes < zz; j += 4 * lanes) {
          float x[4];
          for (int u = 0; u < 4; ++u) x[u] = q[j + u * lanes];
          for (int u = 0; u < 4; ++u) v += x[u];
        }
        for (; j < zz; j += lanes) v += q[j];
        for (; j + 3 * lanes < z; j += 4 * lanes) {  // the row's part past the tile
          float x[4];
          for (int u = 0; u < 4; ++u) x[u] = __ldg(in + t0 + j + u * lanes);
          for (int u = 0; u < 4; ++u) v += x[u];
        }
        for (; j < z; j += lanes) v += __ldg(in + t0 + j);
      }
      for (int o = lanes / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, lanes);
      if (t < tasks && l == 0) out[r0 + i] = v;
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
  const int smem = kStages * kTile * 4;
  struct Shape {
    u64 r, c;
  };
  const Shape shapes[] = {
      {1ull << 24, 15},        {1ull << 24, 16}, {1ull << 24, 17}, {1000000, 100}, {3000000, 33}, {1ull << 20, 256},
      {1ull << 22, 64},        {7, 3},           {1001, 1},        {333, 4097},    {5, 8191},     {3, (1u << 20) + 1},
      {1ull << 12, 1ull << 16}};
  auto run = [&](auto kern, const char* name, bool one_lane) {
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    for (const Shape& sh : shapes) {
      const int lanes = one_lane ? 1 : flat_row_lanes(sh.c);
      CK(cudaMemset(lab.out, 0xff, sh.r * 4));
      const float t = best_ms([&] { kern<<<3 * lab.sms, 256, smem>>>(lab.in, sh.r, sh.c, lanes, lab.out); });
      printf("%-16s %9llu x %-8llu lanes %2d %9.1f us %5.1f %% wrong rows %llu\n", name, sh.r, sh.c, lanes, t * 1e3,
             lab.pct(double(sh.r * sh.c + sh.r) * 4, t), lab.wrong_rows(sh.r, sh.c));
    }
  };
  run(flat_lanes<false>, "one lane", true);
  run(flat_lanes<false>, "lanes", false);
  run(flat_lanes<true>, "lanes skip", false);
  return 0;
}
