// Exploration for issue 53 (not part of the app): do lanes-per-row's row-sum stores hold it back?
// The catalog's segments write each row from the segment's first lane: on rows of 64 floats
// (16 lanes a row) a warp's store carries 8 bytes, one store for each load a lane issues. Here a
// warp takes a run of kRun neighbouring rows (groups of 32 / lanes rows, loaded as the catalog
// loads them: kRowLoadsInFlight groups at once where a lane loads its row in one go, else the row's
// loads four at a time) and either writes each group's rows as the catalog does (kGather false) or
// gathers the run's row sums into lanes 0..kRun-1 through one shuffle a group and writes them
// with one store (kGather true: 32 bytes for runs of 8 floats, 128 for runs of 32).
// Timed as rows_groups.cu does (best of 20 warm, median of 21 cold after an L2 eviction), beside
// the catalog's timed lanes-per-row; float results checked against a double sum.
// Measured (assets/runs/h200-rows/report/2026-12-03/rows_stores.txt, two H200s): gathered stores in runs of
// 32 rows gained 1-2 points at rows of 256 floats (91.1-92.2 % against the catalog's 89.6-90.8) and
// 64 halves; within a point either way at rows of 16 to 128 floats; behind at rows of 1024 floats
// (80 %: too few runs to share) and 16 halves (83-85 against 87-88). So the stores are not what
// holds rows of 64 floats at 86-87 %; the catalog was not changed.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_stores scripts/experiments/rows_stores.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_stores
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

#include "rows_timing.cuh"

namespace k = rl::kernels;
using Half = rl::narrow::Half;
using Sum = rl::ops::Sum;

template <int kLanes, int kRun, bool kGather, class V, class T, class In>
__device__ __forceinline__ void runs(const In* in, T* out, u64 rows, u64 cols) {
  constexpr int K = k::kRowLoadsInFlight, per_warp = 32 / kLanes, S = kRun / per_warp, B = S < K ? S : K;
  static_assert(kRun % per_warp == 0 && kRun <= 32, "a run is whole groups, at most a warp of rows");
  const V* in_v = reinterpret_cast<const V*>(in);
  const unsigned lane = threadIdx.x % 32, seg = lane % kLanes, sub = lane / kLanes;
  const u64 warps = u64(gridDim.x) * (blockDim.x / 32), warp = u64(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
  const u64 vecs = cols / k::elements_in<V>, run_count = (rows + kRun - 1) / kRun;
  const bool one_load = vecs <= u64(kLanes);
  k::NoProbe probe;
  int slot = 0;
  for (u64 r = warp; r < run_count; r += warps) {  // warp-uniform
    const u64 base = r * kRun;
    T keep = T(0);
    // Leaves group s's row sums in its segments' first lanes, then gathers or writes them.
    const auto finish = [&](T v, int s) {
#pragma unroll
      for (int o = kLanes / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, kLanes);
      if constexpr (kGather) {
        const T x = __shfl_sync(0xffffffffu, v, (lane % per_warp) * kLanes);
        if (int(lane / per_warp) == s) keep = x;
      } else {
        const u64 row = base + u64(s) * per_warp + sub;
        if (seg == 0 && row < rows) out[row] = v;
      }
    };
    if (one_load) {
#pragma unroll
      for (int b = 0; b < S; b += B) {
        V q[B];
#pragma unroll
        for (int u = 0; u < B; ++u) {
          const u64 row = base + u64(b + u) * per_warp + sub;
          if (row < rows && seg < vecs) q[u] = in_v[row * vecs + seg];
        }
#pragma unroll
        for (int u = 0; u < B; ++u) {
          const u64 row = base + u64(b + u) * per_warp + sub;
          T v = T(0);
          if (row < rows && seg < vecs) v = k::fold<Sum>(v, q[u]);
          finish(v, b + u);
        }
      }
    } else {
      for (int s = 0; s < S; ++s) {
        const u64 row = base + u64(s) * per_warp + sub;
        T v = T(0);
        if (row < rows) {
          const u64 end = (row + 1) * vecs;
          u64 i = row * vecs + seg;
          if (i + (K - 1) * kLanes < end) v = k::fold_batch<K, Sum>(v, in_v, i, kLanes, probe, slot), i += K * kLanes;
          for (; i + (K - 1) * kLanes < end; i += K * kLanes)
            v = k::fold_batch<K, Sum>(v, in_v, i, kLanes, probe, slot);
          for (; i < end; i += kLanes) v = k::fold_batch<1, Sum>(v, in_v, i, kLanes, probe, slot);
        }
        finish(v, s);
      }
    }
    if constexpr (kGather)
      if (lane < unsigned(kRun) && base + lane < rows) out[base + lane] = keep;
  }
}

// Every lane count in one kernel, as the catalog's timed lanes-per-row; runs of kRun rows (at
// least a group).
template <int kRun, bool kGather, class T, class In>
__global__ void __launch_bounds__(1024) stored(const In* in, T* out, u64 rows, u64 cols, int lanes) {
  using V = typename k::Vec16<In>::type;
  const bool vec = k::rows_hold_vectors(cols, sizeof(In));
  k::with_lanes<true, 32>(lanes, [&](auto fixed) {
    constexpr int L = decltype(fixed)::value;
    constexpr int R = L == 0 ? 32 : (kRun < 32 / L ? 32 / L : kRun);
    if constexpr (L > 0) {
      if (vec)
        runs<L, R, kGather, V, T>(in, out, rows, cols);
      else
        runs<L, R, kGather, In, T>(in, out, rows, cols);
    }
  });
}

template <int kRun, bool kGather, class In>
void time_runs(const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes, int block, int waves) {
  auto kernel = stored<kRun, kGather, float, In>;
  const int fit = blocks_an_sm(kernel, block);
  const int run = std::max(kRun, 32 / lanes);
  const u64 need = ((rows + run - 1) / run + block / 32 - 1) / (block / 32);
  const unsigned grid = wave_grid(lab, need, fit, waves);
  char what[96];
  snprintf(what, sizeof what, "runs of %2d rows, %s lanes %2d, %4d x %u (%d an SM)", run,
           kGather ? "gathered " : "per group", lanes, block, grid, fit);
  time_rows_kernel<In>(what, lab, c, rows, cols, lanes, kernel, grid, block);
}

template <class In>
void shape(const Lab& lab, const Cold& c, u64 rows, u64 cols) {
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));  // the catalog's
  time_catalog<In>(lab, c, rows, cols, lanes);
  time_runs<8, true, In>(lab, c, rows, cols, lanes, 256, 1);
  time_runs<16, true, In>(lab, c, rows, cols, lanes, 256, 1);
  time_runs<32, true, In>(lab, c, rows, cols, lanes, 256, 1);
  time_runs<32, false, In>(lab, c, rows, cols, lanes, 256, 1);
  time_runs<8, true, In>(lab, c, rows, cols, lanes, 256, 2);
  time_runs<32, true, In>(lab, c, rows, cols, lanes, 256, 2);
  time_runs<32, true, In>(lab, c, rows, cols, lanes, 512, 1);
  time_catalog<In>(lab, c, rows, cols, lanes);
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  const u64 shapes[][2] = {{u64(1) << 22, 64}, {u64(1) << 20, 256},  {u64(1) << 21, 128},
                           {u64(1) << 24, 16}, {u64(1) << 18, 1024}, {u64(1) << 19, 512},
                           {u64(1) << 23, 32}, {1000000, 100},       {3000000, 36}};
  for (const auto& s : shapes) shape<float>(lab, c, s[0], s[1]);
  const u64 halves[][2] = {{u64(1) << 22, 64}, {u64(1) << 20, 256}, {u64(1) << 24, 16}, {u64(1) << 18, 1024}};
  for (const auto& s : halves) shape<Half>(lab, c, s[0], s[1]);
  return 0;
}
