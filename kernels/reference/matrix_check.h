// Checks a matrix reduction's outputs against the exact row, column or whole-matrix results:
// used by the GPU benchmark and the CPU model's. Plain C++ (nvcc compiles it as C++17 too).
#pragma once
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>

#include "../reduce_api.h"
#include "../reduce_ops.h"

namespace rl::model {

struct MatrixCheck {
  std::size_t outputs = 0, wrong = 0;
  std::string first_wrong;  // "output 7: got 1.5, expected 2.5"
};

// Exact for ints (wrapping alike: the reference uses the kernels' operator), min and max; for
// float sums within u * depth * sum|x| (Higham 4.2), depth the longest chain of roundings: the
// whole line for a serial walk, else at most line/32 + 64.
template <class T, class Op>
MatrixCheck check_matrix_outputs(const T* got, const T* in, kernels::Matrix m, kernels::Lines lines, bool walk) {
  using kernels::Lines;
  MatrixCheck c;
  c.outputs = kernels::line_count(lines, m);
  const std::size_t len = lines == Lines::Rows ? m.cols : lines == Lines::Columns ? m.rows : m.size();
  const std::size_t step = lines == Lines::Columns ? m.cols : 1;
  const long double u = std::is_same_v<T, float> ? 0x1p-24L : 0x1p-53L;
  const long double depth = walk ? (long double)len : (long double)(len / 32 + 64);
  constexpr bool rounded = std::is_same_v<Op, ops::Sum> && !std::is_same_v<T, int>;
  for (std::size_t o = 0; o < c.outputs; ++o) {
    const T* first = in + (lines == Lines::Rows ? o * m.cols : lines == Lines::Columns ? o : 0);
    long double exact = 0, abs_sum = 0;
    T ref = Op::template identity<T>();
    for (std::size_t k = 0; k < len; ++k) {
      const T x = first[k * step];
      exact += (long double)x, abs_sum += std::fabs((long double)x), ref = Op{}(ref, x);
    }
    const bool ok = rounded ? std::fabs((long double)got[o] - exact) <= u * depth * abs_sum : got[o] == ref;
    if (!ok && c.wrong++ == 0)
      c.first_wrong = "output " + std::to_string(o) + ": got " + std::to_string(double(got[o])) + ", expected " +
                      std::to_string(rounded ? double(exact) : double(ref));
  }
  return c;
}

}  // namespace rl::model
