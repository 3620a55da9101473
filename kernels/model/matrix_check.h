// Checks a matrix reduction's outputs against the exact row, column or whole-matrix results:
// used by the GPU benchmark and the CPU model's. Plain C++ (nvcc compiles it as C++17 too).
#pragma once
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "../matrix_shapes.h"
#include "../reduce_ops.h"

namespace rl::model {

struct MatrixCheck {
  std::size_t outputs = 0, wrong = 0;
  std::string first_wrong;  // "output 7: got 1.5, expected 2.5"
};

// A matrix's lines, exactly: each line's sum and sum of |x| in long double, and its result by
// the kernels' operator in line order. Computed once, it checks every kernel of a shape.
template <class T>
struct MatrixExpected {
  std::size_t len = 0;  // elements a line
  std::vector<long double> exact, abs_sum;
  std::vector<T> ref;
};

template <class T, class Op>
MatrixExpected<T> matrix_expected(const T* in, kernels::Matrix m, kernels::Lines lines) {
  using kernels::Lines;
  MatrixExpected<T> e;
  const std::size_t outputs = kernels::line_count(lines, m);
  e.len = lines == Lines::Rows ? m.cols : lines == Lines::Columns ? m.rows : m.size();
  const std::size_t step = lines == Lines::Columns ? m.cols : 1;
  e.exact.resize(outputs), e.abs_sum.resize(outputs), e.ref.resize(outputs);
  for (std::size_t o = 0; o < outputs; ++o) {  // a line at a time: its sums stay in registers
    const T* first = in + (lines == Lines::Rows ? o * m.cols : lines == Lines::Columns ? o : 0);
    long double exact = 0, abs_sum = 0;
    T ref = Op::template identity<T>();
    for (std::size_t k = 0; k < e.len; ++k) {
      const T x = first[k * step];
      exact += (long double)x, abs_sum += std::fabs((long double)x), ref = Op{}(ref, x);
    }
    e.exact[o] = exact, e.abs_sum[o] = abs_sum, e.ref[o] = ref;
  }
  return e;
}

// Exact for ints (wrapping alike: the reference uses the kernels' operator), min and max; for
// float sums within u * depth * sum|x| (Higham 4.2), depth the longest chain of roundings: the
// whole line for a serial walk, else at most line/32 + 64.
template <class T, class Op>
MatrixCheck check_matrix_outputs(const T* got, const MatrixExpected<T>& e, bool walk) {
  MatrixCheck c;
  c.outputs = e.ref.size();
  const long double u = std::is_same_v<T, float> ? 0x1p-24L : 0x1p-53L;
  const long double depth = walk ? (long double)e.len : (long double)(e.len / 32 + 64);
  constexpr bool rounded = std::is_same_v<Op, ops::Sum> && !std::is_same_v<T, int>;
  for (std::size_t o = 0; o < c.outputs; ++o) {
    const bool ok = rounded ? std::fabs((long double)got[o] - e.exact[o]) <= u * depth * e.abs_sum[o] : got[o] == e.ref[o];
    if (!ok && c.wrong++ == 0)
      c.first_wrong = "output " + std::to_string(o) + ": got " + std::to_string(double(got[o])) + ", expected " +
                      std::to_string(rounded ? double(e.exact[o]) : double(e.ref[o]));
  }
  return c;
}

template <class T, class Op>
MatrixCheck check_matrix_outputs(const T* got, const T* in, kernels::Matrix m, kernels::Lines lines, bool walk) {
  return check_matrix_outputs<T, Op>(got, matrix_expected<T, Op>(in, m, lines), walk);
}

}  // namespace rl::model
