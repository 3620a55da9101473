// Exploration for issue 53 (not part of the app): can flat-rows, holding every row sum of its run
// until the run is read, pass its catalog form where writes amid the reads cost it most (rows of
// 100 and 33)? mixed_stream (2026-12-06, GPU-508415e6) found the bare traffic of runs in one wave,
// their words held to each block's end, 3.0-3.4 points above the same words written as they come.
// Here the catalog's own kernel (kernels/flat_rows.cuh, the timed instantiation: no probe) runs
// three ways, nothing changed but its launch:
//   catalog: its grid (a block a run of a tile and a half) and its ring of held sums;
//   wave:    one wave of the blocks that fit an SM, the catalog's ring (flushed when due);
//   to end:  grids of 1, 2 or 3 blocks an SM, a ring holding the whole run (flushed at its end);
//            the blocks an SM fits, printed beside, make it one wave where they match the grid.
// Each figure is the best of 5 batches of 10 launches back to back (mixed_stream's timing: a
// launch's dirty lines are written back during the next); % of peak counts the matrix and its sums.
// Each form's sums are checked against a double sum of the rows after its last launch (the output
// is not cleared between forms).
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o flat_rows_held \
//     scripts/experiments/flat_rows_held.cu kernels/model/matrix_shapes.cpp && ./flat_rows_held
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "flat_rows.cuh"
#include "flat_rows_common.cuh"

namespace k = rl::kernels;

constexpr std::size_t pow2_at_least(std::size_t n) {
  std::size_t p = 1;
  while (p < n) p *= 2;
  return p;
}

template <class In, int kLanes>
struct Runner {
  const Lab& lab;
  const In* in;
  u64 rows, cols;
  int block;

  // One way of launching: its line, or why it cannot run.
  void time(const char* what, unsigned grid, int held) const {
    const auto kernel = k::flat_rows<float, rl::ops::Sum, k::NoProbe, In, kLanes>;
    const int smem = k::kFlatTileBytes * k::kFlatStages + held * 4;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    int fit = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, block, smem));
    if (fit == 0) {
      printf("    %-30s grid %6u ring %6d: does not fit an SM\n", what, grid, held);
      return;
    }
    const auto launch = [&] { kernel<<<grid, block, smem>>>(in, lab.out, rows, cols, kLanes, held, k::NoProbe{}); };
    const float ms = back_to_back_ms(launch, 10, 5);
    const unsigned long long wrong = lab.wrong_rows(in, rows, cols);
    const double bytes = double(rows) * double(cols) * sizeof(In) + double(rows) * 4;
    printf("    %-30s grid %6u ring %6d (%d an SM, block %4d): %5.1f %%  %7.1f us%s\n", what, grid, held, fit, block,
           lab.pct(bytes, ms), ms * 1e3, wrong ? " WRONG" : "");
    fflush(stdout);
  }

  void run() const {
    const std::size_t eb = sizeof(In);
    const int ring = k::flat_held_rows(cols, eb, 4);
    const std::size_t tile_rows = k::flat_tile_rows(cols, eb);
    const unsigned wave = unsigned(3 * lab.sms);  // three blocks of 256 an SM: the catalog's wave
    // The catalog's own rule (an SM of sm_90 holds 2048 threads, DeviceShape's default).
    const unsigned catalog = unsigned(k::flat_timed_grid(k::Matrix{rows, cols}, block, k::DeviceShape(lab.sms), eb));
    printf("  %llu x %llu %s, %d lanes a row, catalog ring %d\n", rows, cols, eb == 2 ? "halves" : "floats", kLanes,
           ring);
    time("catalog (runs, its ring)", catalog, ring);
    time("wave, its ring", wave, ring);
    for (unsigned per_sm : {1u, 2u, 3u}) {
      const unsigned grid = per_sm * unsigned(lab.sms);
      const std::size_t most = (rows + grid - 1) / grid;  // rows of the longest run
      const int whole = int(pow2_at_least(most + 2 * tile_rows + 1));
      char what[64];
      snprintf(what, sizeof what, "to end, %u an SM", per_sm);
      time(what, grid, whole);
    }
  }
};

template <class In>
void shapes(const Lab& lab, const In* in) {
  for (int block : {256, 512}) {
    printf("blocks of %d\n", block);
    Runner<In, 4>{lab, in, 1000000, 100, block}.run();
    Runner<In, 1>{lab, in, 3000000, 33, block}.run();
  }
}

int main() {
  static_assert(k::flat_row_lanes(100) == 4 && k::flat_row_lanes(33) == 1, "the lanes the runners are built for");
  const u64 n = 100000000;
  const Lab lab = open_lab(n, 3000000);
  shapes(lab, static_cast<const float*>(lab.in));
  __half* halves = lab_halves(lab, n);
  shapes(lab, static_cast<const __half*>(halves));
  CK(cudaFree(halves));
  return 0;
}
