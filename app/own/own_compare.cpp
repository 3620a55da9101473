#include "own_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "../core/text.h"
#include "own_trace.h"

namespace rl::own {
namespace {

std::uint64_t bits(double v) {
  std::uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The first index where a and b differ bit for bit (a missing array differs from a present one
// at cell 0), or nullopt.
std::optional<std::size_t> first_cell(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (bits(a[i]) != bits(b[i])) return i;
  if (a.size() != b.size()) return n;
  return std::nullopt;
}

std::string value_or_none(const std::vector<double>& v, std::size_t i, core::DType type) {
  return i < v.size() ? core::format_value(v[i], type) : "nothing";
}

Agreement differs(int stage, long cell, std::string text) { return {true, false, std::move(text), stage, cell}; }

std::string both(const Sides& s) { return std::string(s.first) + " and " + s.second + " differ "; }

// Where two recorded arrays of one stage differ, in words: "shared[17] is 12.5 on the GPU and 13
// on the CPU".
std::optional<Agreement> array_difference(int k, const char* what, const std::optional<std::vector<double>>& g,
                                          const std::optional<std::vector<double>>& c, core::DType type,
                                          const std::string& where, const Sides& s) {
  const std::vector<double> none, &a = g ? *g : none, &b = c ? *c : none;
  const auto i = first_cell(a, b);
  if (!i) return std::nullopt;
  return differs(k, long(*i),
                 both(s) + where + ": " + what + "[" + std::to_string(*i) + "] is " + value_or_none(a, *i, type) + " " +
                     s.on_first + " and " + value_or_none(b, *i, type) + " " + s.on_second);
}

std::optional<Agreement> stage_difference(int k, const core::Stage& g, const core::Stage& c, core::DType type,
                                          const Sides& s) {
  const std::string where = "from stage " + std::to_string(k + 1) + " (" + core::printable(g.label) + ")";
  if (g.label != c.label || g.line != c.line || g.tag != c.tag || g.param != c.param)
    return differs(k, -1,
                   both(s) + where + ": " + s.second_whose + " stage " + std::to_string(k + 1) + " is " +
                       core::printable(c.label) + " at line " + std::to_string(c.line));
  if (auto d = array_difference(k, "shared", g.shared, c.shared, type, where, s)) return d;
  if (auto d = array_difference(k, "lane", g.lanes, c.lanes, type, where, s)) return d;
  // Which threads called rl_lanes; a barrier's stage records its workers on the CPU path alone.
  if (g.tag == kernels::kTagLanes && g.active != c.active)
    return differs(k, -1, both(s) + where + ": other threads called rl_lanes");
  return std::nullopt;
}

std::size_t cells(const std::vector<core::Stage>& stages) {
  std::size_t n = 0;
  for (const auto& s : stages) n += (s.shared ? s.shared->size() : 0) + (s.lanes ? s.lanes->size() : 0);
  return n;
}

}  // namespace

Agreement agreement(const core::Trace& g, const core::Trace& c, const Sides& s) {
  const auto stopped = [](const core::Trace& t) { return std::isnan(t.result) && !t.findings.empty(); };
  if (stopped(g) || stopped(c))
    return {false, false, "Not compared: a run stopped on a finding (listed), so the two did not both finish", -1, -1};
  const std::size_t common = std::min(g.stages.size(), c.stages.size());
  for (std::size_t k = 0; k < common; ++k)
    if (auto d = stage_difference(int(k), g.stages[k], c.stages[k], g.type, s)) return *d;
  if (g.stages.size() != c.stages.size())
    return differs(int(common), -1,
                   both(s) + "after stage " + std::to_string(common) + ": " + s.first_the + " recorded " +
                       std::to_string(g.stages.size()) + " stages, " + s.second_the + " " +
                       std::to_string(c.stages.size()));
  if (const auto i = first_cell(g.partials, c.partials))
    return differs(-1, long(*i),
                   both(s) + "in the first pass's results: block " + std::to_string(*i) + " left " +
                       value_or_none(g.partials, *i, g.type) + " " + s.on_first + " and " +
                       value_or_none(c.partials, *i, g.type) + " " + s.on_second);
  if (bits(g.result) != bits(c.result))
    return differs(-1, -1,
                   both(s) + "in the value: " + core::format_value(g.result, g.type) + " " + s.on_first + ", " +
                       core::format_value(c.result, g.type) + " " + s.on_second);
  return {true, true,
          std::string(s.equal) + ", bit for bit: " + core::counted(g.stages.size(), "stage") + ", " +
              core::counted(cells(g.stages), "recorded cell") + ", " +
              core::counted(g.partials.size(), "block result") + " and the value",
          -1, -1};
}

Compared compare_on_cpu(const OwnRequest& r, core::Op op, const core::Trace& gpu) {
  Compared out;
  const std::size_t n = r.input.size() / value_bytes(r.value_type);
  if (n > kMaxCompared) {
    out.agreement.text = "Not compared: the CPU path interprets up to " + std::to_string(kMaxCompared) +
                         " elements beside a GPU run, and this one has " + std::to_string(n);
    return out;
  }
  try {
    const core::Trace cpu = trace_own(r, false, op, 0);
    out.agreement = agreement(gpu, cpu);
    for (const auto& f : cpu.findings)  // what the GPU cannot see (a race, an uninitialised read)
      if (f.kind != "wrong-result") out.trace.findings.push_back({f.kind, "on the CPU path: " + f.text, f.line});
  } catch (const std::exception& e) {  // an opcode the interpreter refuses, in words
    out.agreement.text = "Not compared: the CPU path cannot run it: " + core::printable(e.what());
  }
  return out;
}

std::optional<core::Finding> schedule_finding(const OwnRequest& r, core::Op op, const core::Trace& in_turn,
                                              std::uint64_t seed) {
  const bool raced = std::any_of(in_turn.findings.begin(), in_turn.findings.end(),
                                 [](const core::Finding& f) { return f.kind == "race"; });
  if (std::isnan(in_turn.result) || (!raced && r.input.size() / value_bytes(r.value_type) > kScheduleChecked))
    return std::nullopt;
  OwnRequest again = r;
  again.schedule = seed;
  const core::Trace other = own_trace(again, run_on_cpu(again), op);
  static constexpr Sides kSchedules{
      "Warps in turn", "warps interleaved at random", "with warps in turn", "interleaved", "warps in turn",
      "interleaved",   "the interleaved run's",       "both schedules"};
  const Agreement a = agreement(in_turn, other, kSchedules);
  if (!a.compared || a.equal) return std::nullopt;
  const int line = a.stage >= 0 && std::size_t(a.stage) < in_turn.stages.size() ? in_turn.stages[a.stage].line : 0;
  return core::Finding{"schedule",
                       a.text + " (the CPU path ran the warps in turn, then interleaved at random with seed " +
                           std::to_string(seed) + ": what a thread reads depends on the order warps run in)",
                       line};
}

void add_findings(core::Trace& t, const std::vector<core::Finding>& more) {
  for (const auto& f : more)
    if (t.findings.size() < core::kMaxFindings) t.findings.push_back(f);
}

Compared trace_on_both(const OwnRequest& r, core::Op op, std::uint64_t check_seed) {
  Compared out{trace_own(r, true, op, check_seed), {}};
  Compared cpu = compare_on_cpu(r, op, out.trace);
  add_findings(out.trace, cpu.trace.findings);
  out.agreement = std::move(cpu.agreement);
  return out;
}

}  // namespace rl::own
