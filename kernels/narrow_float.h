// Half (IEEE 754 binary16) and bfloat16 as the GPU rounds them: from a float to the nearest value
// of the type, ties to even, overflow to infinity, half's subnormals kept; back to float exactly.
// Plain C++ for the CPU model and the Float tab. A sum of two halves or two bfloat16 computed in
// float and rounded so equals the type's own rounded sum (__hadd): float's 24 bits are at least
// twice the type's precision plus two (11 and 8 bits), where rounding twice changes nothing
// (Figueroa, "When is double rounding innocuous?", 1995).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>

namespace rl::kernels {

// std::bit_cast's builtin: the CUDA files compile as C++17, which has no std::bit_cast.
template <class To, class From>
constexpr To bits_as(From x) {
  return __builtin_bit_cast(To, x);
}

// The binary16 bits of x rounded to nearest, ties to even.
constexpr std::uint16_t half_bits(float x) {
  const std::uint32_t u = bits_as<std::uint32_t>(x);
  const std::uint16_t sign = std::uint16_t((u >> 16) & 0x8000u);
  const std::uint32_t mag = u & 0x7fffffffu;
  if (mag > 0x7f800000u) return std::uint16_t(sign | 0x7e00u);   // NaN: a quiet one
  if (mag >= 0x477ff000u) return std::uint16_t(sign | 0x7c00u);  // rounds past 65504: infinity
  if (mag < 0x38800000u) {               // below 2^-14: a subnormal half (or zero), in steps of 2^-24
    if (mag < 0x33000000u) return sign;  // at most 2^-25: rounds to zero (the tie goes to even 0)
    const std::uint32_t exp = mag >> 23, mant = (mag & 0x7fffffu) | 0x800000u;
    const int shift = int(126 - exp);  // 14..24: the bits below the half's last subnormal step
    std::uint32_t q = mant >> shift;
    const std::uint32_t rest = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (q & 1u))) ++q;
    return std::uint16_t(sign | q);
  }
  std::uint32_t v = mag - 0x38000000u;  // rebias the exponent from 127 to 15
  v += 0xfffu + ((v >> 13) & 1u);       // round the 13 dropped bits to nearest, ties to even
  return std::uint16_t(sign | (v >> 13));
}

constexpr float from_half_bits(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_as<float>(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) {  // zero or subnormal: mant x 2^-24, exact in float
    const float m = float(mant) * 5.9604644775390625e-8f;
    return sign ? -m : m;
  }
  return bits_as<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

constexpr float round_half(float x) { return from_half_bits(half_bits(x)); }

// The bfloat16 bits of x (float's upper 16 bits) rounded to nearest, ties to even.
constexpr std::uint16_t bf16_bits(float x) {
  const std::uint32_t u = bits_as<std::uint32_t>(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((u >> 16) | 0x40u);  // NaN: a quiet one
  return std::uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}

constexpr float from_bf16_bits(std::uint16_t b) { return bits_as<float>(std::uint32_t(b) << 16); }

constexpr float round_bf16(float x) { return from_bf16_bits(bf16_bits(x)); }

// x rounded to a float by round-to-odd: x itself where it is a float, else whichever of the two
// floats around it has its last bit set. Rounding that float to half or bfloat16 then gives what
// rounding x itself would: round-to-odd keeps at least two more bits than the target (Boldo and
// Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using rounding to
// odd", 2008), where rounding to nearest twice may not (1 + 2^-11 + 2^-30 would land on a tie).
inline float odd_float(double x) {
  const float f = static_cast<float>(x);
  if (static_cast<double>(f) == x || std::isnan(x) || std::isinf(f) || (bits_as<std::uint32_t>(f) & 1u)) return f;
  return std::nextafter(
      f, x > double(f) ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity());
}

inline float round_half(double x) { return round_half(odd_float(x)); }
inline float round_bf16(double x) { return round_bf16(odd_float(x)); }

}  // namespace rl::kernels
