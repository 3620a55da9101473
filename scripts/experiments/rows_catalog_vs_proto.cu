// Exploration for issue 53 (not part of the app): why the catalog's lanes-per-row and warp-per-row
// (kernels/short_rows.cuh, the timed instantiation) sit below the prototype (rows_vec.cuh) with
// the same lanes and loads at 2^20 x 256 and 2^22 x 64 floats. Each kernel is timed two ways: the
// prototypes' way (best of 20, L2 warm) and the benchmark's (median of 21, L2 evicted before each).
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_cvp scripts/experiments/rows_catalog_vs_proto.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_cvp
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "flat_rows_common.cuh"
#include "rows_vec.cuh"
#include "short_rows.cuh"

namespace k = rl::kernels;

template <class Launch>
void report(const char* what, const Lab& lab, const Cold& c, u64 rows, u64 cols, Launch&& launch) {
  const float warm = best_ms(launch);
  const float cold = cold_median_ms(launch, c, lab.sms);
  const unsigned long long wrong = lab.wrong_rows(rows, cols);
  const double bytes = double(rows) * double(cols + 1) * 4;
  printf("%8llu x %4llu %-44s best warm %5.1f %%  median cold %5.1f %%%s\n", rows, cols, what, lab.pct(bytes, warm),
         lab.pct(bytes, cold), wrong ? " WRONG" : "");
}

template <int kLanes, int kPerLane, int kGroups, int kBlock>
void time_proto(const Lab& lab, const Cold& c, u64 rows, unsigned waves) {
  constexpr u64 cols = u64(kLanes) * kPerLane * 4;
  auto kernel = rows_vec<kLanes, kPerLane, kGroups, kBlock, 1, false>;  // grid stride, plain stores
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kBlock, 0));
  const unsigned grid = unsigned(fit * lab.sms) * waves;
  char what[96];
  snprintf(what, sizeof what, "proto %2dx%d loads x%d groups, %4d x %u", kLanes, kPerLane, kGroups, kBlock, grid);
  report(what, lab, c, rows, cols,
         [&] { kernel<<<grid, kBlock>>>(reinterpret_cast<const float4*>(lab.in), lab.out, rows, nullptr); });
}

// The catalog's reduce_row_segments with its lanes a compile-time constant where kLanes > 0 (a
// copy of it when the runs in assets/runs/h200-rows/report/2026-12-03/constant_lanes.txt were taken, before
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
  const float cold =
      cold_median_ms([&] { halves_fixed<kLanes><<<grid, 256>>>(in, lab.out, rows, cols, lanes); }, c, lab.sms);
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

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  const unsigned wave = 8u * unsigned(lab.sms);  // blocks of 256 at full occupancy
  const u64 r256 = u64(1) << 20, r64 = u64(1) << 22;
  const u64 shapes[][2] = {{r256, 256},          {r64, 64},          {u64(1) << 21, 128}, {u64(1) << 19, 512},
                           {u64(1) << 18, 1024}, {u64(1) << 24, 16}, {1000000, 100},      {3000000, 36}};
  for (const auto& s : shapes) {
    const u64 rows = s[0], cols = s[1];
    const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, 4);  // the catalog's
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
