#include "precision_ladder.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "../../kernels/narrow_float.h"
#include "float_error.h"

namespace rl::core {
namespace {

// A value rounded to the type, held in a double (exact for all four).
double round_to(double x, Narrow t) {
  switch (t) {
    case Narrow::Half: return kernels::round_half(x);
    case Narrow::Bf16: return kernels::round_bf16(x);
    case Narrow::Float: return static_cast<float>(x);
    case Narrow::Double: return x;
  }
  return x;
}

// The long double reference rounded to the type once: to double by round-to-odd first where the
// type is narrower than float (kernels::odd_float says why), else directly.
double round_reference(long double x, Narrow t) {
  if (t == Narrow::Double) return static_cast<double>(x);
  if (t == Narrow::Float) return static_cast<float>(x);
  double d = static_cast<double>(x);
  if (std::isfinite(d) && static_cast<long double>(d) != x && !(std::bit_cast<std::uint64_t>(d) & 1u))
    d = std::nextafter(d, x > d ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity());
  return round_to(d, t);
}

// Steps between two values of a narrow type: their bit patterns in sign-magnitude order.
std::uint64_t narrow_steps(double a, double b, Narrow t) {
  const auto bits = [t](double v) {
    return t == Narrow::Half ? kernels::half_bits(static_cast<float>(v)) : kernels::bf16_bits(static_cast<float>(v));
  };
  const std::uint16_t ua = bits(a), ub = bits(b);
  const std::uint64_t ma = ua & 0x7fffu, mb = ub & 0x7fffu;
  if (a == b) return 0;
  if ((ua & 0x8000u) != (ub & 0x8000u)) return ma + mb;
  return ma > mb ? ma - mb : mb - ma;
}

std::optional<std::uint64_t> steps(double result, long double reference, Narrow t) {
  const double rounded = round_reference(reference, t);
  if (!std::isfinite(result) || !std::isfinite(rounded)) return std::nullopt;
  switch (t) {
    case Narrow::Double: return ulp_distance(result, rounded);
    case Narrow::Float: return ulp_distance(static_cast<float>(result), static_cast<float>(rounded));
    default: return narrow_steps(result, rounded, t);
  }
}

// One addition in the accumulator's type: a half or bf16 sum is the float sum rounded to it,
// as the GPU's __hadd gives (kernels/narrow_float.h says why).
double add_in(double s, double x, Narrow t) {
  if (t == Narrow::Double) return s + x;
  const float f = static_cast<float>(s) + static_cast<float>(x);
  return round_to(f, t);
}

Rung climb(const std::vector<double>& values, Narrow element, Narrow accumulator) {
  std::vector<double> held(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) held[i] = round_to(values[i], element);
  double s = 0;
  std::optional<std::size_t> stalled_at;
  double stalled_sum = 0, stalled_addend = 0;
  for (std::size_t i = 0; i < held.size(); ++i) {
    const double next = add_in(s, held[i], accumulator);
    if (!stalled_at && held[i] != 0 && std::isfinite(held[i]) && std::isfinite(s) && next == s)
      stalled_at = i, stalled_sum = s, stalled_addend = held[i];
    s = next;
  }
  Rung r = rung_of(held, element, accumulator, s);
  r.stalled_at = stalled_at, r.stalled_sum = stalled_sum, r.stalled_addend = stalled_addend;
  return r;
}

}  // namespace

Rung rung_of(const std::vector<double>& held, Narrow element, Narrow accumulator, double result) {
  Rung r;
  r.element = element, r.accumulator = accumulator;
  r.reference = reference_sum(held);
  r.result = result;
  if (std::isfinite(r.reference)) r.ulps = steps(result, r.reference, accumulator);
  return r;
}

DType dtype_of(Narrow t) {
  switch (t) {
    case Narrow::Half: return DType::Half;
    case Narrow::Bf16: return DType::Bf16;
    case Narrow::Float: return DType::Float;
    case Narrow::Double: return DType::Double;
  }
  return DType::Double;
}

std::string narrow_name(Narrow t) {
  switch (t) {
    case Narrow::Half: return "half";
    case Narrow::Bf16: return "bf16";
    case Narrow::Float: return "float";
    case Narrow::Double: return "double";
  }
  return "?";
}

std::optional<double> correct_digits(const Rung& r) {
  if (!std::isfinite(r.result) || !std::isfinite(r.reference)) return std::nullopt;
  const long double off = std::fabs(static_cast<long double>(r.result) - r.reference);
  if (off == 0) return kExactDigits;
  if (r.reference == 0) return std::nullopt;
  return std::clamp(double(-std::log10(off / std::fabs(r.reference))), 0.0, kExactDigits);
}

std::vector<Rung> precision_ladder(const std::vector<double>& values) {
  return {climb(values, Narrow::Half, Narrow::Half),   climb(values, Narrow::Half, Narrow::Float),
          climb(values, Narrow::Bf16, Narrow::Bf16),   climb(values, Narrow::Bf16, Narrow::Float),
          climb(values, Narrow::Float, Narrow::Float), climb(values, Narrow::Double, Narrow::Double)};
}

}  // namespace rl::core
