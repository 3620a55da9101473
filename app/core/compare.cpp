#include "compare.h"

#include <algorithm>
#include <cmath>

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
                                  std::size_t cols) {
  const auto apart = [&](const BenchRow& r) {  // row lengths apart, as a power of two
    return r.rows && cols ? std::abs(std::log2(double(r.cols)) - std::log2(double(cols))) : 0.0;
  };
  std::optional<PairTime> best;
  for (const BenchRow& a : report.rows) {
    if (a.algorithm != first) continue;
    if (best && (apart(a) > apart(best->first) || (apart(a) == apart(best->first) && a.n <= best->n))) continue;
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
