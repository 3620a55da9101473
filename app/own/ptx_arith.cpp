#include "ptx_arith.h"

#include "ptx_narrow.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace rl::own::ptx {
namespace {

__extension__ typedef unsigned __int128 U128;  // mul.hi's double-width product
__extension__ typedef __int128 S128;

}  // namespace

// One float instruction in F (float or double), IEEE round to nearest; false where not modelled.
template <class F>
bool float_in(Op op, std::uint64_t a, std::uint64_t b, std::uint64_t c, std::uint64_t* r) {
  const F x = as<F>(a), y = as<F>(b);
  constexpr std::uint64_t sign = std::uint64_t(1) << (8 * sizeof(F) - 1);
  switch (op) {
    case Op::Add: return *r = bits(x + y), true;
    case Op::Sub: return *r = bits(x - y), true;
    case Op::Mul: return *r = bits(x * y), true;
    case Op::Div: return *r = bits(x / y), true;
    case Op::Fma:
    case Op::Mad: return *r = bits(std::fma(x, y, as<F>(c))), true;
    case Op::Min: return *r = bits(std::isnan(x) ? y : std::isnan(y) ? x : std::fmin(x, y)), true;
    case Op::Max: return *r = bits(std::isnan(x) ? y : std::isnan(y) ? x : std::fmax(x, y)), true;
    case Op::Neg: return *r = a ^ sign, true;
    case Op::Abs: return *r = a & (sign - 1), true;
    case Op::Sqrt: return *r = bits(std::sqrt(x)), true;
    case Op::Rcp: return *r = bits(F(1) / x), true;
    default: return false;
  }
}

std::uint64_t float_op(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  if (is_narrow(in.type)) return narrow_op(in, a, b, c);
  if (in.has(Mod::Rz) || in.has(Mod::Rm) || in.has(Mod::Rp) || in.has(Mod::Approx) || in.has(Mod::Ftz) ||
      in.has(Mod::Full))
    refuse(in, "a float instruction with a rounding or approximation modifier (" + in.mods + ")");
  std::uint64_t r = 0;
  if (in.type.bytes == 4 && float_in<float>(in.op, a, b, c, &r)) return r;
  if (in.type.bytes == 8 && float_in<double>(in.op, a, b, c, &r)) return r;
  refuse(in, "the float instruction ." + std::to_string(8 * in.type.bytes) + " " + in.mods);
}

std::uint64_t int_op(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  const int n = in.type.bytes;
  const bool is_signed = in.type.kind == Kind::S;
  const std::int64_t sa = sext(a, n), sb = sext(b, n);
  const bool wide = in.has(Mod::Wide), hi = in.has(Mod::Hi);
  auto product = [&]() -> std::uint64_t {
    if (wide) return is_signed ? std::uint64_t(sa * sb) : a * b;  // 32 x 32 -> 64
    if (hi) {
      const U128 p = is_signed ? U128(S128(sa) * S128(sb)) : U128(a) * U128(b);
      return std::uint64_t(p >> (8 * n));
    }
    return a * b;
  };
  switch (in.op) {
    case Op::Add: return a + b;
    case Op::Sub: return a - b;
    case Op::Mul: return product();
    case Op::Mad: return product() + c;
    case Op::Div:
      if (b == 0) return mask_of(n);
      return is_signed ? std::uint64_t(sa / sb) : a / b;
    case Op::Rem:
      if (b == 0) return a;
      return is_signed ? std::uint64_t(sa % sb) : a % b;
    case Op::Min: return is_signed ? std::uint64_t(std::min(sa, sb)) : std::min(a, b);
    case Op::Max: return is_signed ? std::uint64_t(std::max(sa, sb)) : std::max(a, b);
    case Op::Neg: return std::uint64_t(-sa);
    case Op::Abs: return std::uint64_t(sa < 0 ? -sa : sa);
    case Op::And: return a & b;
    case Op::Or: return a | b;
    case Op::Xor: return a ^ b;
    case Op::Not: return ~a;
    case Op::Shl: return b >= std::uint64_t(8 * n) ? 0 : a << b;
    case Op::Shr:
      if (is_signed) return std::uint64_t(sa >> std::min<std::uint64_t>(b, std::uint64_t(8 * n - 1)));
      return b >= std::uint64_t(8 * n) ? 0 : a >> b;
    case Op::Popc: return std::uint64_t(__builtin_popcountll(a & mask_of(n)));
    case Op::Clz:
      return (a & mask_of(n)) == 0 ? std::uint64_t(8 * n)
                                   : std::uint64_t(__builtin_clzll(a & mask_of(n)) - (64 - 8 * n));
    case Op::Bfind: {  // none: 0xffffffff (the PTX ISA's bfind)
      std::uint64_t v = a & mask_of(n);
      if (is_signed && (v >> (8 * n - 1) & 1u)) v = ~v & mask_of(n);  // a negative's highest 0
      if (v == 0) return 0xffffffffu;
      const int top = 63 - __builtin_clzll(v);
      return std::uint64_t(in.mods.find(".shiftamt") != std::string::npos ? 8 * n - 1 - top : top);
    }
    case Op::Brev: {
      std::uint64_t r = 0;
      for (int i = 0; i < 8 * n; ++i) r |= ((a >> i) & 1) << (8 * n - 1 - i);
      return r;
    }
    default: refuse(in, "the integer instruction " + in.mods);
  }
}

bool compare(const Instr& in, std::uint64_t a, std::uint64_t b) {
  if (in.type.pair) refuse(in, "a comparison of half or bfloat16 pairs");
  if (is_float(in.type)) {
    const double x = float_value(in.type, a), y = float_value(in.type, b);
    const bool nan = std::isnan(x) || std::isnan(y);
    switch (in.cmp) {
      case Cmp::Eq: return !nan && x == y;
      case Cmp::Ne: return !nan && x != y;
      case Cmp::Lt: return !nan && x < y;
      case Cmp::Le: return !nan && x <= y;
      case Cmp::Gt: return !nan && x > y;
      case Cmp::Ge: return !nan && x >= y;
      case Cmp::Equ: return nan || x == y;
      case Cmp::Neu: return nan || x != y;
      case Cmp::Ltu: return nan || x < y;
      case Cmp::Leu: return nan || x <= y;
      case Cmp::Gtu: return nan || x > y;
      case Cmp::Geu: return nan || x >= y;
      case Cmp::Num: return !nan;
      case Cmp::Nan: return nan;
      default: refuse(in, "the float comparison " + in.mods);
    }
  }
  const int n = in.type.bytes;
  const bool s = in.type.kind == Kind::S;
  const std::int64_t sa = sext(a, n), sb = sext(b, n);
  switch (in.cmp) {
    case Cmp::Eq: return a == b;
    case Cmp::Ne: return a != b;
    case Cmp::Lt: return s ? sa < sb : a < b;
    case Cmp::Le: return s ? sa <= sb : a <= b;
    case Cmp::Gt: return s ? sa > sb : a > b;
    case Cmp::Ge: return s ? sa >= sb : a >= b;
    case Cmp::Lo: return a < b;
    case Cmp::Ls: return a <= b;
    case Cmp::Hi: return a > b;
    case Cmp::Hs: return a >= b;
    default: refuse(in, "the integer comparison " + in.mods);
  }
}

std::uint64_t convert(const Instr& in, std::uint64_t v) {
  const Type to = in.type, from = in.type2;
  if (!is_float(from) && !is_float(to)) {  // integer widths: sign- or zero-extend, or cut
    const std::uint64_t x = from.kind == Kind::S ? std::uint64_t(sext(v, from.bytes)) : v;
    return x & mask_of(to.bytes);
  }
  if (is_narrow(to) || (is_narrow(from) && is_float(to))) return narrow_convert(in, v);
  if (from.kind == Kind::F && to.kind == Kind::F) {
    if (from.bytes == 4 && to.bytes == 8) return bits(double(as_f32(v)));
    if (from.bytes == 8 && to.bytes == 4) {
      if (!in.has(Mod::Rn)) refuse(in, "a double-to-float conversion other than .rn");
      return bits(float(as_f64(v)));
    }
    return v;
  }
  if (is_float(from)) {  // to an integer (from any float, half and bf16 too): .rzi (C's cast) or .rni
    const double x = float_value(from, v);
    double r = x;
    if (in.has(Mod::Rzi))
      r = std::trunc(x);
    else if (in.has(Mod::Rni))
      r = std::nearbyint(x);
    else if (in.has(Mod::Rmi))
      r = std::floor(x);
    else if (in.has(Mod::Rpi))
      r = std::ceil(x);
    else
      refuse(in, "a float-to-integer conversion without .rzi/.rni/.rmi/.rpi");
    if (std::isnan(r)) return 0;
    const int bits_n = 8 * to.bytes;
    if (to.kind == Kind::S) {
      const double lo = -std::ldexp(1.0, bits_n - 1), hi = std::ldexp(1.0, bits_n - 1) - 1;
      return std::uint64_t(std::int64_t(std::clamp(r, lo, hi))) & mask_of(to.bytes);
    }
    return std::uint64_t(std::clamp(r, 0.0, std::ldexp(1.0, bits_n) - 1)) & mask_of(to.bytes);
  }
  if (!in.has(Mod::Rn)) refuse(in, "an integer-to-float conversion other than .rn");
  if (from.kind == Kind::S) {
    const std::int64_t x = sext(v, from.bytes);
    return to.bytes == 4 ? bits(float(x)) : bits(double(x));
  }
  return to.bytes == 4 ? bits(float(v)) : bits(double(v));
}

std::uint64_t bit_field_extract(const Instr& in, std::uint64_t a, std::uint32_t pos, std::uint32_t len) {
  const unsigned msb = 8u * in.type.bytes - 1;
  pos &= 0xff, len &= 0xff;
  const bool sbit = in.type.kind == Kind::S && len != 0 && (a >> std::min(pos + len - 1, msb) & 1u);
  std::uint64_t d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    const bool bit = i < len && pos + i <= msb ? (a >> (pos + i) & 1u) : sbit;
    d |= std::uint64_t(bit) << i;
  }
  return d;
}

std::uint64_t bit_field_insert(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint32_t pos,
                               std::uint32_t len) {
  const unsigned msb = 8u * in.type.bytes - 1;
  pos &= 0xff, len &= 0xff;
  for (unsigned i = 0; i < len && pos + i <= msb; ++i)
    b = (b & ~(std::uint64_t(1) << (pos + i))) | ((a >> i & 1u) << (pos + i));
  return b;
}

int shuffle_source(const Instr& in, int lane, std::uint32_t b, std::uint32_t c, bool* in_range) {
  const int bval = int(b & 31), cval = int(c & 31), seg = int((c >> 8) & 31);
  const int max_lane = (lane & seg) | (cval & ~seg), min_lane = lane & seg;
  int j = lane;
  bool p = false;
  if (in.has(Mod::Up))
    j = lane - bval, p = j >= max_lane;
  else if (in.has(Mod::Down))
    j = lane + bval, p = j <= max_lane;
  else if (in.has(Mod::Bfly))
    j = lane ^ bval, p = j <= max_lane;
  else
    j = min_lane | (bval & ~seg), p = j <= max_lane;
  *in_range = p;
  return p ? j : lane;
}

std::uint64_t vote_result(const Instr& in, std::uint32_t ballot, std::uint32_t mask) {
  if (in.has(Mod::Ballot)) return ballot & mask;
  if (in.has(Mod::All)) return (ballot & mask) == mask;
  if (in.has(Mod::Any)) return (ballot & mask) != 0;
  if (in.has(Mod::Uni)) return (ballot & mask) == 0 || (ballot & mask) == mask;
  refuse(in, "the vote " + in.mods);
}

std::uint64_t atomic_result(const Instr& in, std::uint64_t old, std::uint64_t b, std::uint64_t c) {
  if (in.has(Mod::Exch)) return b;
  if (in.has(Mod::Cas)) return old == b ? c : old;
  if (in.has(Mod::Inc)) return old >= b ? 0 : old + 1;
  if (in.has(Mod::Dec)) return (old == 0 || old > b) ? b : old - 1;
  Instr as = in;
  as.mods.clear();  // the operation alone, without the atomic's own suffixes
  if (in.has(Mod::Add))
    as.op = Op::Add;
  else if (in.has(Mod::Min))
    as.op = Op::Min;
  else if (in.has(Mod::Max))
    as.op = Op::Max;
  else if (in.has(Mod::And))
    as.op = Op::And;
  else if (in.has(Mod::Or))
    as.op = Op::Or;
  else if (in.has(Mod::Xor))
    as.op = Op::Xor;
  else
    refuse(in, "the atomic operation " + in.mods);
  return is_float(in.type) ? float_op(as, old, b, 0) : int_op(as, old, b, 0);
}

std::uint64_t special_value(std::uint64_t which, unsigned t, const LaunchDims& d, unsigned block_id) {
  switch (which) {
    case kTidX: return t % d.block_x;
    case kTidY: return t / d.block_x;
    case kNtidX: return d.block_x;
    case kNtidY: return d.block_y;
    case kCtaidX: return block_id % d.grid_x;
    case kCtaidY: return block_id / d.grid_x;
    case kNctaidX: return d.grid_x;
    case kNctaidY: return d.grid_y;
    case kTidZ:
    case kCtaidZ: return 0;
    case kNtidZ:
    case kNctaidZ: return 1;
    case kLaneId: return t % 32;
    case kWarpId: return t / 32;
    case kLanemaskLt: return (std::uint64_t(1) << (t % 32)) - 1;
    case kEnvReg1: return d.grid_workspace >> 32;
    case kEnvReg2: return d.grid_workspace & 0xffffffffu;
    default: return 0;
  }
}

std::uint32_t redux_result(const Instr& in, const std::uint32_t* lanes, std::uint32_t mask) {
  const bool is_signed = in.type.kind == Kind::S;
  const auto key = [&](std::uint32_t v) { return is_signed ? std::int64_t(std::int32_t(v)) : std::int64_t(v); };
  std::optional<std::uint32_t> r;
  for (unsigned l = 0; l < 32; ++l) {
    if (!(mask >> l & 1u)) continue;
    const std::uint32_t v = lanes[l];
    if (!r)
      r = v;
    else if (in.has(Mod::Add))
      r = *r + v;
    else if (in.has(Mod::Min))
      r = key(v) < key(*r) ? v : *r;
    else if (in.has(Mod::Max))
      r = key(v) > key(*r) ? v : *r;
    else if (in.has(Mod::And))
      r = *r & v;
    else if (in.has(Mod::Or))
      r = *r | v;
    else
      r = *r ^ v;
  }
  return r.value_or(0);
}

namespace {
std::uint64_t part_mask(unsigned bits) { return bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1; }
}  // namespace

std::uint64_t join_bits(const std::vector<std::uint64_t>& parts, int bytes) {
  const unsigned bits = unsigned(bytes) * 8u / unsigned(parts.size());
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < parts.size(); ++i) v |= (parts[i] & part_mask(bits)) << (bits * i);
  return v;
}

std::uint64_t split_bits(std::uint64_t v, int bytes, std::size_t count, std::size_t i) {
  const unsigned bits = unsigned(bytes) * 8u / unsigned(count);
  return v >> (bits * i) & part_mask(bits);
}

}  // namespace rl::own::ptx
