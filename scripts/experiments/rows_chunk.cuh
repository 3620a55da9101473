// What small_fold.cu and small_cluster.cu share (explorations for issue 53, not part of the app):
// batched_rows_vectorized's body (kernels/shuffle.cuh) up to the block's total of its chunk, so
// each can end it another way.
#pragma once
#include "shuffle.cuh"

// Block blockIdx.x's total of its chunk (chunk blockIdx.x % chunks of row blockIdx.x / chunks), in
// thread 0, added in float as the catalog adds it; smem: a float a warp.
template <class In>
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
  v = k::fold_row<V, float, Sum>(v, in, start + rv.head + begin, count, k::NoProbe{}, slot);
  if (chunk == 0 && tid < rv.head) v = k::fold<Sum>(v, in[start + tid]);
  if (chunk == 0 && tid < rv.tail) v = k::fold<Sum>(v, in[start + rv.head + rv.body + tid]);
  int stage = 1;
  return k::block_shuffle<float, Sum>(v, smem, k::NoProbe{}, stage);
}
