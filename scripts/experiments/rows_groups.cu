// Exploration for issue 53 (not part of the app): the catalog's row segments with more of a lane's
// loads in flight on rows a lane loads in a few goes (2^20 x 256, 2^22 x 64 ...). A lane with P
// loads of its row (P a power of two, at most kInFlight) loads kInFlight / P groups' rows at once,
// then adds each group's loads, meets its segment through shuffles and writes the row. kLayout 0:
// the catalog's grid stride (warp w's groups w, w + warps, ...); 1: a block's warps take
// neighbouring groups (a block streams one run of rows at a time, as the prototype does).
// Timed as rows_catalog_vs_proto.cu does (best of 20 warm, median of 21 after an L2 eviction),
// beside the catalog's timed lanes-per-row. Measured (assets/runs/h200-rows/report/2026-12-03/rows_groups.txt):
// four in flight, a lane's loads of its row issued without a loop, ran 1-3 points faster than the
// catalog at rows of 128 to 512 floats; eight no faster than four (1-2 points slower at rows of 16 to
// 64 floats: 106-122 registers), sixteen 60-72 %; halves with the loads counted at run time 36-40 %.
// That led to the catalog's first batch out of the loop (docs/benchmarks.md, "The first batch out of
// the loop").
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_groups scripts/experiments/rows_groups.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_groups
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "rows_timing.cuh"

namespace k = rl::kernels;
using Half = rl::narrow::Half;

template <int kLanes, int kP, int kInFlight, int kLayout, class V, class T, class In>
__device__ __forceinline__ void groups(const In* in, T* out, u64 rows, u64 cols) {
  constexpr int per = k::elements_in<V>;
  constexpr u64 per_warp = 32 / kLanes;
  const V* in_v = reinterpret_cast<const V*>(in);
  const unsigned lane = threadIdx.x % 32, seg = lane % kLanes;
  const u64 wpb = blockDim.x / 32, wib = threadIdx.x / 32, warps = u64(gridDim.x) * wpb;
  const u64 vecs = cols / per, loads = (vecs + kLanes - 1) / kLanes;  // a lane's loads of its row
  if (loads > u64(kInFlight) || (loads & (loads - 1))) {
    k::reduce_row_segments<V, T, rl::ops::Sum, kLanes>(in, out, rows, cols, kLanes, k::NoProbe{});
    return;
  }
  const int P = kP ? kP : int(loads), shift = __ffs(P) - 1, G = kInFlight >> shift;
  const auto group = [&](u64 pass, int u) {
    if (kLayout == 0) return wib + u64(blockIdx.x) * wpb + (pass * G + u) * warps;
    return ((u64(blockIdx.x) + pass * gridDim.x) * G + u) * wpb + wib;
  };
  for (u64 pass = 0; group(pass, 0) * per_warp < rows; ++pass) {  // warp-uniform
    V q[kInFlight];
#pragma unroll
    for (int j = 0; j < kInFlight; ++j) {
      const int u = j >> shift, p = j & (P - 1);
      const u64 row = group(pass, u) * per_warp + lane / kLanes, i = seg + u64(p) * kLanes;
      if (u < G && row < rows && i < vecs) q[j] = in_v[row * vecs + i];
    }
    T a = T(0);
#pragma unroll
    for (int j = 0; j < kInFlight; ++j) {
      const int u = j >> shift, p = j & (P - 1);
      if (u >= G) break;
      const u64 row = group(pass, u) * per_warp + lane / kLanes, i = seg + u64(p) * kLanes;
      if (row < rows && i < vecs) a = k::fold<rl::ops::Sum>(a, q[j]);
      if (p == P - 1) {
#pragma unroll
        for (int o = kLanes / 2; o > 0; o /= 2) a += __shfl_down_sync(0xffffffffu, a, o, kLanes);
        if (seg == 0 && row < rows) out[row] = a;
        a = T(0);
      }
    }
  }
}

// The loads a lane as a constant where kFixP (1, 2, 4 or 8), else read at run time.
template <int kLanes, bool kFixP, int kInFlight, int kLayout, class V, class T, class In>
__device__ __forceinline__ void by_loads(const In* in, T* out, u64 rows, u64 cols) {
  const u64 loads = (cols / k::elements_in<V> + kLanes - 1) / kLanes;
  if constexpr (kFixP) {
    if (loads == 1) return groups<kLanes, 1, kInFlight, kLayout, V, T>(in, out, rows, cols);
    if (loads == 2) return groups<kLanes, 2, kInFlight, kLayout, V, T>(in, out, rows, cols);
    if (loads == 4) return groups<kLanes, 4, kInFlight, kLayout, V, T>(in, out, rows, cols);
    if (loads == 8 && kInFlight >= 8) return groups<kLanes, 8, kInFlight, kLayout, V, T>(in, out, rows, cols);
  }
  groups<kLanes, 0, kInFlight, kLayout, V, T>(in, out, rows, cols);
}

// Every lane count in one kernel, chosen by a switch, as the catalog's timed lanes-per-row. Blocks of
// at most 512: eight 16-byte loads in flight a lane spill in the 64 registers blocks of 1024 leave.
template <int kInFlight, int kLayout, bool kFixP, class T, class In>
__global__ void __launch_bounds__(512) grouped(const In* in, T* out, u64 rows, u64 cols, int lanes) {
  using V = typename k::Vec16<In>::type;
  const bool vec = k::rows_hold_vectors(cols, sizeof(In));
  switch (lanes) {
#define CASE(L)                                                           \
  case L:                                                                 \
    if (vec)                                                              \
      by_loads<L, kFixP, kInFlight, kLayout, V, T>(in, out, rows, cols);  \
    else                                                                  \
      by_loads<L, kFixP, kInFlight, kLayout, In, T>(in, out, rows, cols); \
    break;
    CASE(1) CASE(2) CASE(4) CASE(8) CASE(16) CASE(32)
#undef CASE
  }
}

template <int kInFlight, int kLayout, class In, bool kFixP = false>
void time_grouped(const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes, int block, int waves) {
  auto kernel = grouped<kInFlight, kLayout, kFixP, float, In>;
  const int fit = blocks_an_sm(kernel, block);
  const u64 need = (rows * u64(lanes) / 32 * 32 + block - 1) / block;
  const unsigned grid = wave_grid(lab, need, fit, waves);
  char what[96];
  snprintf(what, sizeof what, "in flight %2d layout %d%s lanes %2d, %4d x %u", kInFlight, kLayout,
           kFixP ? " fixP" : "     ", lanes, block, grid);
  time_rows_kernel<In>(what, lab, c, rows, cols, lanes, kernel, grid, block);
}

template <class In>
void shape(const Lab& lab, const Cold& c, u64 rows, u64 cols) {
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));  // the catalog's
  time_catalog<In>(lab, c, rows, cols, lanes);
  time_grouped<4, 0, In>(lab, c, rows, cols, lanes, 256, 2);
  time_grouped<4, 1, In>(lab, c, rows, cols, lanes, 256, 2);
  time_grouped<8, 0, In>(lab, c, rows, cols, lanes, 256, 2);
  time_grouped<8, 1, In>(lab, c, rows, cols, lanes, 256, 2);
  time_grouped<8, 1, In>(lab, c, rows, cols, lanes, 512, 2);
  time_grouped<8, 1, In>(lab, c, rows, cols, lanes, 256, 1);
  time_grouped<8, 0, In, true>(lab, c, rows, cols, lanes, 256, 2);
  time_grouped<8, 1, In, true>(lab, c, rows, cols, lanes, 256, 2);
  time_grouped<8, 1, In, true>(lab, c, rows, cols, lanes, 512, 2);
  time_grouped<16, 1, In>(lab, c, rows, cols, lanes, 256, 2);
  if (lanes * 2 <= 32 && cols * sizeof(In) / 16 >= u64(lanes) * 2) {  // twice the lanes, half the loads
    time_grouped<8, 1, In>(lab, c, rows, cols, lanes * 2, 256, 2);
    time_grouped<8, 1, In>(lab, c, rows, cols, lanes * 2, 512, 2);
    time_grouped<8, 1, In, true>(lab, c, rows, cols, lanes * 2, 512, 2);
  }
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  const u64 shapes[][2] = {{u64(1) << 20, 256},  {u64(1) << 22, 64}, {u64(1) << 21, 128}, {u64(1) << 19, 512},
                           {u64(1) << 18, 1024}, {u64(1) << 24, 16}, {u64(1) << 23, 32}};
  for (const auto& s : shapes) shape<float>(lab, c, s[0], s[1]);
  const u64 halves[][2] = {{u64(1) << 20, 256}, {u64(1) << 22, 64}, {u64(1) << 24, 16}, {u64(1) << 18, 1024}};
  for (const auto& s : halves) shape<Half>(lab, c, s[0], s[1]);
  return 0;
}
