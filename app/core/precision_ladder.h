// The precision ladder (the Float tab): one input added left to right on the CPU in half,
// bfloat16, float and double, the narrow types adding in their own type or in float, each sum
// against the exact sum of the values as its element type holds them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "types.h"

namespace rl::core {

enum class Narrow { Half, Bf16, Float, Double };
std::string narrow_name(Narrow t);  // "half", "bf16", "float", "double"
DType dtype_of(Narrow t);

struct Rung {
  Narrow element = Narrow::Float, accumulator = Narrow::Float;
  double result = 0;          // the sum as the accumulator holds it
  long double reference = 0;  // the exact sum of the values rounded to the element type
  // Steps between the result and the reference rounded to the accumulator's type, as the Float
  // tab counts a run's (core::ulp_distance); nullopt where either is not finite (a half sum past
  // 65504 is infinite).
  std::optional<std::uint64_t> ulps;
  // The first nonzero addend that left a finite running sum unchanged (2048 + 1 = 2048 in half), and
  // the sum it met there.
  std::optional<std::size_t> stalled_at;
  double stalled_sum = 0, stalled_addend = 0;
};

// The rungs, narrowest first: half in half, half in float, bf16 in bf16, bf16 in float, float,
// double. NaN in the input makes every sum NaN, as IEEE addition does.
std::vector<Rung> precision_ladder(const std::vector<double>& values);

// The rung of a sum computed elsewhere (a run of an algorithm, on the GPU or in the CPU model):
// `held` the values as the element type holds them, `result` the run's sum in the accumulator.
// No stall: a run's adds are not seen one by one.
Rung rung_of(const std::vector<double>& held, Narrow element, Narrow accumulator, double result);

// How many decimal digits of a rung's sum are right: -log10 of its relative error, at most
// kExactDigits (an exact sum); nullopt where the sum or the reference is not finite, or the
// reference is 0 and the sum is not.
constexpr double kExactDigits = 17;
std::optional<double> correct_digits(const Rung& r);

}  // namespace rl::core
