#include "precision_ladder.h"

#include <algorithm>
#include <cmath>

#include "../../kernels/narrow_float.h"
#include "float_error.h"

namespace rl::core {
namespace {

// A value rounded to the type, held in a double (exact for all four).
double round_to(double x, Narrow t) {
  switch (t) {
    case Narrow::Half: return kernels::round_half(static_cast<float>(x));
    case Narrow::Bf16: return kernels::round_bf16(static_cast<float>(x));
    case Narrow::Float: return static_cast<float>(x);
    case Narrow::Double: return x;
  }
  return x;
}

// One addition in the accumulator's type: a half or bf16 sum is the float sum rounded to it,
// as the GPU's __hadd gives (kernels/narrow_float.h says why).
double add_in(double s, double x, Narrow t) {
  if (t == Narrow::Double) return s + x;
  const float f = static_cast<float>(s) + static_cast<float>(x);
  return round_to(f, t);
}

Rung climb(const std::vector<double>& values, Narrow element, Narrow accumulator) {
  Rung r;
  r.element = element, r.accumulator = accumulator;
  std::vector<double> held(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) held[i] = round_to(values[i], element);
  r.reference = reference_sum(held);
  double s = 0;
  for (std::size_t i = 0; i < held.size(); ++i) {
    const double next = add_in(s, held[i], accumulator);
    if (!r.stalled_at && held[i] != 0 && std::isfinite(held[i]) && std::isfinite(s) && next == s)
      r.stalled_at = i, r.stalled_sum = s, r.stalled_addend = held[i];
    s = next;
  }
  r.result = s;
  if (std::isfinite(s) && std::isfinite(r.reference))
    r.ulps = double(std::fabs(static_cast<long double>(s) - r.reference) / ulp_at(r.reference, accumulator));
  return r;
}

}  // namespace

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

double ulp_at(long double x, Narrow t) {
  const int fraction = t == Narrow::Half ? 10 : t == Narrow::Bf16 ? 7 : t == Narrow::Float ? 23 : 52;
  const int min_exp = t == Narrow::Half ? -14 : t == Narrow::Double ? -1022 : -126;  // the smallest normal's
  int e = 0;
  std::frexp(static_cast<double>(std::fabs(x)), &e);  // |x| = m 2^e, m in [0.5, 1)
  const int exponent = x == 0 ? min_exp : std::max(e - 1, min_exp);
  return std::ldexp(1.0, exponent - fraction);
}

std::vector<Rung> precision_ladder(const std::vector<double>& values) {
  return {climb(values, Narrow::Half, Narrow::Half),   climb(values, Narrow::Half, Narrow::Float),
          climb(values, Narrow::Bf16, Narrow::Bf16),   climb(values, Narrow::Bf16, Narrow::Float),
          climb(values, Narrow::Float, Narrow::Float), climb(values, Narrow::Double, Narrow::Double)};
}

}  // namespace rl::core
