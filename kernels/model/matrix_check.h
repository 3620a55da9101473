// Checks a matrix reduction's outputs against the exact row, column or whole-matrix results:
// used by the GPU benchmark and the CPU model's. Plain C++ (nvcc compiles it as C++17 too).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

#include "../matrix_shapes.h"
#include "../reduce_ops.h"
#include "pieces.h"

namespace rl::model {

struct MatrixCheck {
  std::size_t outputs = 0, wrong = 0;
  std::string first_wrong;  // "output 7: got 1.5, expected 2.5"
};

// A matrix's lines, exactly: each line's sum and sum of |x| in long double, and its result by
// the kernels' operator. Computed once, it checks every kernel of a shape.
template <class T>
struct MatrixExpected {
  std::size_t len = 0;  // elements a line
  std::vector<long double> exact, abs_sum;
  std::vector<T> ref;
  // Sums of zero, results of first_ref (the operator's identity where a line may stay empty).
  void resize(std::size_t lines, T first_ref = T{}) {
    exact.assign(lines, 0), abs_sum.assign(lines, 0), ref.assign(lines, first_ref);
  }
};

// Where a matrix's lines lie: element k of line l at in[l * line_step + k * elem_step].
struct LineWalk {
  std::size_t lines, len, line_step, elem_step;
};

inline LineWalk line_walk(kernels::Matrix m, kernels::Lines lines) {
  using kernels::Lines;
  if (lines == Lines::Rows) return {m.rows, m.cols, m.cols, 1};
  if (lines == Lines::Columns) return {m.cols, m.rows, 1, m.cols};
  return {1, m.size(), 0, 1};
}

// Adds x to one line's sums: exactly, of |x|, and by the kernels' operator.
template <class T, class Op>
void add_element(long double& exact, long double& abs_sum, T& ref, T x) {
  exact += (long double)x, abs_sum += std::fabs((long double)x), ref = Op{}(ref, x);
}

// Lines [l0, l1) over their elements [k0, k1) into e's cells l, walking memory in order: a line
// at a time where its elements are neighbours (its sums in registers), else an element of every
// line at a time (the sums in a buffer of the piece's own: other pieces write e's next cells).
template <class T, class Op>
void add_lines(const T* in, const LineWalk& w, std::size_t l0, std::size_t l1, std::size_t k0, std::size_t k1,
               MatrixExpected<T>& e) {
  if (w.elem_step == 1) {
    for (std::size_t l = l0; l < l1; ++l) {
      long double exact = 0, abs_sum = 0;
      T ref = Op::template identity<T>();
      for (std::size_t k = k0; k < k1; ++k) add_element<T, Op>(exact, abs_sum, ref, in[l * w.line_step + k]);
      e.exact[l] = exact, e.abs_sum[l] = abs_sum, e.ref[l] = ref;
    }
    return;
  }
  MatrixExpected<T> part;
  part.resize(l1 - l0, Op::template identity<T>());
  for (std::size_t k = k0; k < k1; ++k)
    for (std::size_t l = l0, c = 0; l < l1; ++l, ++c)
      add_element<T, Op>(part.exact[c], part.abs_sum[c], part.ref[c], in[l * w.line_step + k * w.elem_step]);
  std::copy(part.exact.begin(), part.exact.end(), e.exact.begin() + l0);
  std::copy(part.abs_sum.begin(), part.abs_sum.end(), e.abs_sum.begin() + l0);
  std::copy(part.ref.begin(), part.ref.end(), e.ref.begin() + l0);
}

// About 2^20 elements a piece: lines [a * line_piece, ...) over elements [b * elem_piece, ...).
// A line split over element pieces keeps each piece's sums apart and joins them in piece order.
template <class T, class Op>
MatrixExpected<T> matrix_expected(const T* in, kernels::Matrix m, kernels::Lines lines) {
  constexpr std::size_t kPiece = std::size_t(1) << 20, kNeighbourLines = 1024;
  const LineWalk w = line_walk(m, lines);
  MatrixExpected<T> e;
  e.len = w.len;
  e.resize(w.lines, Op::template identity<T>());
  if (w.lines == 0 || w.len == 0) return e;
  const std::size_t elem_piece = w.elem_step == 1
                                     ? std::min(w.len, kPiece)
                                     : std::max<std::size_t>(1, kPiece / std::min(w.lines, kNeighbourLines));
  const std::size_t line_piece =
      w.elem_step == 1 ? std::max<std::size_t>(1, kPiece / elem_piece) : std::min(w.lines, kNeighbourLines);
  const std::size_t line_pieces = piece_count(w.lines, line_piece), elem_pieces = piece_count(w.len, elem_piece);
  std::vector<MatrixExpected<T>> later(elem_pieces - 1);  // element pieces 1.. of every line
  for (auto& p : later) p.resize(w.lines, Op::template identity<T>());
  for_each_piece(line_pieces * elem_pieces, [&](std::size_t p) {
    const std::size_t a = p % line_pieces, b = p / line_pieces;
    const std::size_t l0 = a * line_piece, l1 = std::min(w.lines, l0 + line_piece);
    const std::size_t k0 = b * elem_piece, k1 = std::min(w.len, k0 + elem_piece);
    add_lines<T, Op>(in, w, l0, l1, k0, k1, b == 0 ? e : later[b - 1]);
  });
  for (const auto& p : later)
    for (std::size_t l = 0; l < w.lines; ++l)
      e.exact[l] += p.exact[l], e.abs_sum[l] += p.abs_sum[l], e.ref[l] = Op{}(e.ref[l], p.ref[l]);
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
