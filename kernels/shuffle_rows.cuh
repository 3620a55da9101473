// A matrix's rows reduced by blocks whose values meet through warp shuffles: one block a row
// (batched-rows-shuffle), or chunks of a row in 16-byte loads whatever its alignment, joined in
// the same launch (batched-rows-vectorized). Same markers and probes as matrix.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

#include "block_common.cuh"
#include "block_shuffle.cuh"
#include "chunk_ends.cuh"
#include "matrix_shapes.h"
#include "probe.cuh"
#include "vector_loads.cuh"

namespace rl::kernels {

// <<< batched-rows-shuffle
// One block per row, as batched-rows, but the block's values meet through warp shuffles.
template <class T, class Op, class Probe>
__global__ void batched_rows_shuffle(const T* in, T* out, std::size_t cols, Probe probe) {
  T* smem = shared_array<T>();  // one cell per warp
  const unsigned tid = threadIdx.x;
  const std::size_t first = std::size_t(blockIdx.x) * cols;
  // The row's elements a block apart, eight loads in flight a thread (matrix.cuh's fold_strided).
  T v = Op::template identity<T>();
  int slot = 0;
  std::size_t c = tid;
  for (; c + 7 * blockDim.x < cols; c += 8 * blockDim.x) {
    T x[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = in[first + c + k * blockDim.x];
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      v = Op{}(v, x[k]);  // [row-stride]
      probe.load(0, slot++, first + c + k * blockDim.x);
    }
  }
  for (; c < cols; c += blockDim.x) {
    v = Op{}(v, in[first + c]);
    probe.load(0, slot++, first + c);
  }
  probe.stage(0, kTagRowStride, 0), probe.work(0, tid < cols), probe.lane(0, v);

  int stage = 1;
  v = block_shuffle<T, Op>(v, smem, probe, stage);  // see <<< block-shuffle
  if (tid == 0) out[blockIdx.x] = v;
  if (tid == 0) probe.partial(blockIdx.x, v);
}
// >>>

// <<< batched-rows-vectorized
// batched-rows-split's chunks (several blocks a row when rows are few) with 16-byte loads
// whatever the row's alignment: a row's body, from its first 16-byte boundary, in
// float4/int4/double2 vectors, chunk by chunk (a multiple of 64 columns); the few elements before
// that boundary (its head) and after its last whole vector (its tail) one a thread, by the row's
// first block. Warp shuffles meet the block's values. With several chunks a row, the row's last
// block folds the chunks' results (partials, tickets), or, where words is given (4-byte results,
// a cooperative launch), its first.
// In: the elements' type, T: the accumulator's (halves and bfloat16 may add in float).
template <class T, class Op, class Probe, class In = T, bool kWaits = false>
__global__ void batched_rows_vectorized(const In* in, T* partials, std::size_t cols, std::size_t chunk_cols,
                                        std::size_t chunks, Probe probe, T* out, unsigned* tickets,
                                        unsigned long long* words) {
  using V = typename Vec16<In>::type;
  T* smem = shared_array<T>();  // one cell per warp
  const unsigned tid = threadIdx.x;
  const std::size_t chunk = blockIdx.x % chunks, start = (blockIdx.x / chunks) * cols;
  const RowVectors row = row_vectors(start, cols, elements_in<V>);  // cudaMalloc'd: 16-byte aligned
  const std::size_t begin = chunk * chunk_cols;
  const std::size_t count = begin >= row.body ? 0 : chunk_cols < row.body - begin ? chunk_cols : row.body - begin;
  T v = Op::template identity<T>();
  int slot = 0;
  v = fold_row<V, T, Op>(v, in, start + row.head + begin, count, probe, slot);  // [row-vector]  // see <<< fold-row
  if (chunk == 0 && tid < row.head) {
    v = fold<Op>(v, in[start + tid]);  // the head, before the first 16-byte boundary
    probe.load(0, slot++, start + tid);
  }
  if (chunk == 0 && tid < row.tail) {
    v = fold<Op>(v, in[start + row.head + row.body + tid]);  // the tail, after the last whole vector
    probe.load(0, slot++, start + row.head + row.body + tid);
  }
  probe.stage(0, row.body ? kTagRowVector : kTagRowStride, 0);
  probe.work(0, tid < count / elements_in<V> || (chunk == 0 && (tid < row.head || tid < row.tail)));
  probe.lane(0, v);

  int stage = 1;
  v = block_shuffle<T, Op>(v, smem, probe, stage);  // see <<< block-shuffle
  if constexpr (kWaits && sizeof(T) == 4) {         // one wave, launched cooperatively  // see <<< first-waits
    if (tid == 0) probe.partial(blockIdx.x, v);
    first_waits<T, Op>(v, out, chunks, words, smem);
  } else {
    T* result = chunks == 1 ? out : partials;  // one chunk a row: the row's result
    if (tid == 0) result[blockIdx.x] = v;
    if (tid == 0) probe.partial(blockIdx.x, v);
    if (chunks > 1) fold_last_chunk<T, Op>(partials, out, chunks, tickets, smem);  // see <<< last-chunk
  }
}
// >>>

}  // namespace rl::kernels
