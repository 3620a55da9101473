// Helpers shared by the test suites: seeded random inputs (the seed is printed on failure
// through SCOPED_TRACE by the caller) and double-precision references.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "app/backend/runner.h"
#include "app/core/types.h"
#include "kernels/algorithms.h"
#include "kernels/model/model.h"

namespace rl::test {

// The types an algorithm takes: int alone where its row says so (redux-sync), else all three.
inline std::vector<core::DType> types_of(const std::string& id) {
  const auto* r = kernels::find_row(id);
  if (r && r->ints_only) return {core::DType::Int};
  if (r && !kernels::takes(*r, true, kernels::OpKind::Sum)) return {core::DType::Float, core::DType::Double};
  return {core::DType::Int, core::DType::Float, core::DType::Double};
}

// A float with 24 random significant bits at an exponent from 0 to 24, either sign: sums of
// such values round at almost every add, so the order of the adds shows in the result.
inline float order_revealing_float(std::mt19937_64& rng) {
  const double significand = 1.0 + double(rng() >> 40) * 0x1p-24;
  return float(std::ldexp(significand, int(rng() % 25))) * (rng() % 2 ? 1.0f : -1.0f);
}

// The operators an algorithm takes for a type: all three, or for floats and doubles sum alone
// where its row says so (bulk-async).
inline std::vector<core::Op> ops_of(const std::string& id, core::DType type) {
  const auto* r = kernels::find_row(id);
  if (r && !kernels::takes(*r, type == core::DType::Int, kernels::OpKind::Min)) return {core::Op::Sum};
  return {core::Op::Sum, core::Op::Min, core::Op::Max};
}

// The cluster sizes an algorithm's runs take: 2, 4 and 8 for a kernel of clusters, else none (0).
inline std::vector<int> clusters_of(const std::string& id) {
  const auto* r = kernels::find_row(id);
  if (r && r->tree == kernels::Tree::Cluster) return {2, 4, 8};
  return {0};
}

// The last block a trace may record in a grid: the first of the last cluster, for clusters
// (0: none, or the default size).
inline int last_traced(const std::string& id, std::size_t grid, int cluster) {
  const auto* r = kernels::find_row(id);
  const int c = r && r->tree == kernels::Tree::Cluster ? (cluster ? cluster : r->cluster) : 1;
  return grid > 0 ? int(grid) - c : 0;
}

// A seed per run, overridable with REDLAB_TEST_SEED so a failure can be replayed.
inline std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    if (const char* s = std::getenv("REDLAB_TEST_SEED")) return std::uint64_t(std::stoull(s));
    return std::uint64_t(std::random_device{}()) << 32 | std::random_device{}();
  }();
  return seed;
}

// scripts/test.sh's second round (AddressSanitizer and UBSan, REDLAB_SANITIZED=1): the heaviest
// loops take a sample there, some ten times slower; the first round ran them whole.
inline bool sanitized() { return std::getenv("REDLAB_SANITIZED") != nullptr; }

// Random values of the type: ints in [-1000, 1000], floats and doubles in [-100, 100)
// (exact in the type).
inline std::vector<double> random_values(std::size_t n, core::DType type, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  for (auto& x : v) {
    if (type == core::DType::Int) x = double(std::int64_t(rng() % 2001) - 1000);
    else if (type == core::DType::Float) x = double(float(double(rng() >> 11) * 0x1p-53 * 200.0 - 100.0));
    else if (core::is_narrow(type))
      x = core::round_to_type(double(rng() >> 11) * 0x1p-53 * 2.0 - 1.0, type);  // [-1, 1]: half's sums stay finite
    else x = double(rng() >> 11) * 0x1p-53 * 200.0 - 100.0;
  }
  return v;
}

// The exact-as-can-be result: sums compensated in long double (a plain double sum of 2^20
// doubles could itself be off by more than the tolerance we allow the GPU).
inline double reference(core::Op op, const std::vector<double>& v) {
  if (op != core::Op::Sum) {
    double acc = v.at(0);
    for (std::size_t i = 1; i < v.size(); ++i) acc = core::apply(op, acc, v[i]);
    return acc;
  }
  long double sum = 0, carry = 0;  // Neumaier
  for (double x : v) {
    const long double t = sum + x;
    carry += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  return double(sum + carry);
}

// How far a sum of the type may stray from the exact one: a tree of depth log2(n) adds at
// most ~log2(n) roundings of |x|; with n up to 2^20 these bounds leave margin.
inline double sum_tolerance(core::DType type, const std::vector<double>& v);

inline double abs_sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += std::fabs(x);
  return s;
}

// A sum in half or bfloat16 whose blocks' totals meet by atomics, in two orders: each of the grid's
// adds rounds by at most half a unit of a running sum no larger than sum|x| (unit 2^-10 for half,
// 2^-7 for bf16), so the two differ by at most grid x unit x sum|x|. (Partials compare bit for bit.)
inline double narrow_same_tolerance(core::DType type, const std::vector<double>& v, std::size_t grid);

inline double sum_tolerance(core::DType type, const std::vector<double>& v) {
  if (type == core::DType::Int) return 0;
  if (core::is_narrow(type)) return 2e-6 * abs_sum(v);  // added in float; sums in half or bf16 pass narrow_tolerance
  return (type == core::DType::Float ? 2e-6 : 1e-14) * abs_sum(v);
}

inline double narrow_same_tolerance(core::DType type, const std::vector<double>& v, std::size_t grid) {
  return double(grid) * (type == core::DType::Half ? 0x1p-10 : 0x1p-7) * abs_sum(v);
}

// Ints near 2^29 whose sum wraps around 32 bits many times, and that sum as 32-bit hardware
// gives it (two's complement).
inline std::vector<int> wrapping_ints(std::size_t n) {
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = (1 << 29) + int((std::uint32_t(i) * 2654435761u) >> 8);
  return v;
}

inline int wrapped_sum(const std::vector<int>& v) {
  std::uint32_t s = 0;
  for (int x : v) s += std::uint32_t(x);
  return int(s);
}

// For a matrix algorithm, a shape whose first output covers all of req.input: one row for
// the row kernels, one column for the others. Arrays are left as they are.
inline void one_output_shape(backend::TraceRequest& req) {
  if (!core::is_matrix_id(req.algorithm)) return;
  const auto* row = kernels::find_row(req.algorithm);
  const bool rows = row && kernels::lines_of(row->indexing) == kernels::Lines::Rows;
  req.rows = rows ? 1 : req.input.size();
  req.cols = rows ? req.input.size() : 1;
}

// What a matrix algorithm's outputs should be, in double precision: each row's or column's
// reduction of the row-major v, or (block-2d) the whole matrix's.
inline std::vector<double> matrix_reference(const std::string& id, core::Op op, const std::vector<double>& v,
                                            std::size_t rows, std::size_t cols) {
  const auto* row = kernels::find_row(id);  // the catalog says which lines the outputs are
  const kernels::Lines lines = row ? kernels::lines_of(row->indexing) : kernels::Lines::Whole;
  if (lines == kernels::Lines::Whole) return {reference(op, v)};
  const bool by_rows = lines == kernels::Lines::Rows;
  std::vector<double> out;
  for (std::size_t o = 0; o < (by_rows ? rows : cols); ++o) {
    std::vector<double> line;
    for (std::size_t k = 0; k < (by_rows ? cols : rows); ++k) line.push_back(by_rows ? v[o * cols + k] : v[k * cols + o]);
    out.push_back(reference(op, line));
  }
  return out;
}

// fn throws std::invalid_argument with `part` in its message.
template <class Fn>
void expect_refusal(Fn fn, const std::string& part) {
  try {
    fn();
    ADD_FAILURE() << "no exception, expected one mentioning " << part;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

// The CPU model's whole-array result, untraced (any n).
inline double model_result(const std::string& id, core::Op op, core::DType type, const std::vector<double>& v,
                           int block, std::size_t grid = 0) {
  const auto algo = backend::kernel_algo(id);
  const auto plan = model::model_plan(algo, {1, v.size()}, {block, grid, 0}, core::element_bytes(type), false);
  if (type == core::DType::Int) {
    const std::vector<int> in(v.begin(), v.end());
    return model::model_run<int>(plan, op, in.data(), nullptr)[0];
  }
  if (type == core::DType::Double) return model::model_run<double>(plan, op, v.data(), nullptr)[0];
  const std::vector<float> in(v.begin(), v.end());
  return model::model_run<float>(plan, op, in.data(), nullptr)[0];
}

}  // namespace rl::test
