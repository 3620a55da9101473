#include "ptx_narrow.h"

#include <cmath>
#include <cstring>

#include "kernels/narrow_float.h"
#include "ptx_arith.h"

namespace rl::own::ptx {
namespace {

// a + b rounded to odd: the nearest double when exact, else the neighbour whose last bit is 1.
// Rounded once more to a type of at most 51 bits, it gives the exact sum's rounding.
double odd_sum(double a, double b) {
  const double s = a + b;
  if (!std::isfinite(s)) return s;
  const double bb = s - a, err = (a - (s - bb)) + (b - bb);  // TwoSum: the exact error of s
  std::uint64_t u;
  std::memcpy(&u, &s, 8);
  if (err == 0 || (u & 1u)) return s;
  return std::nextafter(s, err > 0 ? HUGE_VAL : -HUGE_VAL);
}

double nan_min_max(bool max, double x, double y) {  // the PTX ISA: a NaN operand gives the other
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (x == y) return std::signbit(x) == max ? y : x;  // -0 is below +0
  return max ? std::fmax(x, y) : std::fmin(x, y);
}

std::uint16_t lane_op(const Instr& in, bool bf, std::uint16_t a, std::uint16_t b, std::uint16_t c) {
  const double x = narrow_value(a, bf), y = narrow_value(b, bf);
  switch (in.op) {
    case Op::Add: return narrow_bits(odd_sum(x, y), bf);
    case Op::Sub: return narrow_bits(odd_sum(x, -y), bf);
    case Op::Mul: return narrow_bits(x * y, bf);  // exact in double: at most 22 bits
    case Op::Fma:
    case Op::Mad: return narrow_bits(odd_sum(x * y, narrow_value(c, bf)), bf);
    case Op::Min: return narrow_bits(nan_min_max(false, x, y), bf);
    case Op::Max: return narrow_bits(nan_min_max(true, x, y), bf);
    case Op::Neg: return std::uint16_t(a ^ 0x8000u);
    case Op::Abs: return std::uint16_t(a & 0x7fffu);
    default: refuse(in, "the half or bfloat16 instruction " + in.mods);
  }
}

bool has_suffix(const Instr& in, const char* s) {
  return (in.mods + ".").find(std::string(".") + s + ".") != std::string::npos;
}

}  // namespace

double narrow_value(std::uint16_t bits, bool bf) {
  return double(bf ? kernels::from_bf16_bits(bits) : kernels::from_half_bits(bits));
}

std::uint16_t narrow_bits(long double x, bool bf) {
  if (std::isnan(x)) return 0x7fff;
  const int precision = bf ? 8 : 11, min_exp = bf ? -126 : -14, max_exp = bf ? 127 : 15;
  long double r = x;
  if (x != 0 && std::isfinite(x)) {
    const int q = std::max(std::ilogb(x), min_exp) - (precision - 1);  // the weight of the last bit kept
    r = std::ldexp(std::nearbyint(std::ldexp(x, -q)), q);              // ties to even: the default mode
    if (std::fabs(r) >= std::ldexp(1.0L, max_exp + 1)) r = std::copysign(HUGE_VALL, x);
  }
  const float f = float(r);  // exact: every half and bfloat16 is a float
  return bf ? kernels::bf16_bits(f) : kernels::half_bits(f);
}

double float_value(Type t, std::uint64_t v) {
  if (t.kind == Kind::Bf) return narrow_value(std::uint16_t(v), true);
  if (t.bytes == 2) return narrow_value(std::uint16_t(v), false);
  return t.bytes == 4 ? double(as_f32(v)) : as_f64(v);
}

std::uint64_t narrow_op(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  if (in.has(Mod::Rz) || in.has(Mod::Rm) || in.has(Mod::Rp) || in.has(Mod::Ftz) || has_suffix(in, "sat") ||
      has_suffix(in, "relu"))
    refuse(in, "a half or bfloat16 instruction with the modifiers " + in.mods);
  const bool bf = in.type.kind == Kind::Bf;
  const auto lane = [&](unsigned shift) {
    return std::uint64_t(
        lane_op(in, bf, std::uint16_t(a >> shift), std::uint16_t(b >> shift), std::uint16_t(c >> shift)));
  };
  return in.type.pair ? (lane(16) << 16 | lane(0)) : lane(0);
}

std::uint64_t narrow_convert(const Instr& in, std::uint64_t v) {
  const Type to = in.type, from = in.type2;
  if (to.pair || from.pair) refuse(in, "a conversion of a half or bfloat16 pair");
  if (!is_narrow(to)) {  // to f32 or f64: exact
    const double x = float_value(from, v);
    return to.bytes == 4 ? bits(float(x)) : bits(x);
  }
  if (!in.has(Mod::Rn)) refuse(in, "a conversion to half or bfloat16 other than .rn (" + in.mods + ")");
  const bool bf = to.kind == Kind::Bf;
  if (is_float(from)) return narrow_bits(float_value(from, v), bf);
  if (from.kind == Kind::S) return narrow_bits(static_cast<long double>(sext(v, from.bytes)), bf);
  return narrow_bits(static_cast<long double>(v & mask_of(from.bytes)), bf);
}

}  // namespace rl::own::ptx
