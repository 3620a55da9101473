// Exploration for issue 53 (not part of the app): why the catalog's lanes-per-row and warp-per-row
// (kernels/short_rows.cuh, the timed instantiation) sit below rows_in_flight.cu's prototype with
// the same lanes and loads at 2^20 x 256 and 2^22 x 64 floats. Each kernel is timed two ways: the
// prototypes' way (best of 20, L2 warm) and the benchmark's (median of 21, L2 evicted before each).
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_cvp scripts/experiments/rows_catalog_vs_proto.cu && ./rows_cvp
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "flat_rows_common.cuh"
#include "short_rows.cuh"

namespace k = rl::kernels;

// Median of 21 launches, each after a read of twice the L2 (the benchmark's cold samples).
template <class Launch>
float cold_median_ms(Launch&& launch, const int4* flush, std::size_t flush16, int* sink, int sms) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> v;
  for (int i = 0; i < 21; ++i) {
    evict_l2<<<sms * 4, 256>>>(flush, flush16, sink);
    CK(cudaGetLastError());
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    v.push_back(ms);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(v.begin(), v.end());
  return v[10];
}

struct Cold {
  const int4* flush;
  std::size_t flush16;
  int* sink;
};

template <class Launch>
void report(const char* what, const Lab& lab, const Cold& c, u64 rows, u64 cols, Launch&& launch) {
  const float warm = best_ms(launch);
  const float cold = cold_median_ms(launch, c.flush, c.flush16, c.sink, lab.sms);
  const unsigned long long wrong = lab.wrong_rows(rows, cols);
  const double bytes = double(rows) * double(cols + 1) * 4;
  printf("%8llu x %4llu %-44s best warm %5.1f %%  median cold %5.1f %%%s\n", rows, cols, what, lab.pct(bytes, warm),
         lab.pct(bytes, cold), wrong ? " WRONG" : "");
}

template <int kLanes, int kPerLane, int kGroups, int kBlock>
__global__ void __launch_bounds__(kBlock) proto(const float4* __restrict__ in, float* __restrict__ out, u64 rows) {
  constexpr int per_warp = 32 / kLanes, row_vectors = kLanes * kPerLane, warps = kBlock / 32;
  constexpr u64 block_rows = u64(per_warp) * kGroups * warps;
  const unsigned lane = threadIdx.x % 32, seg = lane % kLanes, warp = threadIdx.x / 32;
  const u64 supers = (rows + block_rows - 1) / block_rows;
  for (u64 s = blockIdx.x; s < supers; s += gridDim.x) {
    float4 q[kGroups][kPerLane];
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      const u64 row = s * block_rows + (u64(g) * warps + warp) * per_warp + lane / kLanes;
#pragma unroll
      for (int p = 0; p < kPerLane; ++p)
        q[g][p] = row < rows ? __ldg(in + row * row_vectors + seg + p * kLanes) : make_float4(0, 0, 0, 0);
    }
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      float v = 0;
#pragma unroll
      for (int p = 0; p < kPerLane; ++p) v += q[g][p].x + q[g][p].y + q[g][p].z + q[g][p].w;
#pragma unroll
      for (int o = kLanes / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, kLanes);
      const u64 row = s * block_rows + (u64(g) * warps + warp) * per_warp + lane / kLanes;
      if (seg == 0 && row < rows) out[row] = v;
    }
  }
}

template <int kLanes, int kPerLane, int kGroups, int kBlock>
void time_proto(const Lab& lab, const Cold& c, u64 rows, unsigned waves) {
  constexpr u64 cols = u64(kLanes) * kPerLane * 4;
  auto kernel = proto<kLanes, kPerLane, kGroups, kBlock>;
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kBlock, 0));
  const unsigned grid = unsigned(fit * lab.sms) * waves;
  char what[96];
  snprintf(what, sizeof what, "proto %2dx%d loads x%d groups, %4d x %u", kLanes, kPerLane, kGroups, kBlock, grid);
  report(what, lab, c, rows, cols,
         [&] { kernel<<<grid, kBlock>>>(reinterpret_cast<const float4*>(lab.in), lab.out, rows); });
}

// The catalog's reduce_row_segments with its lanes a compile-time constant where kLanes > 0 (a
// copy of it when the runs in docs/bench/h200-rows/2026-12-03/constant_lanes.txt were taken, before
// the catalog took kLanes).
template <int kLanes, class V, class T, class Op, class Probe, class In>
__device__ __forceinline__ void segments(const In* in, T* out, std::size_t rows, std::size_t cols, int lanes,
                                         const Probe& probe) {
  k::reduce_row_segments<V, T, Op, kLanes>(in, out, rows, cols, lanes, probe);
}

template <int kLanes>
__global__ void __launch_bounds__(1024)
    lanes_fixed(const float* in, float* out, std::size_t rows, std::size_t cols, int lanes) {
  if (k::rows_hold_vectors(cols, sizeof(float)))
    segments<kLanes, float4, float, rl::ops::Sum>(in, out, rows, cols, lanes, k::NoProbe{});
  else
    segments<kLanes, float, float, rl::ops::Sum>(in, out, rows, cols, lanes, k::NoProbe{});
}

// Halves into a float accumulator, as the catalog's lanes_per_row<float, Sum, NoProbe, Half>.
using Half = rl::narrow::Half;
template <int kLanes>
__global__ void __launch_bounds__(1024)
    halves_fixed(const Half* in, float* out, std::size_t rows, std::size_t cols, int lanes) {
  using V = k::Vec16<Half>::type;
  if (k::rows_hold_vectors(cols, sizeof(Half)))
    segments<kLanes, V, float, rl::ops::Sum>(in, out, rows, cols, lanes, k::NoProbe{});
  else
    segments<kLanes, Half, float, rl::ops::Sum>(in, out, rows, cols, lanes, k::NoProbe{});
}

template <int kLanes>
void time_halves(const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes, unsigned grid) {
  char what[96];
  snprintf(what, sizeof what, "halves lanes %2d%s, 256 x %u", lanes, kLanes ? " fixed" : " runtime", grid);
  const Half* in = reinterpret_cast<const Half*>(lab.in);
  const float warm = best_ms([&] { halves_fixed<kLanes><<<grid, 256>>>(in, lab.out, rows, cols, lanes); });
  const float cold = cold_median_ms([&] { halves_fixed<kLanes><<<grid, 256>>>(in, lab.out, rows, cols, lanes); },
                                    c.flush, c.flush16, c.sink, lab.sms);
  const double bytes = double(rows) * double(cols) * 2 + double(rows) * 4;
  printf("%8llu x %4llu %-44s best warm %5.1f %%  median cold %5.1f %%\n", rows, cols, what, lab.pct(bytes, warm),
         lab.pct(bytes, cold));
}

// Every lane count in one kernel, chosen by a switch: what the catalog's launch would compile.
__global__ void __launch_bounds__(1024)
    lanes_switch(const float* in, float* out, std::size_t rows, std::size_t cols, int lanes) {
  const bool vec = k::rows_hold_vectors(cols, sizeof(float));
  switch (lanes) {
#define CASE(L)                                                                       \
  case L:                                                                             \
    if (vec)                                                                          \
      segments<L, float4, float, rl::ops::Sum>(in, out, rows, cols, L, k::NoProbe{}); \
    else                                                                              \
      segments<L, float, float, rl::ops::Sum>(in, out, rows, cols, L, k::NoProbe{});  \
    break;
    CASE(1) CASE(2) CASE(4) CASE(8) CASE(16) CASE(32)
#undef CASE
  }
}

template <int kLanes>
void time_fixed(const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes, unsigned grid) {
  char what[96];
  snprintf(what, sizeof what, "copy lanes %2d%s, 256 x %u", lanes, kLanes ? " fixed" : " runtime", grid);
  report(what, lab, c, rows, cols, [&] { lanes_fixed<kLanes><<<grid, 256>>>(lab.in, lab.out, rows, cols, lanes); });
}

void time_switch(const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes, unsigned grid) {
  char what[96];
  snprintf(what, sizeof what, "switch lanes %2d, 256 x %u", lanes, grid);
  report(what, lab, c, rows, cols, [&] { lanes_switch<<<grid, 256>>>(lab.in, lab.out, rows, cols, lanes); });
}

void time_catalog(const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes, unsigned grid, int block) {
  char what[96];
  snprintf(what, sizeof what, "%s lanes %2d, %4d x %u", lanes == 32 ? "warp-per-row " : "lanes-per-row", lanes, block,
           grid);
  report(what, lab, c, rows, cols, [&] {
    if (lanes == 32)
      k::warp_per_row<float, rl::ops::Sum><<<grid, block>>>(lab.in, lab.out, rows, cols, k::NoProbe{});
    else
      k::lanes_per_row<float, rl::ops::Sum><<<grid, block>>>(lab.in, lab.out, rows, cols, lanes, k::NoProbe{});
  });
}

// The catalog's lanes for floats (kernels/model/matrix_shapes.cpp, row_lanes).
int lanes_rule(u64 cols) {
  const u64 shares = (cols + 3) / 4, vectors = cols % 4 ? 0 : cols / 4;
  int lanes = 1;
  while (lanes < 16 && u64(lanes) * 2 <= shares) lanes *= 2;
  while (lanes > 1 && vectors > u64(lanes) && vectors < u64(lanes) * 4) lanes /= 2;
  return lanes;
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const std::size_t flush_bytes = std::size_t(prop.l2CacheSize) * 2;
  int4* flush = nullptr;
  CK(cudaMalloc(&flush, flush_bytes + 16));
  CK(cudaMemset(flush, 0, flush_bytes + 16));
  const Cold c{flush, flush_bytes / 16, reinterpret_cast<int*>(flush + flush_bytes / 16)};
  const unsigned wave = 8u * unsigned(lab.sms);  // blocks of 256 at full occupancy
  const u64 r256 = u64(1) << 20, r64 = u64(1) << 22;
  const u64 shapes[][2] = {{r256, 256},          {r64, 64},          {u64(1) << 21, 128}, {u64(1) << 19, 512},
                           {u64(1) << 18, 1024}, {u64(1) << 24, 16}, {1000000, 100},      {3000000, 36}};
  for (const auto& s : shapes) {
    const u64 rows = s[0], cols = s[1];
    const int lanes = lanes_rule(cols);
    const unsigned grid = unsigned(std::min<u64>((rows * lanes / 32 + 7) / 8, 2 * wave));
    time_catalog(lab, c, rows, cols, lanes, grid, 256);
    time_fixed<0>(lab, c, rows, cols, lanes, grid);
    switch (lanes) {
      case 2: time_fixed<2>(lab, c, rows, cols, lanes, grid); break;
      case 4: time_fixed<4>(lab, c, rows, cols, lanes, grid); break;
      case 8: time_fixed<8>(lab, c, rows, cols, lanes, grid); break;
      case 16: time_fixed<16>(lab, c, rows, cols, lanes, grid); break;
    }
    time_switch(lab, c, rows, cols, lanes, grid);
    if (cols == 256) {
      time_proto<16, 4, 1, 256>(lab, c, r256, 1);
      time_proto<8, 8, 1, 256>(lab, c, r256, 1);
    }
    if (cols == 64) time_proto<16, 1, 4, 256>(lab, c, r64, 1);
  }
  // Halves (the catalog's lanes: a lane's share is one vector of 8).
  time_halves<0>(lab, c, r256, 256, 8, 2 * wave);
  time_halves<8>(lab, c, r256, 256, 8, 2 * wave);
  time_halves<0>(lab, c, u64(1) << 18, 1024, 16, 2 * wave);
  time_halves<16>(lab, c, u64(1) << 18, 1024, 16, 2 * wave);
  time_halves<0>(lab, c, r64, 64, 8, 2 * wave);
  time_halves<8>(lab, c, r64, 64, 8, 2 * wave);
  return 0;
}
