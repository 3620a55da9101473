#include "float_error.h"

#include "../../kernels/narrow_float.h"
#include "../../kernels/reduce_ops.h"

#include <bit>
#include <cmath>
#include <limits>

namespace rl::core {
namespace {

// Unsigned bits; U is uint32_t for float, uint64_t for double.
template <class U, class F>
std::optional<std::uint64_t> ulps_of(F a, F b) {
  if (std::isnan(a) || std::isnan(b)) return std::nullopt;
  if (a == b) return 0;  // +0 == -0, inf == inf
  if (std::isinf(a) || std::isinf(b)) return std::nullopt;
  // Finite values in bit order: the magnitude's bits count the steps up from zero.
  constexpr U sign = U(1) << (sizeof(U) * 8 - 1);
  const U ua = std::bit_cast<U>(a), ub = std::bit_cast<U>(b);
  const std::uint64_t ma = ua & ~sign, mb = ub & ~sign;
  if ((ua & sign) != (ub & sign)) return ma + mb;  // across zero; each is below 2^63
  return ma > mb ? ma - mb : mb - ma;
}

// x rounded to F; beyond F's range that is an infinity (a plain cast would be undefined there).
template <class F>
F round_to(long double x) {
  constexpr long double max = std::numeric_limits<F>::max();
  const long double limit = max + (max - std::nextafter(F(max), F(0))) / 2;  // halfway to 2^emax: ties go up
  constexpr F inf = std::numeric_limits<F>::infinity();
  if (std::fabs(x) >= limit) return x > 0 ? inf : -inf;
  return static_cast<F>(x);
}

// Steps between two halves or bfloat16 (each given exactly as a double), counted on their 16 bits
// as ulps_of counts a float's 32.
std::optional<std::uint64_t> narrow_ulps(double a, double b, DType type) {
  if (std::isnan(a) || std::isnan(b)) return std::nullopt;
  if (a == b) return 0;
  if (std::isinf(a) || std::isinf(b)) return std::nullopt;
  const auto bits = [type](double x) {
    return type == DType::Half ? kernels::half_bits(float(x)) : kernels::bf16_bits(float(x));
  };
  const std::uint64_t ua = bits(a), ub = bits(b), ma = ua & 0x7fffu, mb = ub & 0x7fffu;
  if ((ua & 0x8000u) != (ub & 0x8000u)) return ma + mb;
  return ma > mb ? ma - mb : mb - ma;
}

}  // namespace

std::optional<std::uint64_t> ulp_distance(float a, float b) { return ulps_of<std::uint32_t>(a, b); }
std::optional<std::uint64_t> ulp_distance(double a, double b) { return ulps_of<std::uint64_t>(a, b); }

long double reference_sum(const std::vector<double>& values) {
  // Shewchuk's non-overlapping partials (Python's math.fsum): after each value the partials sum
  // exactly to the values so far. A compensated sum is not exact: for 2^300, 2^70, 1, -2^70,
  // -2^300 Neumaier's gave 0 (issue 48, item 12).
  std::vector<long double> partials;
  long double plain = 0;  // for non-finite values, whose IEEE sum is the answer
  for (const double v : values) {
    plain += v;
    long double x = v;
    std::size_t kept = 0;
    for (long double y : partials) {
      if (std::fabs(x) < std::fabs(y)) std::swap(x, y);
      const long double hi = x + y, lo = y - (hi - x);  // hi + lo == x + y exactly
      if (lo != 0) partials[kept++] = lo;
      x = hi;
    }
    partials.resize(kept);
    partials.push_back(x);
  }
  if (!std::isfinite(plain)) return plain;
  long double sum = 0;  // smallest first: non-overlapping, so the roundings come at the top
  for (const long double p : partials) sum += p;
  return sum;
}

double serial_sum(const std::vector<double>& values, DType type) {
  if (is_narrow(type)) {  // each add rounded to the type, as __hadd rounds (the double sum is exact)
    double sum = 0;
    for (const double v : values) sum = round_to_type(sum + round_to_type(v, type), type);
    return sum;
  }
  if (type == DType::Float) {
    float sum = 0;
    for (const double v : values) sum += static_cast<float>(v);
    return sum;
  }
  double sum = 0;
  for (const double v : values) sum += v;
  return sum;
}

SumError sum_error(double value, long double reference, DType type) {
  SumError e;
  e.value = value;
  e.absolute = std::fabs(static_cast<long double>(value) - reference);
  if (reference != 0) e.relative = e.absolute / std::fabs(reference);
  else e.relative = e.absolute == 0 ? 0 : std::numeric_limits<long double>::infinity();
  if (is_narrow(type))  // through double: 53 bits round to 11 or 8 as once (Figueroa)
    e.ulps = narrow_ulps(value, round_to_type(double(round_to<double>(reference)), type), type);
  else
    e.ulps = type == DType::Float ? ulp_distance(static_cast<float>(value), round_to<float>(reference))
                                  : ulp_distance(value, round_to<double>(reference));
  return e;
}

std::optional<FloatReport> float_report(const std::vector<double>& values, double result, DType type) {
  if (type == DType::Int) return std::nullopt;
  FloatReport r;
  r.type = type;
  r.reference = reference_sum(values);
  r.reference_rounded = type == DType::Float ? round_to<float>(r.reference)
                        : is_narrow(type)    ? round_to_type(round_to<double>(r.reference), type)
                                             : round_to<double>(r.reference);
  r.result = sum_error(result, r.reference, type);
  r.serial = sum_error(serial_sum(values, type), r.reference, type);
  return r;
}

}  // namespace rl::core
