// Half and bfloat16 as element and accumulator types, one 16-bit pattern each, shared by the
// kernels and the CPU model. On the GPU they convert and add through CUDA's own intrinsics
// (__float2half_rn, __hadd); on the CPU through narrow_float.h, which rounds the same way: a sum
// of two of them computed in float and rounded once equals __hadd (narrow_float.h says why).
#pragma once
#include <cstdint>

#include "narrow_float.h"
#include "reduce_ops.h"

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace rl::narrow {

struct Half {
  std::uint16_t bits = 0;
  Half() = default;
  RL_HD explicit Half(float x) {
#if defined(__CUDA_ARCH__)
    bits = __half_as_ushort(__float2half_rn(x));
#else
    bits = kernels::half_bits(x);
#endif
  }
  RL_HD explicit operator float() const {
#if defined(__CUDA_ARCH__)
    return __half2float(__ushort_as_half(bits));
#else
    return kernels::from_half_bits(bits);
#endif
  }
  RL_HD explicit operator double() const { return double(float(*this)); }
};

struct Bf16 {
  std::uint16_t bits = 0;
  Bf16() = default;
  RL_HD explicit Bf16(float x) {
#if defined(__CUDA_ARCH__)
    bits = __bfloat16_as_ushort(__float2bfloat16_rn(x));
#else
    bits = kernels::bf16_bits(x);
#endif
  }
  RL_HD explicit operator float() const {
#if defined(__CUDA_ARCH__)
    return __bfloat162float(__ushort_as_bfloat16(bits));
#else
    return kernels::from_bf16_bits(bits);
#endif
  }
  RL_HD explicit operator double() const { return double(float(*this)); }
};

static_assert(sizeof(Half) == 2 && sizeof(Bf16) == 2, "one 16-bit pattern, as __half and __nv_bfloat16");

template <class T>
inline constexpr bool is_narrow = false;
template <>
inline constexpr bool is_narrow<Half> = true;
template <>
inline constexpr bool is_narrow<Bf16> = true;

// A sum in the type itself (the pitfall accumulator): one rounding an add, as __hadd rounds.
RL_HD Half add(Half a, Half b) {
#if defined(__CUDA_ARCH__)
  Half r;
  r.bits = __half_as_ushort(__hadd(__ushort_as_half(a.bits), __ushort_as_half(b.bits)));
  return r;
#else
  return Half(float(a) + float(b));
#endif
}
RL_HD Bf16 add(Bf16 a, Bf16 b) {
#if defined(__CUDA_ARCH__)
  Bf16 r;
  r.bits = __bfloat16_as_ushort(__hadd(__ushort_as_bfloat16(a.bits), __ushort_as_bfloat16(b.bits)));
  return r;
#else
  return Bf16(float(a) + float(b));
#endif
}

#if defined(__CUDACC__)
// A warp shuffle of the 16 bits (found by argument-dependent lookup beside CUDA's own overloads).
template <class T, class = std::enable_if_t<is_narrow<T>>>
__device__ __forceinline__ T __shfl_down_sync(unsigned mask, T v, unsigned delta, int width = 32) {
  T r;
  r.bits = static_cast<std::uint16_t>(::__shfl_down_sync(mask, static_cast<unsigned>(v.bits), delta, width));
  return r;
}
#endif

}  // namespace rl::narrow
