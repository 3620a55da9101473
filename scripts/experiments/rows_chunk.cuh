// What small_fold.cu, small_cluster.cu and small_tagged.cu share (explorations for issue 53, not
// part of the app): batched_rows_vectorized's body (kernels/shuffle_rows.cuh) up to the block's total of
// its chunk, so each can end it another way, and an input whose sums round.
#pragma once
#include <vector>

#include "rows_timing.cuh"  // CK, time_line
#include "shuffle.cuh"
#include "shuffle_rows.cuh"

// Block blockIdx.x's total of its chunk (chunk blockIdx.x % chunks of row blockIdx.x / chunks), in
// thread 0, added in float as the catalog adds it; smem: a float a warp. kEarly: the row's head and
// tail (the first block's few elements off the 16-byte vectors) loaded before the vectors, not
// after their adds, and added where the catalog adds them: the same sum.
template <class In, bool kEarly = false>
__device__ __forceinline__ float chunk_total(const In* in, std::size_t cols, std::size_t chunk_cols, std::size_t chunks,
                                             float* smem) {
  namespace k = rl::kernels;
  using Sum = rl::ops::Sum;
  using V = typename k::Vec16<In>::type;
  const unsigned tid = threadIdx.x;
  const std::size_t chunk = blockIdx.x % chunks, start = (blockIdx.x / chunks) * cols;
  const k::RowVectors rv = k::row_vectors(start, cols, k::elements_in<V>);
  const std::size_t begin = chunk * chunk_cols;
  const std::size_t count = begin >= rv.body ? 0 : chunk_cols < rv.body - begin ? chunk_cols : rv.body - begin;
  float v = 0;
  int slot = 0;
  const bool head = chunk == 0 && tid < rv.head, tail = chunk == 0 && tid < rv.tail;
  In h{}, t{};
  if (kEarly && head) h = in[start + tid];
  if (kEarly && tail) t = in[start + rv.head + rv.body + tid];
  v = k::fold_row<V, float, Sum>(v, in, start + rv.head + begin, count, k::NoProbe{}, slot);
  if (head) v = k::fold<Sum>(v, kEarly ? h : in[start + tid]);
  if (tail) v = k::fold<Sum>(v, kEarly ? t : in[start + rv.head + rv.body + tid]);
  int stage = 1;
  return k::block_shuffle<float, Sum>(v, smem, k::NoProbe{}, stage);
}

// fold_last's fold (kernels/chunk_ends.cuh, fold_partials) of a row's `chunks` totals, so the row's
// sum has the catalog's bits; every thread of the block calls it, and thread 0 holds the sum.
// kFromL2: totals other blocks wrote to global memory, read past L1 as fold_last reads them.
template <bool kFromL2 = false>
__device__ float fold_totals(const float* totals, std::size_t chunks, float* smem) {
  return rl::kernels::fold_partials<float, rl::ops::Sum, kFromL2>(totals, chunks, smem);
}

// The first `rows` row sums of `out`, on the host.
inline std::vector<float> rows_out(const float* out, unsigned long long rows) {
  std::vector<float> h(rows);
  CK(cudaMemcpy(h.data(), out, rows * 4, cudaMemcpyDeviceToHost));
  return h;
}

// Elements whose sums round in float: 20 random mantissa bits, 2^-6 to 2^5, either sign.
template <class In>
__global__ void fill_inexact(In* x, unsigned long long n) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    unsigned h = unsigned(i * 2654435761ull) ^ unsigned(i >> 15) ^ 0x9e3779b9u;
    h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
    const float m = 1.f + float(h & 0xfffffu) / 1048576.f;
    x[i] = In(ldexpf(h >> 31 ? -m : m, int((h >> 20) % 12u) - 6));
  }
}

// n elements whose sums round, in a new buffer (cudaFree it).
template <class In>
In* new_inexact(unsigned long long n) {
  In* x = nullptr;
  CK(cudaMalloc(&x, n * sizeof(In)));
  fill_inexact<<<1024, 256>>>(x, n);
  CK(cudaGetLastError());
  return x;
}

// Our 1D sum (warp_shuffle_vectorized, blocks of 256) over the n elements of `in` in grids of 264,
// 384 and 528, each a line of time_line; `sum` takes the result.
template <class In>
void time_1d_sums(const char* type, const Lab& lab, const Cold& c, const In* in, unsigned long long n, double bytes,
                  float* sum) {
  namespace k = rl::kernels;
  char what[96];
  for (const unsigned grid : {264u, 384u, 528u}) {
    snprintf(what, sizeof what, "%s 1D sum, grid %u", type, grid);
    time_line(what, lab, c, bytes, [&] {
      k::warp_shuffle_vectorized<float, rl::ops::Sum, k::NoProbe, In>
          <<<grid, 256, 256 / 32 * 4>>>(in, sum, n, k::NoProbe{}, static_cast<float*>(nullptr));
    });
  }
}
