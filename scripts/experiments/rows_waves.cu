// Exploration for issue 53 (not part of the app): does the default grid's fraction of a wave hold
// the narrow row sums back? The plan sizes lanes-per-row's grid as two waves of blocks at full
// occupancy (16 blocks of 256 an SM), but the timed kernels' registers let 4 or 5 such blocks share
// an SM (cuobjdump -res-usage: halves 56 registers, held halves 46, bfloat16 48, held bfloat16 54),
// so the grid is 4 or 3.2 waves. Times the catalog's timed kernel, lanes_per_row_held, not held
// (share 0) and held (halves, bfloat16, floats) at 1-4 whole waves of the blocks an SM holds and at
// the plan's 16 an SM. Measured (assets/runs/h200-rows/report/2026-12-04/waves/rows_waves.txt,
// GPU-9388cc9c, cold medians) when "not held" was a kernel of its own (`git show
// 3c97f99:scripts/experiments/rows_waves.cu`): at 3.2 waves bfloat16 2^24 x 16 80.6 % against
// 86.6-87.1 in whole waves, 2^22 x 64 77.9 against 82.9-83.5; held halves 80.3 against 85.2-86.2 at
// 2^20 x 256, and held in two whole waves 87.9 at 2^22 x 64 where not held reads 83.6-84.5. Taken
// into the bench (MatrixLaunch<LanesPerRow>::timed_grid).
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_waves scripts/experiments/rows_waves.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_waves
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "rows_timing.cuh"

namespace k = rl::kernels;

template <class In>
void time_shape(const Lab& lab, const Cold& c, u64 rows, u64 cols, u64 cap) {
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));
  const In* in = reinterpret_cast<const In*>(lab.in);
  const auto held = k::lanes_per_row_held<float, rl::ops::Sum, In>;
  const auto plain = held;  // share 0: not held
  const int fit_plain = blocks_an_sm(plain, 256);
  char what[96];
  for (int waves : {0, 1, 2, 3, 4}) {  // 0: the plan's grid, 16 blocks an SM
    const unsigned grid = waves ? unsigned(waves * fit_plain * lab.sms) : 16u * unsigned(lab.sms);
    snprintf(what, sizeof what, "plain, %d an SM, 256 x %u (%.2f waves)", fit_plain, grid,
             double(grid) / (fit_plain * lab.sms));
    report<In>(what, lab, c, rows, cols, [&] { plain<<<grid, 256>>>(in, lab.out, rows, cols, lanes, 0); });
  }
  for (int waves : {0, 1, 2, 3, 4}) {
    int fit = 0;
    CK(cudaFuncSetAttribute(held, cudaFuncAttributeMaxDynamicSharedMemorySize, int(cap)));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, held, 256, int(cap)));
    const unsigned grid = waves ? unsigned(waves * fit * lab.sms) : 16u * unsigned(lab.sms);
    const u64 share = (rows + grid - 1) / grid;
    if (share * 4 > cap) continue;
    snprintf(what, sizeof what, "held %llu rows, %d an SM, 256 x %u (%.2f waves)", share, fit, grid,
             double(grid) / (fit * lab.sms));
    report<In>(what, lab, c, rows, cols,
               [&] { held<<<grid, 256, share * 4>>>(in, lab.out, rows, cols, lanes, std::size_t(share)); });
  }
}

// argv[1]: the most bytes of sums a block holds (default 16384, the catalog's kHeldSumBytes).
int main(int argc, char** argv) {
  const u64 cap = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 16384;
  printf("held sums: at most %llu bytes a block\n", cap);
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  const u64 shapes[][2] = {{u64(1) << 18, 1024}, {u64(1) << 20, 256}, {u64(1) << 22, 64}, {u64(1) << 24, 16}};
  for (const auto& s : shapes) {
    time_shape<rl::narrow::Half>(lab, c, s[0], s[1], cap);
    time_shape<rl::narrow::Bf16>(lab, c, s[0], s[1], cap);
  }
  for (const auto& s : shapes) time_shape<float>(lab, c, s[0], s[1], cap);
}
