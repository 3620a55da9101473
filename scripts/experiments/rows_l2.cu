// Exploration for issue 53 (not part of the app): do the row sums' writes cost 4 points at rows of
// 64 floats because the streaming reads evict them from L2 a line at a time, so that writes reach
// DRAM scattered among the reads? rows_vec (rows_vec.cuh) in lanes-per-row's shapes with the loads
// through the read-only path, cache-streaming (ld.global.cs) or an L2 evict-first policy, and the
// row sums stored plainly, with an L2 evict-last policy, or not at all; the catalog's timed
// lanes-per-row beside them. Timed as rows_groups.cu does (best of 20 warm back to back, median of
// 21 cold after an L2 eviction); float results checked against a double sum.
// Measured (assets/runs/h200-rows/report/2026-12-03/rows_l2*.txt, two H200s): the sums' write-back costs
// 6-29 us a launch (1-63 MB), several times their bytes' time; evict-first loads keep most of them
// in L2 past the kernel's end and lift the cold median (87-88 -> 92-94 % at 2^22 x 64) but not the
// back-to-back figure: the writes move to the next launch. Not taken into the catalog.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_l2 scripts/experiments/rows_l2.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_l2
// and for the DRAM bytes each moves: ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum ./rows_l2 once
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_vec_timing.cuh"

static bool g_once = false;  // `rows_l2 once`: each kernel launched once, for Nsight Compute

template <int kLanes, int kPerLane, int kGroups, int kWrite, int kLoad, bool kHalves = false>
void time_hint(const Lab& lab, const Cold& c, u64 rows) {
  static const char* loads[] = {"ldg", "ld.cs", "ld evict_first"};
  static const char* writes[] = {"no stores", "st", "st.cs", "st evict_last"};
  char label[40];
  snprintf(label, sizeof label, "%-14s %-13s", loads[kLoad], writes[kWrite]);
  time_rows_vec<kLanes, kPerLane, kGroups, 256, kWrite, kLoad, kHalves>(
      lab, rows, 1, label, [&](const char* what, u64 cols, auto launch) {
        if (!g_once)
          return report<std::conditional_t<kHalves, rl::narrow::Half, float>>(what, lab, c, rows, cols, launch);
        launch();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        printf("%llu x %llu %s\n", rows, cols, what);
      });
}

template <int kLanes, int kPerLane, int kGroups>
void time_shape(const Lab& lab, const Cold& c, u64 rows, int catalog_lanes) {
  if (!g_once) time_catalog<float>(lab, c, rows, u64(kLanes) * kPerLane * 4, catalog_lanes);
  time_hint<kLanes, kPerLane, kGroups, 1, 0>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 0, 0>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 1, 1>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 1, 2>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 3, 0>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 3, 1>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 3, 2>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 0, 2>(lab, c, rows);
}

// Halves: the row sums' writes against none, the catalog's lanes-per-row beside them.
template <int kLanes, int kPerLane, int kGroups>
void time_halves(const Lab& lab, const Cold& c, u64 rows) {
  constexpr u64 cols = u64(kLanes) * kPerLane * 8;
  if (!g_once)
    time_catalog<rl::narrow::Half>(lab, c, rows, cols, rl::kernels::row_lanes(rl::kernels::Algo::LanesPerRow, cols, 2));
  time_hint<kLanes, kPerLane, kGroups, 1, 0, true>(lab, c, rows);
  time_hint<kLanes, kPerLane, kGroups, 0, 0, true>(lab, c, rows);
}

int main(int argc, char** argv) {
  g_once = argc > 1;
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  time_shape<16, 1, 4>(lab, c, u64(1) << 22, 16);  // 2^22 x 64
  time_shape<4, 1, 4>(lab, c, u64(1) << 24, 4);    // 2^24 x 16
  time_shape<8, 4, 1>(lab, c, u64(1) << 21, 8);    // 2^21 x 128
  time_shape<8, 8, 1>(lab, c, u64(1) << 20, 8);    // 2^20 x 256
  time_shape<32, 8, 1>(lab, c, u64(1) << 18, 32);  // 2^18 x 1024
  time_halves<8, 4, 1>(lab, c, u64(1) << 20);      // 2^20 x 256 halves
  time_halves<8, 1, 4>(lab, c, u64(1) << 22);      // 2^22 x 64
  time_halves<2, 1, 4>(lab, c, u64(1) << 24);      // 2^24 x 16
  return 0;
}
