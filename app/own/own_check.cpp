#include "own_check.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <span>
#include <stdexcept>
#include <string>

#include "../core/compare.h"
#include "../core/facts.h"
#include "../core/input.h"
#include "../core/text.h"
#include "own_compare.h"
#include "own_trace.h"

namespace rl::own {
namespace {

// What went wrong at one size, or nullopt.
std::optional<std::string> fault_at(const OwnRequest& r, bool gpu, core::Op op) {
  OwnRun run;
  try {
    run = gpu ? run_on_gpu(r) : run_on_cpu(r);
  } catch (const std::invalid_argument& e) {  // a size the file's launch lines cannot make
    return std::string(e.what());
  }
  if (!run.findings.empty()) return run.findings[0].kind + ": " + core::printable(run.findings[0].text);
  if (run.result.empty()) return std::string("no value was left");
  if (auto wrong = check_value(r, run, op)) return wrong->text;
  return std::nullopt;
}

}  // namespace

// The float bound is (n - 1) u / (1 - (n - 1) u) times the sum of the magnitudes (Higham,
// Accuracy and Stability of Numerical Algorithms, eq. 4.4).
std::optional<core::Finding> check_value(const OwnRequest& r, const OwnRun& run, core::Op op) {
  if (run.result.empty()) return std::nullopt;
  const std::vector<double> in = values_of(r.input, r.value_type);
  const double got = value_at(run.result.data(), r.value_type);
  long double sum = 0, magnitude = 0;
  double lo = in[0], hi = in[0];
  for (double v : in) sum += v, magnitude += std::fabs(v), lo = std::min(lo, v), hi = std::max(hi, v);
  const bool ints = r.value_type == "int";
  double want = op == core::Op::Min ? lo : op == core::Op::Max ? hi : double(sum);
  if (ints && op == core::Op::Sum) want = core::wrap_int32(sum);
  double bound = 0;
  if (!ints && op == core::Op::Sum) {
    const double u = core::unit_roundoff(own_dtype(r.value_type)), k = double(in.size() - 1) * u;
    bound = k < 1 ? k / (1 - k) * double(magnitude) : HUGE_VAL;
  }
  if (std::fabs(got - want) <= bound || (std::isnan(got) && std::isnan(want))) return std::nullopt;
  const std::string n = std::to_string(in.size()), what = core::to_string(op);
  std::string text = "the kernel left " + core::format_value(got, core::DType::Double) + "; the " + what + " of the " +
                     n + " inputs is " + core::format_value(want, core::DType::Double);
  text += bound > 0 ? ", and any order of " + r.value_type + " adds stays within " +
                          core::format_value(bound, core::DType::Double) + " of it"
                    : (ints && op == core::Op::Sum ? " (ints add exactly, wrapping at 2^32)" : "");
  return core::Finding{"wrong-result", text + " (n = " + n + ", block " + std::to_string(run.block) + ")", 0};
}

std::uint64_t fresh_seed() { return std::random_device{}() % 999999 + 1; }

std::vector<std::size_t> check_sizes(int block, bool gpu) {
  std::vector<std::size_t> sizes{1, std::size_t(block) + 1, kCheckedOdd};
  if (gpu) sizes.push_back(kCheckedLarge);
  return sizes;
}

namespace {

// "2^16 + 3": n (> 0) as its largest power of two (core::size_text) and what is left.
std::string power_text(std::size_t n) {
  const std::size_t p = std::bit_floor(n);
  return core::size_text(p) + (n > p ? " + " + std::to_string(n - p) : "");
}

}  // namespace

std::string own_lesson(std::string text) {
  const std::pair<std::string_view, std::string> fills[] = {{"{own_compared}", power_text(kMaxCompared)},
                                                            {"{own_checked_odd}", power_text(kCheckedOdd)},
                                                            {"{own_checked_large}", power_text(kCheckedLarge)}};
  for (const auto& [key, value] : fills) core::fill_placeholder(text, key, value);
  return text;
}

std::vector<core::Finding> check_other_sizes(const OwnRequest& r, bool gpu, core::Op op, std::uint64_t seed) {
  const std::size_t traced = r.input.size() / value_bytes(r.value_type);
  const core::DType type = *core::parse_dtype(r.value_type);
  const int block = r.block ? r.block : parse_launch(r.source, r.file).block;
  std::vector<core::Finding> out;
  for (std::size_t n : check_sizes(block, gpu)) {
    if (n == traced) continue;
    // Ints in two draws: a kernel that drops one element still sums right when that element is 0
    // (ints are drawn from [-99, 99]: one draw in 199); a float is 0 about once in 2^24.
    const std::uint64_t seeds[] = {seed, seed % 999999 + 1};
    for (const std::uint64_t s : std::span(seeds, type == core::DType::Int ? 2 : 1)) {
      const core::InputSpec spec{core::InputSpec::Kind::Random, s, "", false};
      OwnRequest at = r;
      at.input = bytes_of(core::generate_input(spec, n, type), r.value_type);
      at.trace_block = 0;
      const auto fault = fault_at(at, gpu, op);
      if (!fault) continue;
      const std::string again = "--size " + std::to_string(n) + " --input random:" + std::to_string(s);
      out.push_back({"wrong-size", "at n = " + std::to_string(n) + " (" + again + " runs it again): " + *fault, 0});
      break;
    }
  }
  return out;
}

}  // namespace rl::own
