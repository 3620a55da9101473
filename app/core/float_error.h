// How far a floating-point sum lies from the exact one. Every algorithm adds in its own order,
// and float addition is not associative, so each order rounds differently.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "types.h"

namespace rl::core {

// How many representable values lie between a and b, stepping from one to the next (adjacent
// values: 1; equal values, +0 and -0 included: 0). nullopt when either is NaN, or when they
// differ and one is infinite: no count of steps means anything there.
std::optional<std::uint64_t> ulp_distance(float a, float b);
std::optional<std::uint64_t> ulp_distance(double a, double b);

// The exact sum of the values, rounded to long double (64 significant bits, within one of its
// ulps): Shewchuk's non-overlapping partials, each add exact, added smallest first at the end. Non-finite input gives
// the plain sum (inf, -inf or NaN, as IEEE addition does).
long double reference_sum(const std::vector<double>& values);

// One sum's distance from the reference.
struct SumError {
  double value = 0;            // the sum, as the type holds it
  long double absolute = 0;    // |value - reference|
  long double relative = 0;    // absolute / |reference|; inf when the reference is 0 and value is not
  std::optional<std::uint64_t> ulps;  // from the reference rounded to the type
};

struct FloatReport {
  DType type = DType::Float;
  long double reference = 0;
  double reference_rounded = 0;  // the reference rounded to the type
  SumError result;               // the run's
  SumError serial;               // the same values added left to right in the type
};

// The values left to right in the type (float, double, half or bf16: each add rounded to it); for
// contrast with a tree's order.
double serial_sum(const std::vector<double>& values, DType type);
SumError sum_error(double value, long double reference, DType type);
// nullopt for int: integer sums are exact (addition of integers is associative), barring
// overflow. `type` is the accumulator's: float for halves added in float (core::accumulator_type).
std::optional<FloatReport> float_report(const std::vector<double>& values, double result, DType type);

}  // namespace rl::core
