// Compare mode's figures: what each of two traced algorithms did, counted from its trace, and
// their times from a benchmark report at the largest size that times both.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "bench.h"
#include "trace.h"

namespace rl::core {

struct TraceFigures {
  int stages = 0;                // stages the trace recorded
  std::size_t idle_lanes = 0;    // lanes of busy warps that idled, summed over the stages
  int worst_conflict = 0;        // the worst n-way bank conflict of any stage (0: no shared access)
  int conflict_sum = 0;          // the degrees of the stages that conflicted (2-way or worse), added
  std::size_t additions = 0;     // work_of's count; a lower bound when !additions_exact
  bool additions_exact = true;
};
TraceFigures figures_of(const Trace& trace);

// Two algorithms' median times from one report, at the same n, type and operator.
struct PairTime {
  std::size_t n = 0;
  std::string type, op;
  BenchRow first, second;
};
// The largest n at which the report times both; nullopt when it does not. Over matrix shapes, which
// a sweep times at one n, the shape whose lines are nearest `length` elements long (on a log scale;
// 0: any), then the largest n: the times that speak for the matrix on screen. Lines are rows
// (a row's length: cols), or with `columns` columns (a column's length: rows).
std::optional<PairTime> pair_time(const BenchReport& report, std::string_view first, std::string_view second,
                                  std::size_t length = 0, bool columns = false);

// "2^16" for a power of two, else the number.
std::string size_text(std::size_t n);
// A row's size: "2^8 x 2^20" for a matrix shape, else its n as size_text writes it.
std::string shape_text(const BenchRow& row);

}  // namespace rl::core
