// Exploration for issue 53 (not part of the app): lanes-per-row's timed kernel on a GPU where a
// round of rows a block does not pay (rounds_pay false: an H200), read on any sm_90 GPU (an H100's
// SMs hold the same blocks). For each type and shape: the held kernel's blocks an SM (the runtime's
// occupancy query, as the launch entry asks it), the rounds' grid, and the fewest whole waves, up to
// kGridWaves, in which each block's share is held (else kGridWaves waves, not held), with the share:
// the grid timed_grid took there as first written (6d5949c). Since, those rows take kGridWaves waves
// there; the blocks an SM printed here give that grid too.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -I. -Ikernels -o rows_wave_grid \
//     scripts/experiments/rows_wave_grid.cu kernels/model/matrix_shapes.cpp && ./rows_wave_grid

#include <cstdio>

#include "short_rows.cuh"

namespace k = rl::kernels;
using Entry = k::MatrixLaunch<k::Algo::LanesPerRow>;

template <class T, class In>
void show(const char* type, k::Matrix m, int block, int sms) {
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, m.cols, sizeof(In));
  const std::size_t round = k::row_round(m.cols, sizeof(In), lanes, block);
  Entry::with_first<T, rl::ops::Sum, In>(m.cols, lanes, block, [&](auto first) {
    const Entry::Occupancy o(k::lanes_per_row_held<T, rl::ops::Sum, In, first.value>, block);
    const std::size_t wave = std::size_t(o.blocks) * std::size_t(sms);
    std::size_t grid = 0, share = 0;
    for (std::size_t w = 1; w <= std::size_t(k::kGridWaves) && !grid; ++w)
      if ((share = o.held_share(m.rows, w * wave, sizeof(T)))) grid = w * wave;
    if (!grid) grid = std::size_t(k::kGridWaves) * wave;
    std::printf("%-6s %9zu x %-5zu block %4d: %d blocks an SM, rounds %zu, whole waves %zu (%s)\n", type, m.rows,
                m.cols, block, o.blocks, round ? (m.rows + round - 1) / round : 0, grid,
                share ? ("held, " + std::to_string(share) + " rows a block").c_str() : "not held");
  });
}

int main() {
  int sms = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess) return 1;
  for (const k::Matrix m : {k::Matrix{std::size_t(1) << 20, 256}, k::Matrix{std::size_t(1) << 22, 64},
                            k::Matrix{std::size_t(1) << 24, 16}})
    for (int block : {256, 128, 512}) {
      show<float, float>("float", m, block, sms);
      show<float, rl::narrow::Half>("half", m, block, sms);
      show<float, rl::narrow::Bf16>("bf16", m, block, sms);
    }
  return 0;
}
