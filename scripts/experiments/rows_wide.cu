// Exploration for issue 53 (not part of the app): at rows of 256 to 1024 floats the row prototype
// (rows_vec.cuh: all of a lane's loads in flight, grid of one wave) ran 2-4 points ahead of the
// catalog's lanes-per-row (16 lanes a row, four loads in flight in a loop, two waves of blocks),
// and cuBLAS gemv is level with or ahead of the catalog at 2^18 x 1024. Here the catalog's timed
// kernel at one, two and four waves beside the prototype in several lanes and loads, each timed
// as rows_groups.cu does (best of 20 warm, median of 21 cold after an L2 eviction).
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_wide scripts/experiments/rows_wide.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_wide
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_vec_timing.cuh"

namespace k = rl::kernels;

template <int kLanes, int kPerLane, int kGroups, int kBlock = 256>
void time_proto(const Lab& lab, const Cold& c, u64 rows, int waves) {
  time_rows_vec<kLanes, kPerLane, kGroups, kBlock>(
      lab, rows, waves, "plain",
      [&](const char* what, u64 cols, auto launch) { report<float>(what, lab, c, rows, cols, launch); });
}

// The catalog's timed lanes-per-row with its own lanes, in `waves` waves of blocks of 256.
void time_catalog_waves(const Lab& lab, const Cold& c, u64 rows, u64 cols, int waves) {
  auto kernel = k::lanes_per_row_held<float, rl::ops::Sum, float>;  // share 0: not held
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, 4);
  const unsigned grid = unsigned(blocks_an_sm(kernel, 256) * lab.sms * waves);
  char what[96];
  snprintf(what, sizeof what, "catalog lanes-per-row, %2d lanes, %3d regs, 256 x %u", lanes, attr.numRegs, grid);
  report<float>(what, lab, c, rows, cols, [&] { kernel<<<grid, 256>>>(lab.in, lab.out, rows, cols, lanes, 0); });
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  const u64 r1024 = u64(1) << 18, r512 = u64(1) << 19, r256 = u64(1) << 20;
  for (int waves : {1, 2, 4}) time_catalog_waves(lab, c, r1024, 1024, waves);
  time_catalog<float>(lab, c, r1024, 1024, 16);  // the catalog's grid rule
  time_proto<32, 8, 1>(lab, c, r1024, 1);
  time_proto<32, 8, 1>(lab, c, r1024, 2);
  time_proto<16, 16, 1>(lab, c, r1024, 1);
  time_proto<32, 8, 1, 512>(lab, c, r1024, 1);
  for (int waves : {1, 2, 4}) time_catalog_waves(lab, c, r512, 512, waves);
  time_proto<32, 4, 1>(lab, c, r512, 1);
  time_proto<32, 4, 2>(lab, c, r512, 1);
  time_proto<16, 8, 1>(lab, c, r512, 1);
  for (int waves : {1, 2, 4}) time_catalog_waves(lab, c, r256, 256, waves);
  time_proto<8, 8, 1>(lab, c, r256, 1);
  time_proto<16, 4, 1>(lab, c, r256, 1);
  time_proto<32, 2, 4, 512>(lab, c, r256, 1);
  return 0;
}
