// Half and bfloat16 as element and accumulator types, one 16-bit pattern each, shared by the
// kernels and the CPU model. On the GPU they convert and add through CUDA's own intrinsics
// (__float2half_rn, __hadd); on the CPU through narrow_float.h, which rounds the same way: a sum
// of two of them computed in float and rounded once equals __hadd (narrow_float.h says why).
#pragma once
#include <cstdint>
#include <type_traits>

#include "narrow_float.h"
#include "reduce_ops.h"

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace rl::narrow {

struct HalfTag {};  // IEEE binary16, __half
struct Bf16Tag {};  // bfloat16, __nv_bfloat16

// The 16 bits of a __half (Tag HalfTag) or an __nv_bfloat16 (Bf16Tag).
template <class Tag>
struct Narrow16 {
  static constexpr bool kHalf = std::is_same_v<Tag, HalfTag>;
  std::uint16_t bits = 0;
  Narrow16() = default;
  RL_HD explicit Narrow16(float x) {  // to nearest, ties to even
#if defined(__CUDA_ARCH__)
    if constexpr (kHalf)
      bits = __half_as_ushort(__float2half_rn(x));
    else
      bits = __bfloat16_as_ushort(__float2bfloat16_rn(x));
#else
    bits = kHalf ? kernels::half_bits(x) : kernels::bf16_bits(x);
#endif
  }
  RL_HD explicit operator float() const {  // exact
#if defined(__CUDA_ARCH__)
    if constexpr (kHalf)
      return __half2float(__ushort_as_half(bits));
    else
      return __bfloat162float(__ushort_as_bfloat16(bits));
#else
    return kHalf ? kernels::from_half_bits(bits) : kernels::from_bf16_bits(bits);
#endif
  }
  RL_HD explicit operator double() const { return double(float(*this)); }
};

using Half = Narrow16<HalfTag>;
using Bf16 = Narrow16<Bf16Tag>;
static_assert(sizeof(Half) == 2 && sizeof(Bf16) == 2, "one 16-bit pattern, as __half and __nv_bfloat16");

// The (accumulator, element) pairs the project builds for halves and bfloat16: X(T, In) for each,
// for the explicit instantiations of the launches and the model.
#define RL_FOR_EACH_NARROW_PAIR(X) \
  X(float, narrow::Half) X(float, narrow::Bf16) X(narrow::Half, narrow::Half) X(narrow::Bf16, narrow::Bf16)

template <class T>
inline constexpr bool is_narrow = false;
template <class Tag>
inline constexpr bool is_narrow<Narrow16<Tag>> = true;

// A sum in the type itself (the pitfall accumulator): one rounding an add, as __hadd rounds.
template <class Tag>
RL_HD Narrow16<Tag> add(Narrow16<Tag> a, Narrow16<Tag> b) {
#if defined(__CUDA_ARCH__)
  Narrow16<Tag> r;
  if constexpr (Narrow16<Tag>::kHalf)
    r.bits = __half_as_ushort(__hadd(__ushort_as_half(a.bits), __ushort_as_half(b.bits)));
  else
    r.bits = __bfloat16_as_ushort(__hadd(__ushort_as_bfloat16(a.bits), __ushort_as_bfloat16(b.bits)));
  return r;
#else
  return Narrow16<Tag>(float(a) + float(b));
#endif
}

#if defined(__CUDACC__)
// A warp shuffle of the 16 bits (found by argument-dependent lookup beside CUDA's own overloads).
template <class Tag>
__device__ __forceinline__ Narrow16<Tag> __shfl_down_sync(unsigned mask, Narrow16<Tag> v, unsigned delta,
                                                          int width = 32) {
  Narrow16<Tag> r;
  r.bits = static_cast<std::uint16_t>(::__shfl_down_sync(mask, static_cast<unsigned>(v.bits), delta, width));
  return r;
}
#endif

}  // namespace rl::narrow
