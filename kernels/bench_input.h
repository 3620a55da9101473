// The benchmark's drawn input: value i of a seed's draw (the same on every machine), drawn in
// pieces on every core, and what the reduction of it must give. Plain C++ (nvcc compiles it too).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "bench_api.h"
#include "model/pieces.h"
#include "narrow_float.h"

namespace rl::kernels {

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A float's nearest half or bfloat16, as 16 bits.
inline std::uint16_t narrow_bits(DType t, float x) { return t == DType::Half ? half_bits(x) : bf16_bits(x); }
// The same rounded value, as a double.
inline double narrow_value(DType t, float x) {
  const std::uint16_t bits = narrow_bits(t, x);
  return t == DType::Half ? from_half_bits(bits) : from_bf16_bits(bits);
}

// Value i of the draw for `seed`: ints in [-1000, 1000]; floats and doubles in [0, 1) (all
// positive, so a lost chunk shows in the sum); halves and bfloat16 a float of [0, 1) rounded to
// the nearest, so in [0, 1] (the largest floats round up to 1).
inline double drawn_value(DType type, std::uint64_t seed, std::size_t i) {
  const std::uint64_t r = mix(seed * 0x100000001B3ull + i);
  const double unit = type == DType::Double ? double(r >> 11) * 0x1p-53 : double(r >> 40) * 0x1p-24;
  return type == DType::Int     ? double(int(r % 2001) - 1000)
         : type == DType::Float ? double(float(unit))
         : is_narrow(type)      ? narrow_value(type, float(unit))
                                : unit;
}

// The sums of a piece of the draw (compensated: the exact sum to check against), and of all of
// it once the pieces' are joined in piece order.
struct DrawnSums {
  DrawnSums() {}  // host only: an implicit constructor would be __host__ __device__, and long double is not
  long double sum = 0, carry = 0, abs_sum = 0;
  double lo = INFINITY, hi = -INFINITY;
  void add(long double x) {
    const long double t = sum + x;
    carry += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  void add_value(double x) { add(x), abs_sum += std::fabs(x), lo = std::min(lo, x), hi = std::max(hi, x); }
  void join(const DrawnSums& d) {
    add(d.sum);
    carry += d.carry, abs_sum += d.abs_sum, lo = std::min(lo, d.lo), hi = std::max(hi, d.hi);
  }
};

// Draws n values in pieces of 2^20 on every core, handing value i to store(i, x) (each i once,
// from any thread), and returns the op's exact result over them (int sums wrapped to 32 bits, as
// the GPU computes them) and their sum of magnitudes. The same result on any number of cores.
template <class Store>
BenchSession::InputFacts draw_input(DType type, OpKind op, std::size_t n, std::uint64_t seed, Store&& store) {
  const std::size_t per = std::size_t(1) << 20;
  std::vector<DrawnSums> pieces(model::piece_count(n, per));
  model::for_each_piece(pieces.size(), [&](std::size_t p) {
    DrawnSums d;  // here, not in `pieces`: neighbouring pieces' sums share cache lines
    for (std::size_t i = p * per; i < std::min(n, (p + 1) * per); ++i) {
      const double x = drawn_value(type, seed, i);
      store(i, x);
      d.add_value(x);
    }
    pieces[p] = d;
  });
  DrawnSums all;
  for (const DrawnSums& d : pieces) all.join(d);
  BenchSession::InputFacts f;
  f.abs_sum = double(all.abs_sum);
  if (op == OpKind::Min)
    f.expected = all.lo;
  else if (op == OpKind::Max)
    f.expected = all.hi;
  else if (type == DType::Int)
    f.expected = double(std::int32_t(std::uint32_t(std::int64_t(all.sum + all.carry))));
  else
    f.expected = double(all.sum + all.carry);
  return f;
}

}  // namespace rl::kernels
