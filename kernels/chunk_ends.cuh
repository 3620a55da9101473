// How a launch's chunks end in that launch: a row's elements in 16-byte loads (fold-row), then the
// last block to finish folding the chunks' results (a ticket), or, in a cooperative launch, the
// row's first block waiting for them. Used by shuffle_rows.cuh's rows and shuffle.cuh's in-order.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "block_shuffle.cuh"
#include "matrix_shapes.h"
#include "probe.cuh"
#include "vector_loads.cuh"

namespace rl::kernels {

// <<< fold-row
// Elements [first, first + count) as loads of V (a 16-byte vector, or one element) a block apart:
// kRowLoadsInFlight loads in flight a thread, then two, then one for the rest. first and count are
// multiples of V's elements. In: the elements' type, T: the accumulator's.
template <class V, class T, class Op, bool FromL2 = false, class Probe, class In>
__device__ __forceinline__ T fold_row(T v, const In* in, std::size_t first, std::size_t count, const Probe& probe,
                                      int& slot) {
  constexpr std::size_t per = elements_in<V>;
  const V* in_v = reinterpret_cast<const V*>(in);
  const std::size_t B = blockDim.x, end = (first + count) / per;
  std::size_t i = first / per + threadIdx.x;
  constexpr int K = kRowLoadsInFlight;
  for (; i + (K - 1) * B < end; i += K * B)
    v = fold_batch<K, Op, FromL2>(v, in_v, i, B, probe, slot);  // see <<< fold-batch
  if (K > 2 && i + B < end) v = fold_batch<2, Op, FromL2>(v, in_v, i, B, probe, slot), i += 2 * B;
  if (i < end) v = fold_batch<1, Op, FromL2>(v, in_v, i, B, probe, slot);
  return v;
}
// >>>

// <<< last-chunk
// count results (partials[0..count)) folded in the same order every run, as a block of
// batched-rows-vectorized folds a row of them; the result lands in thread 0. FromL2: results other
// blocks wrote, read past L1.
template <class T, class Op, bool FromL2>
__device__ __forceinline__ T fold_partials(const T* partials, std::size_t count, T* smem) {
  using V = typename Vec16<T>::type;
  T v = Op::template identity<T>();
  int slot = 0, stage = 0;
  if (rows_hold_vectors(count, sizeof(T)))
    v = fold_row<V, T, Op, FromL2>(v, partials, 0, count, NoProbe{}, slot);
  else
    v = fold_row<T, T, Op, FromL2>(v, partials, 0, count, NoProbe{}, slot);
  return block_shuffle<T, Op>(v, smem, NoProbe{}, stage);
}

// The last block to finish folds count results into *out: one launch does both phases. Each
// caller takes a ticket from the counter; atomicInc wraps it to 0 for the next launch.
template <class T, class Op>
__device__ __forceinline__ void fold_last(const T* partials, T* out, std::size_t count, unsigned* ticket, T* smem) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();  // this block's result is visible device-wide before it takes its ticket
    last = atomicInc(ticket, unsigned(count - 1)) == unsigned(count - 1);
  }
  __syncthreads();
  if (!last) return;
  const T v = fold_partials<T, Op, true>(partials, count, smem);
  if (threadIdx.x == 0) *out = v;
}

// With several chunks a row, the row's last block to finish folds the row's chunk results.
template <class T, class Op>
__device__ __forceinline__ void fold_last_chunk(const T* partials, T* out, std::size_t chunks, unsigned* tickets,
                                                T* smem) {
  const std::size_t row = blockIdx.x / chunks;
  fold_last<T, Op>(partials + row * chunks, out + row, chunks, tickets + row, smem);
}
// >>>

// <<< first-waits
// The other end of a row, for 4-byte results where every block of the grid is resident at once (a
// cooperative launch): each block but the row's first stores its result and a ready bit in one
// aligned 8-byte word; the row's first block waits for the row's words, empties them for the next
// launch, and folds the results as fold_last does. No fence and no ticket: a relaxed 8-byte load
// at GPU scope sees the whole of one such store (the PTX ISA's single-copy atomicity), so the word
// says both the value and that it is there. (volatile would be relaxed at system scope.)
constexpr unsigned long long kWordReady = 1ull << 32;
__device__ __forceinline__ unsigned long long load_word(const unsigned long long* p) {
  unsigned long long w;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  return w;
}
__device__ __forceinline__ void store_word(unsigned long long* p, unsigned long long w) {
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" ::"l"(p), "l"(w) : "memory");
}
template <class T>
__device__ __forceinline__ unsigned word_bits(T v) {
  if constexpr (std::is_same_v<T, float>)
    return __float_as_uint(v);
  else
    return static_cast<unsigned>(v);
}
template <class T>
__device__ __forceinline__ T word_value(unsigned long long w) {
  if constexpr (std::is_same_v<T, float>)
    return __uint_as_float(unsigned(w));
  else
    return static_cast<T>(unsigned(w));
}

// words: a word a block, all empty (0) at launch; the results gather in shared memory after the
// warps' cells (a multiple of 4 cells, so they start on a 16-byte boundary).
template <class T, class Op>
__device__ __forceinline__ void first_waits(T v, T* out, std::size_t chunks, unsigned long long* words, T* smem) {
  static_assert(sizeof(T) == 4, "a result and its ready bit in one 8-byte word");
  const unsigned tid = threadIdx.x;
  const std::size_t chunk = blockIdx.x % chunks;
  unsigned long long* row_words = words + (blockIdx.x - chunk);
  if (chunk != 0) {
    if (tid == 0) store_word(row_words + chunk, kWordReady | word_bits(v));
    return;
  }
  T* results = smem + (blockDim.x / 32 + 3) / 4 * 4;
  if (tid == 0) results[0] = v;
  if (tid > 0 && tid < chunks) {
    unsigned long long w = load_word(row_words + tid);
    while (!(w & kWordReady)) w = load_word(row_words + tid);  // every block is resident: the word comes
    store_word(row_words + tid, 0);  // empty for the next launch, which starts after this one ends
    results[tid] = word_value<T>(w);
  }
  __syncthreads();
  v = fold_partials<T, Op, false>(results, chunks, smem);
  if (tid == 0) out[blockIdx.x / chunks] = v;
}
// >>>

}  // namespace rl::kernels
