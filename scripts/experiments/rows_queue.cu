// Exploration for issue 53 (not part of the app): lanes-per-row's rows handed out by a queue.
// The timed kernel takes a block a round of rows on H100s (its grid as many blocks as rounds) and
// two whole waves on H200s, where the rounds read slower; at 2^20 x 256 floats it stays level with
// cuBLAS gemv on H100s (docs/benchmarks.md, "The timed grid's device shape"). work-queue, which
// hands its 1D tiles out from a counter as blocks free up, reads 0.8-2.0 more than one wave of
// grid-stride blocks ("The streaming kernels in more, shorter blocks"). Here the catalog's
// lane_segments walk `share` rows a ticket (a round, or several), in one wave of blocks that take
// their next ticket while they read this one, and write each ticket's sums at its end, one run, as
// the rounds do. Beside it the catalog's timed kernel in its rounds and in one to four whole waves,
// all in the experiment's timing (rows_timing.cuh: best of 20 warm, median of 21 cold, mean of 20
// back to back), every float result checked against a double sum.
// Measured (assets/runs/h100-rows/report/2026-12-06/lanes_queue/rows_queue.txt, H100 GPU-130609f1,
// two passes, the mean of 20 back to back): a round a ticket level with the catalog's rounds at
// rows of 256, 64 and 16, 0.7-0.8 under them at 100, 96 and 48, 0.6-0.9 over them at 200; larger
// tickets slower at every shape. A likely reading, not measured: the block scheduler hands the
// rounds out about as well.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++20 -I. -Ikernels -o rows_queue scripts/experiments/rows_queue.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_queue
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_timing.cuh"

namespace k = rl::kernels;
constexpr int kBlock = 256;

// Each launch counts its tickets on taken[slot] and zeroes the other slot for the next launch.
template <class In>
__global__ void __launch_bounds__(1024)
    lanes_queue(const In* in, float* out, std::size_t rows, std::size_t cols, int lanes, std::size_t share,
                unsigned long long* taken, int slot) {
  float* held = k::shared_array<float>();
  __shared__ unsigned long long ticket[2];
  const unsigned tid = threadIdx.x;
  const std::size_t tickets = (rows + share - 1) / share;
  if (tid == 0) ticket[0] = blockIdx.x;
  if (tid == 0 && blockIdx.x == 0) taken[slot ^ 1] = 0;
  __syncthreads();
  for (int b = 0;; b ^= 1) {
    const std::size_t c = ticket[b];
    if (c >= tickets) break;  // block-uniform
    if (tid == 0) ticket[b ^ 1] = gridDim.x + atomicAdd(taken + slot, 1ull);
    const std::size_t begin = c * share, count = rows - begin < share ? rows - begin : share;
    k::lane_segments<float, rl::ops::Sum, In, true, k::kRowLoadsInFlight>(in + begin * cols, held, count, cols, lanes,
                                                                          k::NoProbe{}, tid / 32, blockDim.x / 32);
    __syncthreads();  // the ticket's sums are held; the next ticket is visible
    for (std::size_t i = tid; i < count; i += blockDim.x) out[begin + i] = held[i];
    __syncthreads();  // held is free for the next ticket
  }
}

template <class In>
void time_shape(const Lab& lab, const Cold& c, u64 rows, u64 cols, unsigned long long* taken) {
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));
  const u64 round = k::row_round(cols, sizeof(In), lanes, kBlock);
  const In* in = reinterpret_cast<const In*>(lab.in);
  char what[96];
  const auto catalog = k::lanes_per_row_held<float, rl::ops::Sum, In>;
  CK(cudaFuncSetAttribute(catalog, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152));
  const unsigned rounds = unsigned((rows + round - 1) / round);
  snprintf(what, sizeof what, "catalog, a round (%llu rows) a block, %u blocks", round, rounds);
  line<false>(what, lab, c, rows, cols,
              [&] { catalog<<<rounds, kBlock, round * 4>>>(in, lab.out, rows, cols, lanes, std::size_t(round)); });
  int fit = 0;  // blocks of the catalog's kernel an SM holds, each with the most sums it may hold
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, catalog, kBlock, 49152));
  for (int waves = 1; waves <= 4; waves *= 2) {
    const unsigned grid = unsigned(waves * fit * lab.sms);
    const u64 share = (rows + grid - 1) / grid;
    const bool held = share * 4 <= 49152;
    snprintf(what, sizeof what, "catalog, %d wave(s) %s, %u blocks", waves, held ? "held" : "not held", grid);
    line<false>(what, lab, c, rows, cols, [&] {
      catalog<<<grid, kBlock, held ? share * 4 : 0>>>(in, lab.out, rows, cols, lanes, std::size_t(held ? share : 0));
    });
  }
  const auto queue = lanes_queue<In>;
  CK(cudaFuncSetAttribute(queue, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152));
  int slot = 0;
  for (u64 times : {1, 2, 4}) {
    const u64 share = round * times;
    int fit = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, queue, kBlock, int(share * 4)));
    const unsigned grid = unsigned(fit * lab.sms);
    snprintf(what, sizeof what, "queue, %llu rows a ticket, %d an SM, %u blocks", share, fit, grid);
    line<false>(what, lab, c, rows, cols, [&] {
      queue<<<grid, kBlock, share * 4>>>(in, lab.out, rows, cols, lanes, std::size_t(share), taken, slot);
      slot ^= 1;
    });
  }
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  unsigned long long* taken = nullptr;
  CK(cudaMalloc(&taken, 16));
  CK(cudaMemset(taken, 0, 16));
  const u64 shapes[][2] = {{u64(1) << 20, 256}, {u64(1) << 22, 64}, {u64(1) << 24, 16}, {1000000, 100},
                           {1000000, 96},       {2000000, 48},      {500000, 200}};
  for (int pass = 1; pass <= 2; ++pass) {
    printf("pass %d\n", pass);
    for (const auto& s : shapes) time_shape<float>(lab, c, s[0], s[1], taken);
  }
}
