// 16-byte loads for the kernels that stream: vector types, folding a vector into an
// accumulator, and K loads in flight a thread (fold_batch, shown beside the kernels that call it).
// Shared by the shuffle, short-row and matrix kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "narrow_types.h"
#include "reduce_ops.h"

namespace rl::kernels {

// 16-byte vectors: four 4-byte elements, two doubles or eight halves or bfloat16, folded in
// element order.
template <class E>
struct alignas(16) Pack8 {
  E e[8];
};
template <class T>
struct Vec16;
template <>
struct Vec16<float> {
  using type = float4;
};
template <>
struct Vec16<int> {
  using type = int4;
};
template <>
struct Vec16<double> {
  using type = double2;
};
template <>
struct Vec16<narrow::Half> {
  using type = Pack8<narrow::Half>;
};
template <>
struct Vec16<narrow::Bf16> {
  using type = Pack8<narrow::Bf16>;
};
// Elements one load of V reads: a vector's, or 1 for a single element.
template <class V>
inline constexpr int elements_in = 1;
template <>
inline constexpr int elements_in<float4> = 4;
template <>
inline constexpr int elements_in<int4> = 4;
template <>
inline constexpr int elements_in<double2> = 2;
template <class E>
inline constexpr int elements_in<Pack8<E>> = 8;

// A vector of the accumulator's own type, or a single element converted to it (a half or
// bfloat16 into a float accumulator: exact).
template <class Op, class T, class V>
__device__ __forceinline__ T fold(T acc, const V& q) {
  if constexpr (std::is_same_v<V, T>)
    return Op{}(acc, q);  // a single element
  else if constexpr (elements_in<V> == 1)
    return Op{}(acc, static_cast<T>(q));
  else if constexpr (sizeof(T) == 8)
    return Op{}(Op{}(acc, q.x), q.y);
  else
    return Op{}(Op{}(Op{}(Op{}(acc, q.x), q.y), q.z), q.w);
}
// Eight halves or bfloat16, each converted to the accumulator's type (exact into float).
template <class Op, class T, class E>
__device__ __forceinline__ T fold(T acc, const Pack8<E>& q) {
#pragma unroll
  for (int k = 0; k < 8; ++k) acc = Op{}(acc, static_cast<T>(q.e[k]));
  return acc;
}
// The same into a compensated sum (compensated's loop), element by element in the same order.
template <class Op, class T, class V>
__device__ __forceinline__ ops::Neumaier<T> fold(ops::Neumaier<T> acc, const V& q) {
  if constexpr (std::is_same_v<V, T>)
    return ops::add(acc, q);
  else if constexpr (sizeof(T) == 8)
    return ops::add(ops::add(acc, q.x), q.y);
  else
    return ops::add(ops::add(ops::add(ops::add(acc, q.x), q.y), q.z), q.w);
}

// One load through L2 (ld.global.cg): __ldcg has no overload for halves and bfloat16, so their
// 16 bits, or a vector of eight, travel as unsigned short or uint4.
template <class V>
__device__ __forceinline__ V load_l2(const V* p) {
  if constexpr (elements_in<V> == 8 || narrow::is_narrow<V>) {
    using Bits = std::conditional_t<elements_in<V> == 8, uint4, unsigned short>;
    const Bits b = __ldcg(reinterpret_cast<const Bits*>(p));
    V v;
    memcpy(&v, &b, sizeof v);
    return v;
  } else {
    return __ldcg(p);
  }
}

// <<< fold-batch
// K loads issued before any is folded, so K are in flight at once; each recorded as one load
// of a vector's elements, from the thread's slot-th on. FromL2: data another block of this
// launch wrote, loaded through L2 (ld.global.cg), since this SM's L1 may hold a stale line of it.
template <int K, class Op, bool FromL2 = false, class T, class V, class Probe>
__device__ __forceinline__ T fold_batch(T v, const V* in16, std::size_t i, std::size_t threads, const Probe& probe,
                                        int& slot) {
  constexpr int per = elements_in<V>;
  V q[K];
#pragma unroll
  for (int k = 0; k < K; ++k) {
    if constexpr (FromL2)
      q[k] = load_l2(in16 + i + k * threads);
    else
      q[k] = in16[i + k * threads];
  }
#pragma unroll
  for (int k = 0; k < K; ++k) {
    v = fold<Op>(v, q[k]);
    probe.load(0, slot++, per * (i + k * threads), per);
  }
  return v;
}
// >>>

}  // namespace rl::kernels
