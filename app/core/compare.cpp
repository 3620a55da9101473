#include "compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "facts.h"
#include "work.h"

namespace rl::core {

TraceFigures figures_of(const Trace& t) {
  TraceFigures f;
  f.stages = int(t.stages.size());
  // global-halving's threads span the array, not one block (as in stage_caption).
  const int threads = t.memory == Memory::Global ? int(t.size) : t.block;
  for (const Stage& s : t.stages) {
    f.idle_lanes += std::size_t(idle_lanes(s, threads));
    const int degree = s.bank_conflicts.value_or(0);
    f.worst_conflict = std::max(f.worst_conflict, degree);
    if (degree > 1) f.conflict_sum += degree;
  }
  const Work w = work_of(t);
  f.additions = w.additions;
  f.additions_exact = w.exact;
  return f;
}

std::optional<PairTime> pair_time(const BenchReport& report, std::string_view first, std::string_view second,
                                  std::size_t length, bool columns) {
  const auto apart = [&](const BenchRow& r) {  // line lengths apart, as a power of two
    if (length == 0) return 0.0;
    const std::size_t line = columns ? r.rows : r.cols;
    return r.rows && line ? std::abs(std::log2(double(line)) - std::log2(double(length)))
                          : std::numeric_limits<double>::infinity();  // an array's row, beside a matrix
  };
  constexpr double kSame = 1e-9;  // log2 of equal ratios can differ in the last bit
  std::optional<PairTime> best;
  for (const BenchRow& a : report.rows) {
    if (a.algorithm != first) continue;
    if (best) {
      const double d = apart(a), was = apart(best->first);
      if (d > was + kSame || (d >= was - kSame && a.n <= best->n)) continue;
    }
    for (const BenchRow& b : report.rows)
      if (b.algorithm == second && b.n == a.n && b.rows == a.rows && b.cols == a.cols && b.type == a.type && b.op == a.op)
        best = PairTime{a.n, a.type, a.op, a, b};
  }
  return best;
}

std::string shape_text(const BenchRow& row) {
  return row.rows ? size_text(row.rows) + " x " + size_text(row.cols) : size_text(row.n);
}

std::string size_text(std::size_t n) {
  if (n == 0 || (n & (n - 1)) != 0) return std::to_string(n);
  int k = 0;
  while ((std::size_t(1) << k) < n) ++k;
  return "2^" + std::to_string(k);
}

}  // namespace rl::core
