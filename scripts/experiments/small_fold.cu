// Exploration for issue 53 (not part of the app): what holds batched-rows-vectorized at
// 3 x (2^20 + 1) halves 1.25-1.33 times our 1D sum of the same halves (warp-shuffle-vectorized)?
// The 1D sum ends with one atomic add a block; the row kernel, run-to-run deterministic, with
// fold_last_chunk: each block stores its total, fences, takes a ticket, and the row's last block
// reads the row's totals and folds them in order. Timed here, each as the benchmark takes its
// samples (median of 21 launches, each after an L2 eviction), over the same halves:
//   catalog   batched_rows_vectorized as the catalog launches it (ticket fold)
//   atomic    the same body, each block's total added into out[row] by one atomic (no fold, no
//             fixed order): what the fold costs
//   acq_rel   the same body, the ticket taken by an acq_rel atomic instead of __threadfence and
//             atomicInc
//   1D sum    warp_shuffle_vectorized over the same 3 (2^20 + 1) halves, in several grids
// Measured (assets/runs/h200-rows/report/2026-12-05/call1_small_fold.txt, an H200): catalog 7.55 us,
// acq_rel 7.52, atomic 6.46, the 1D sum 5.89 (median cold, grid 384): the fixed-order fold is the gap.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o small_fold scripts/experiments/small_fold.cu \
//     kernels/model/matrix_shapes.cpp && ./small_fold
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_chunk.cuh"
#include "rows_timing.cuh"

namespace k = rl::kernels;
using Half = rl::narrow::Half;
using Sum = rl::ops::Sum;
constexpr int kBlock = 256;

enum class Fold { Atomic, AcqRel };

// batched_rows_vectorized's body (kernels/shuffle_rows.cuh), its end as `kFold` says.
template <Fold kFold>
__global__ void __launch_bounds__(kBlock)
    rows_variant(const Half* in, float* partials, std::size_t cols, std::size_t chunk_cols, std::size_t chunks,
                 float* out, unsigned* tickets) {
  __shared__ float smem[kBlock / 32];
  __shared__ bool last;
  const unsigned tid = threadIdx.x;
  const std::size_t row = blockIdx.x / chunks;
  const float v = chunk_total(in, cols, chunk_cols, chunks, smem);
  if constexpr (kFold == Fold::Atomic) {
    if (tid == 0) atomicAdd(out + row, v);
  } else {
    if (tid == 0) {
      partials[blockIdx.x] = v;
      cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(tickets[row]);
      last = ticket.fetch_add(1, cuda::memory_order_acq_rel) == unsigned(chunks - 1);
      if (last) ticket.store(0, cuda::memory_order_relaxed);
    }
    __syncthreads();
    if (!last) return;
    float w = 0;
    int stage = 0;
    for (std::size_t i = tid; i < chunks; i += kBlock) w += partials[row * chunks + i];
    w = k::block_shuffle<float, Sum>(w, smem, k::NoProbe{}, stage);
    if (tid == 0) out[row] = w;
  }
}

int main() {
  const u64 rows = 3, cols = (u64(1) << 20) + 1, n = rows * cols;
  const Lab lab = open_lab(n, rows);
  const Cold c = open_cold();
  const Half* in = reinterpret_cast<const Half*>(lab.in);  // timing only: the floats' bits as halves
  const double bytes = double(n) * 2 + double(rows) * 4;
  float *partials = nullptr, *sum = nullptr;
  unsigned* tickets = nullptr;
  CK(cudaMalloc(&partials, 4096 * 4));
  CK(cudaMalloc(&sum, 4));
  CK(cudaMalloc(&tickets, rows * 4));
  CK(cudaMemset(tickets, 0, rows * 4));
  for (const u64 chunks : {u64(64), u64(128)}) {
    const std::size_t chunk_cols = k::split_chunk_cols({rows, cols}, chunks);
    const unsigned grid = unsigned(rows * chunks);
    char what[64];
    snprintf(what, sizeof what, "catalog, %llu chunks a row (grid %u)", chunks, grid);
    time_line(what, lab, c, bytes, [&] {
      k::batched_rows_vectorized<float, Sum, k::NoProbe, Half><<<grid, kBlock, kBlock / 32 * 4>>>(
          in, partials, cols, chunk_cols, chunks, k::NoProbe{}, lab.out, tickets);
    });
    snprintf(what, sizeof what, "atomic, %llu chunks a row", chunks);
    time_line(what, lab, c, bytes, [&] {
      rows_variant<Fold::Atomic><<<grid, kBlock>>>(in, partials, cols, chunk_cols, chunks, lab.out, tickets);
    });
    snprintf(what, sizeof what, "acq_rel, %llu chunks a row", chunks);
    time_line(what, lab, c, bytes, [&] {
      rows_variant<Fold::AcqRel><<<grid, kBlock>>>(in, partials, cols, chunk_cols, chunks, lab.out, tickets);
    });
  }
  for (const unsigned grid : {192u, 264u, 384u, 528u, 1056u}) {
    char what[64];
    snprintf(what, sizeof what, "1D sum, grid %u", grid);
    time_line(what, lab, c, bytes, [&] {
      k::warp_shuffle_vectorized<float, Sum, k::NoProbe, Half>
          <<<grid, kBlock, kBlock / 32 * 4>>>(in, sum, n, k::NoProbe{}, static_cast<float*>(nullptr));
    });
  }
  return 0;
}
