// Exploration for issue 53 (not part of the app): why batched-rows-vectorized reads long rows of
// halves at 86-89 % of peak where floats reach 94-95 %. A thread's chunk is 64 halves: eight
// 16-byte loads, taken four at a time (fold_row), each batch folded (eight conversions and adds a
// load, one chain) before the next batch's loads issue. Here the same kernel with the chunk's
// loads all in flight at once (kInFlight 8) or the next batch's loads issued before the current
// batch is folded (kAhead), or the halves converted two at a time (kPairs): the same loads and the
// same adds in the same order, so the same sums.
// Timed as rows_groups.cu does (best of 20 warm, median of 21 cold after an L2 eviction), beside
// the catalog's kernel in the catalog's blocks and chunks and in longer chunks.
// Measured (assets/runs/h200-rows/report/2026-12-03/rows_halves.txt): the chunk, not the loads, held halves
// back. The catalog's kernel in blocks of 512 with chunks of 64 halves a thread (64 KB a chunk) read
// 87.7-89.7 % at 2^4 to 2^12 rows; with 128 a thread (128 KB, what floats' blocks of 1024 take)
// 90.2-92.2 % (one H200). Eight loads in flight gained at most a point at the same chunk; the next
// batch's loads ahead of the adds, or the halves converted in pairs, nothing; forms that took 40 or
// more registers a thread (fewer blocks an SM) lost 2-23 points. That led to the chunks of 128 KB
// (docs/benchmarks.md, "Chunks of 128 KB for halves and bfloat16").
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_halves scripts/experiments/rows_halves.cu && ./rows_halves
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>

#include "rows_timing.cuh"
#include "shuffle_rows.cuh"

namespace k = rl::kernels;
using Half = rl::narrow::Half;
using Bf16 = rl::narrow::Bf16;
using Sum = rl::ops::Sum;

// k::fold's adds in its order, with the eight narrow elements converted two at a time (one
// instruction a pair) where kPairs.
template <bool kPairs, class T, class V>
__device__ __forceinline__ T fold8(T acc, const V& q) {
  if constexpr (kPairs && k::elements_in<V> == 8) {
    const unsigned* w = reinterpret_cast<const unsigned*>(&q);
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float2 f;
      if constexpr (std::is_same_v<V, k::Pack8<Half>>)
        f = __half22float2(*reinterpret_cast<const __half2*>(&w[j]));
      else
        f = __bfloat1622float2(*reinterpret_cast<const __nv_bfloat162*>(&w[j]));
      acc += f.x, acc += f.y;
    }
    return acc;
  } else {
    return k::fold<Sum>(acc, q);
  }
}

// fold_row's loads and adds (kernels/chunk_ends.cuh, fold-row), kInFlight loads a batch; kAhead:
// batch j + 1's loads issued before batch j's adds.
template <int kInFlight, bool kAhead, bool kPairs, class V, class T>
__device__ __forceinline__ T fold_chunk(T v, const V* in_v, std::size_t i, std::size_t end) {
  constexpr int K = kInFlight;
  const std::size_t B = blockDim.x;
  k::NoProbe probe;
  int slot = 0;
  if constexpr (kAhead) {
    if (i + (K - 1) * B < end) {
      V q[K];
#pragma unroll
      for (int u = 0; u < K; ++u) q[u] = in_v[i + u * B];
      for (i += K * B; i + (K - 1) * B < end; i += K * B) {
        V n[K];
#pragma unroll
        for (int u = 0; u < K; ++u) n[u] = in_v[i + u * B];
#pragma unroll
        for (int u = 0; u < K; ++u) v = fold8<kPairs>(v, q[u]), q[u] = n[u];
      }
#pragma unroll
      for (int u = 0; u < K; ++u) v = fold8<kPairs>(v, q[u]);
    }
  } else {
    for (; i + (K - 1) * B < end; i += K * B) {
      V q[K];
#pragma unroll
      for (int u = 0; u < K; ++u) q[u] = in_v[i + u * B];
#pragma unroll
      for (int u = 0; u < K; ++u) v = fold8<kPairs>(v, q[u]);
    }
  }
  if (K > 4 && i + 3 * B < end) v = k::fold_batch<4, Sum>(v, in_v, i, B, probe, slot), i += 4 * B;
  if (K > 2 && i + B < end) v = k::fold_batch<2, Sum>(v, in_v, i, B, probe, slot), i += 2 * B;
  if (i < end) v = k::fold_batch<1, Sum>(v, in_v, i, B, probe, slot);
  return v;
}

// batched_rows_vectorized (kernels/shuffle_rows.cuh) for rows whose bytes are a multiple of 16 and chunks
// that divide them: fold_chunk, the block's shuffles, the row's last block folding the partials.
template <int kInFlight, bool kAhead, bool kPairs, class T, class In>
__global__ void chunks_kernel(const In* in, T* partials, u64 cols, u64 chunk_cols, u64 chunks, T* out,
                              unsigned* tickets) {
  using V = typename k::Vec16<In>::type;
  T* smem = k::shared_array<T>();
  constexpr u64 per = k::elements_in<V>;
  const u64 chunk = blockIdx.x % chunks, first = (blockIdx.x / chunks) * cols + chunk * chunk_cols;
  T v = fold_chunk<kInFlight, kAhead, kPairs>(T(0), reinterpret_cast<const V*>(in), first / per + threadIdx.x,
                                              (first + chunk_cols) / per);
  int stage = 1;
  v = k::block_shuffle<T, Sum>(v, smem, k::NoProbe{}, stage);
  T* result = chunks == 1 ? out : partials;
  if (threadIdx.x == 0) result[blockIdx.x] = v;
  if (chunks > 1) k::fold_last_chunk<T, Sum>(partials, out, chunks, tickets, smem);
}

struct Bufs {
  float* partials;
  unsigned* tickets;
};

template <int kInFlight, bool kAhead, class In, bool kPairs = false>
void time_proto(const Lab& lab, const Cold& c, const Bufs& b, u64 rows, u64 cols, int block, int each) {
  const u64 chunk_cols = std::min<u64>(cols, u64(block) * each), chunks = cols / chunk_cols;
  char what[96];
  snprintf(what, sizeof what, "%s in flight %d%s%s, %4d x %llu", kInFlight ? "proto" : "catalog", kInFlight,
           kAhead ? " ahead" : "      ", kPairs ? " pairs" : "      ", block, rows * chunks);
  const In* in = reinterpret_cast<const In*>(lab.in);
  const unsigned grid = unsigned(rows * chunks), smem = unsigned(block / 32 * sizeof(float));
  report<In>(what, lab, c, rows, cols, [&] {
    if constexpr (kInFlight == 0)
      k::batched_rows_vectorized<float, Sum, k::NoProbe, In>
          <<<grid, block, smem>>>(in, b.partials, cols, chunk_cols, chunks, {}, lab.out, b.tickets);
    else
      chunks_kernel<kInFlight, kAhead, kPairs, float, In>
          <<<grid, block, smem>>>(in, b.partials, cols, chunk_cols, chunks, lab.out, b.tickets);
  });
}

// The catalog's block for halves and bfloat16 (kernels/model/matrix_shapes.cpp,
// preferred_matrix_block): 32 elements a thread, at most 512 threads for halves, 1024 for bfloat16;
// chunks of 64 elements a thread (row_chunk_elements). Floats: 8 elements a thread, 32 a chunk.
template <class In>
void shape(const Lab& lab, const Cold& c, const Bufs& b, u64 rows, u64 cols) {
  const bool floats = sizeof(In) == 4;
  const int most = std::is_same_v<In, Half> ? 512 : 1024, each = floats ? 32 : 64;
  int block = 32;
  while (block < most && u64(block) * 2 * (floats ? 8 : 32) <= cols) block *= 2;
  time_proto<0, false, In>(lab, c, b, rows, cols, block, each);
  if (!floats) time_proto<0, false, In>(lab, c, b, rows, cols, block, 2 * each);
  if (!floats) time_proto<0, false, In>(lab, c, b, rows, cols, block == 512 ? 1024 : 512, 2 * each);
  time_proto<4, false, In>(lab, c, b, rows, cols, block, each);
  time_proto<8, false, In>(lab, c, b, rows, cols, block, each);
  time_proto<4, true, In>(lab, c, b, rows, cols, block, each);
  if (!floats) {
    time_proto<4, false, In, true>(lab, c, b, rows, cols, block, each);
    time_proto<8, false, In, true>(lab, c, b, rows, cols, block, each);
    time_proto<4, true, In, true>(lab, c, b, rows, cols, block, each);
    time_proto<8, false, In>(lab, c, b, rows, cols, block, 2 * each);
    time_proto<4, true, In>(lab, c, b, rows, cols, block, 2 * each);
    time_proto<8, false, In>(lab, c, b, rows, cols, block == 512 ? 1024 : 512, each);
  }
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  Bufs b{};
  CK(cudaMalloc(&b.partials, (u64(1) << 20) * 4));
  CK(cudaMalloc(&b.tickets, (u64(1) << 20) * 4));
  CK(cudaMemset(b.tickets, 0, (u64(1) << 20) * 4));
  for (int r = 4; r <= 14; r += 2) shape<Half>(lab, c, b, u64(1) << r, u64(1) << (28 - r));
  for (int r = 4; r <= 12; r += 4) shape<Bf16>(lab, c, b, u64(1) << r, u64(1) << (28 - r));
  for (int r = 4; r <= 12; r += 4) shape<float>(lab, c, b, u64(1) << r, u64(1) << (28 - r));
  return 0;
}
