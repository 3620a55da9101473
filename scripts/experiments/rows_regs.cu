// Exploration for issue 53 (not part of the app): does a fifth block of 256 an SM lift
// halves and bfloat16 at rows of 64 and 16? Nsight Compute on the catalog's timed lanes-per-row
// (assets/runs/h200-rows/report/2026-12-04/prepare/call1_ncu_table.md, GPU-fa437643) found halves at
// 2^22 x 64 issuing about 1.5 times the floats' instructions a byte and stalling on memory half as
// much an instruction, at 4 blocks of 256 an SM (52 registers a thread; at rows of 64 the held
// sums' shared memory also allows 4): DRAM 84.3 % against 90.2 %.
// Here the catalog's kernel beside copies of it capped by __launch_bounds__(256, 5) and (256, 6)
// (at most 48 and 40 registers: 5 and 6 blocks an SM unless they spill), each in the catalog's rule
// for its grid: the fewest whole waves, up to two, in which a block's share of the rows is held.
// Prints each kernel's registers, spilled bytes, blocks an SM, grid and share. ptxas -v (nvcc 13,
// sm_90, 2026-12-04): the catalog's kernel takes 52 registers over halves, 56 over bfloat16, 64 over
// floats; capped at 5 blocks, halves and bfloat16 take 48 and spill nothing, floats spill 308 bytes;
// at 6, 40 registers, and halves spill 16 bytes, bfloat16 32, floats 880.
// Measured (assets/runs/h200-rows/report/2026-12-04/same_bytes/call1_rows_regs.txt, one H200):
// halves and bfloat16 moved -2.2 to +0.8 points with the fifth or sixth block; floats, spilling,
// lost up to 48. Occupancy is not what holds halves back; the catalog was not changed. (The
// program prints cudaFuncGetAttributes' localSizeBytes as "spilled": local memory a thread, which
// differs from ptxas' spill-store bytes above.)
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_regs scripts/experiments/rows_regs.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_regs
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_timing.cuh"

namespace k = rl::kernels;

// lanes_per_row_held's body (kernels/short_rows.cuh), with a floor of kMinBlocks blocks of 256.
template <class T, class Op, class In, int kMinBlocks>
__global__ void __launch_bounds__(256, kMinBlocks)
    held_capped(const In* in, T* out, std::size_t rows, std::size_t cols, int lanes, std::size_t share) {
  constexpr int K = k::kRowLoadsInFlight;
  if (share == 0) {
    k::lane_segments<T, Op, In, true, K>(in, out, rows, cols, lanes, k::NoProbe{},
                                         std::size_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32,
                                         std::size_t(gridDim.x) * (blockDim.x / 32));
    return;
  }
  T* held = k::shared_array<T>();
  const std::size_t begin = std::size_t(blockIdx.x) * share;
  if (begin >= rows) return;
  const std::size_t count = rows - begin < share ? rows - begin : share;
  k::lane_segments<T, Op, In, true, K>(in + begin * cols, held, count, cols, lanes, k::NoProbe{}, threadIdx.x / 32,
                                       blockDim.x / 32);
  __syncthreads();
  for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) out[begin + i] = held[i];
}

template <class In>
void time_shape(const Lab& lab, const Cold& c, u64 rows, u64 cols) {
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));
  const In* in = reinterpret_cast<const In*>(lab.in);
  // Each kernel in the catalog's grid rule (MatrixLaunch<LanesPerRow>::timed_grid), blocks of 256.
  const auto run = [&](const char* name, auto kernel) {
    using Entry = k::MatrixLaunch<k::Algo::LanesPerRow>;
    const Entry::Occupancy o(kernel, 256);
    cudaFuncAttributes attr;
    CK(cudaFuncGetAttributes(&attr, kernel));
    unsigned grid = 0;
    std::size_t share = 0;
    for (int w = 1; w <= k::kGridWaves && !grid; ++w)
      if ((share = o.held_share(rows, std::size_t(w * o.blocks * lab.sms), sizeof(float))))
        grid = unsigned(w * o.blocks * lab.sms);
    if (!grid) grid = unsigned(k::kGridWaves * o.blocks * lab.sms);
    char what[128];
    snprintf(what, sizeof what, "%s %d regs %d B spilled, %d an SM, %u x 256, share %zu", name, attr.numRegs,
             int(attr.localSizeBytes), o.blocks, grid, share);
    report<In>(what, lab, c, rows, cols,
               [&] { kernel<<<grid, 256, share * sizeof(float)>>>(in, lab.out, rows, cols, lanes, share); });
  };
  run("catalog", k::lanes_per_row_held<float, rl::ops::Sum, In>);
  run("min 5  ", held_capped<float, rl::ops::Sum, In, 5>);
  run("min 6  ", held_capped<float, rl::ops::Sum, In, 6>);
}

// Floats not at rows of 1024: there the catalog's float sums take a longer first batch
// (row_first_batch, a kernel of its own), which this file does not copy.
int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  const u64 shapes[][2] = {{u64(1) << 18, 1024}, {u64(1) << 20, 256}, {u64(1) << 22, 64}, {u64(1) << 24, 16}};
  for (const auto& s : shapes) {
    time_shape<rl::narrow::Half>(lab, c, s[0], s[1]);
    time_shape<rl::narrow::Bf16>(lab, c, s[0], s[1]);
    if (s[1] < 1024) time_shape<float>(lab, c, s[0], s[1]);
  }
}
