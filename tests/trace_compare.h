// Comparing a GPU trace with the CPU model's: shared by gpu_test and the golden files' test.
#pragma once
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "app/core/trace.h"
#include "kernels/algorithms.h"

namespace rl::test {

// Float and double sums combined by atomics depend on the order blocks arrive in: those results
// are compared within rounding, every other one bit for bit.
inline bool atomic_float_sum(const std::string& id, core::DType type, core::Op op) {
  const auto* row = kernels::find_row(id);
  const bool unordered = row && kernels::unordered(row->combine);
  return unordered && type != core::DType::Int && op == core::Op::Sum;
}

// Bit for bit, except that any NaN equals any NaN: the GPU writes its canonical NaN where
// the CPU writes x86's default one.
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (a != a && b != b); }

inline bool same_values(const std::optional<std::vector<double>>& a, const std::optional<std::vector<double>>& b,
                 std::string* where) {
  if (a.has_value() != b.has_value()) return *where = "presence differs", false;
  if (!a) return true;
  if (a->size() != b->size()) return *where = "sizes differ", false;
  for (std::size_t i = 0; i < a->size(); ++i)
    if (!same_bits((*a)[i], (*b)[i]))
      return *where = "[" + std::to_string(i) + "] gpu " + std::to_string((*a)[i]) + " model " + std::to_string((*b)[i]), false;
  return true;
}

// Float sums combined by atomics depend on the order blocks arrive in: within rounding.
inline void expect_identical(const core::Trace& gpu, const core::Trace& model, bool order_free_result, double tolerance) {
  EXPECT_EQ(gpu.backend, "cuda");
  EXPECT_EQ(gpu.grid, model.grid);
  ASSERT_EQ(gpu.stages.size(), model.stages.size());
  if (order_free_result || !std::isfinite(model.result))
    EXPECT_TRUE(same_bits(gpu.result, model.result)) << gpu.result << " vs " << model.result;
  else EXPECT_NEAR(gpu.result, model.result, tolerance);
  std::string at;  // NaN inputs are equal to themselves here
  EXPECT_TRUE(same_values(gpu.input, model.input, &at)) << "input " << at;
  EXPECT_EQ(gpu.combine, model.combine);
  if (gpu.geometry.known() && model.geometry.known()) {  // golden files from before it carry none
    EXPECT_TRUE(gpu.geometry == model.geometry) << "the recorded layouts differ";
  }
  // Every block's first-pass result: bit for bit, even where atomics combine them.
  EXPECT_TRUE(same_values(gpu.partials, model.partials, &at)) << "partials " << at;
  EXPECT_EQ(gpu.tickets, model.tickets);  // work-queue: the model replays the GPU's record
  EXPECT_EQ(gpu.rows, model.rows);
  EXPECT_EQ(gpu.cols, model.cols);
  EXPECT_TRUE(same_values(gpu.outputs, model.outputs, &at)) << "outputs " << at;
  EXPECT_TRUE(gpu.window == model.window) << "the matrix window differs";
  for (std::size_t k = 0; k < gpu.stages.size(); ++k) {
    const auto &g = gpu.stages[k], &m = model.stages[k];
    SCOPED_TRACE("stage " + std::to_string(k) + " (" + m.label + ")");
    EXPECT_EQ(g.label, m.label);
    EXPECT_EQ(g.line, m.line);
    EXPECT_EQ(g.file, m.file);
    EXPECT_EQ(g.tag, m.tag);
    EXPECT_EQ(g.param, m.param);  // what the GPU recorded: a stride, an offset, the bytes a copy brought
    EXPECT_EQ(g.active, m.active);
    EXPECT_EQ(g.accesses, m.accesses);
    EXPECT_EQ(g.loads, m.loads);
    EXPECT_EQ(g.bank_conflicts, m.bank_conflicts);
    EXPECT_EQ(g.divergent_warps, m.divergent_warps);
    std::string where;
    EXPECT_TRUE(same_values(g.shared, m.shared, &where)) << "shared " << where;
    EXPECT_TRUE(same_values(g.lanes, m.lanes, &where)) << "lanes " << where;
  }
}

}  // namespace rl::test
