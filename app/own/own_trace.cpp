#include "own_trace.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include "../../kernels/raw_trace.h"
#include "../core/catalog.h"
#include "../core/text.h"

namespace rl::own {
namespace {

// The value of `type` whose bytes start at p, as the trace holds values.
double value_at(const unsigned char* p, const std::string& type) {
  if (type == "int") {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (type == "float") {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  double v;
  std::memcpy(&v, p, 8);
  return v;
}

std::vector<double> values_of(const std::vector<unsigned char>& bytes, const std::string& type,
                              std::size_t cap = std::numeric_limits<std::size_t>::max()) {
  const std::size_t size = value_bytes(type), count = std::min(bytes.size() / size, cap);
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = value_at(bytes.data() + i * size, type);
  return out;
}

// rl_lanes' bits (the value's bytes, low first) as values of the run's type.
std::vector<double> lane_values(const std::vector<std::uint64_t>& bits, const std::string& type) {
  std::vector<double> out;
  for (std::uint64_t b : bits) {
    unsigned char bytes[8];
    std::memcpy(bytes, &b, 8);  // little-endian hosts, as the GPU
    out.push_back(value_at(bytes, type));
  }
  return out;
}

core::Code code_of(const OwnRequest& r) {
  core::Code c;
  c.file = r.file;
  std::size_t at = 0;
  for (int n = 1; at <= r.source.size(); ++n) {
    const std::size_t end = std::min(r.source.find('\n', at), r.source.size());
    if (end == r.source.size() && at == end) break;  // no empty line after the last newline
    c.lines.push_back(core::printable(r.source.substr(at, end - at)));
    c.numbers.push_back(n);
    at = end + 1;
  }
  return c;
}

// The stages in the order they ran: each stage's rl_lanes steps, then the barrier that ended it.
std::vector<core::Stage> stages_of(const OwnRun& run, const std::string& type) {
  std::vector<core::Stage> out;
  for (std::size_t k = 0; k < run.lanes.size() || k < run.stages.size(); ++k) {
    const int param = k < run.stages.size() ? run.stages[k].param : 0;
    if (k < run.lanes.size())
      for (std::size_t j = 0; j < run.lanes[k].size(); ++j) {
        const auto& step = run.lanes[k][j];
        core::Stage s;
        s.tag = kernels::kTagLanes, s.param = param;
        s.label = core::stage_label(s.tag, s.param, false) + ", call " + std::to_string(j + 1);
        s.lanes = lane_values(step, type);
        s.active = run.callers[k][j];  // the threads that called rl_lanes in this step
        out.push_back(std::move(s));
      }
    if (k >= run.stages.size()) continue;
    core::Stage s;
    s.tag = kernels::kTagBarrier, s.param = param, s.line = run.stages[k].line;
    s.label = core::stage_label(s.tag, s.param, true);
    s.shared = values_of(run.stages[k].shared, type);
    out.push_back(std::move(s));
  }
  return out;
}

// The run's value against the input's: ints and min/max exactly (an int sum wraps as the GPU's
// 32-bit adds do), float and double sums within the bound every order of adds stays inside,
// (n - 1) u / (1 - (n - 1) u) times the sum of the magnitudes (Higham, Accuracy and Stability,
// eq. 4.4). A wrong value is a finding; none when it is right or no value was left.
std::optional<core::Finding> check_value(const OwnRequest& r, const OwnRun& run, core::Op op) {
  if (run.result.empty()) return std::nullopt;
  const std::vector<double> in = values_of(r.input, r.value_type);
  const double got = value_at(run.result.data(), r.value_type);
  long double sum = 0, magnitude = 0;
  double lo = in[0], hi = in[0];
  for (double v : in) sum += v, magnitude += std::fabs(v), lo = std::min(lo, v), hi = std::max(hi, v);
  const bool ints = r.value_type == "int";
  double want = op == core::Op::Min ? lo : op == core::Op::Max ? hi : double(sum);
  if (ints && op == core::Op::Sum) want = double(std::int32_t(std::uint32_t(std::int64_t(sum))));
  double bound = 0;
  if (!ints && op == core::Op::Sum) {
    const double u = r.value_type == "float" ? 0x1p-24 : 0x1p-53, k = double(in.size() - 1) * u;
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

// The inputs as the kernel reads them: n values of value_t, little-endian.
std::vector<unsigned char> bytes_of(const std::vector<double>& values, core::DType type) {
  const std::size_t size = type == core::DType::Double ? 8 : 4;
  std::vector<unsigned char> out(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char* at = out.data() + i * size;
    if (type == core::DType::Int) {
      const auto v = std::int32_t(values[i]);
      std::memcpy(at, &v, 4);
    } else if (type == core::DType::Float) {
      const auto v = float(values[i]);
      std::memcpy(at, &v, 4);
    } else {
      std::memcpy(at, &values[i], 8);
    }
  }
  return out;
}

}  // namespace

OwnRequest own_request(std::string source, std::string file, core::DType type, const std::vector<double>& values,
                       int block, unsigned trace_block) {
  if (type != core::DType::Float && type != core::DType::Int && type != core::DType::Double)
    throw std::invalid_argument("a kernel of your own takes float, int or double, not " + core::to_string(type));
  OwnRequest r;
  r.source = std::move(source), r.file = std::move(file);
  r.value_type = core::to_string(type);
  r.input = bytes_of(values, type);
  r.block = block, r.trace_block = trace_block;
  return r;
}

core::Trace trace_own(const OwnRequest& r, bool gpu, core::Op op) {
  return own_trace(r, gpu ? run_on_gpu(r) : run_on_cpu(r), op);
}

std::string own_algorithm(const OwnLaunch& launch) { return "own:" + launch.kernel.substr(0, launch.kernel.find('<')); }

core::Trace own_trace(const OwnRequest& r, const OwnRun& run, core::Op op) {
  core::Trace t;
  t.algorithm = own_algorithm(run.launch);
  t.backend = run.device == kCpuDevice ? "sim" : "cuda";
  t.device = run.device;
  t.source = r.file;
  t.recorded.utc = core::utc_now();
  t.code = code_of(r);
  t.size = r.input.size() / value_bytes(r.value_type);
  t.block = run.block;
  t.grid = run.grids.empty() ? 0 : run.grids[0];
  t.trace_block = int(r.trace_block);
  t.op = op;
  t.type = *core::parse_dtype(r.value_type);
  t.result = run.result.empty() ? std::nan("") : value_at(run.result.data(), r.value_type);
  t.partials = values_of(run.first_outputs, r.value_type, kernels::kMaxPartials);
  for (unsigned g : run.grids) t.pass_outputs.push_back(run.launch.until_one ? g : 1);
  t.geometry.grid_x = t.grid, t.geometry.block_x = run.block;
  t.geometry.indexing = kernels::Indexing::Own, t.geometry.tree = kernels::Tree::Own;
  t.geometry.passes = int(run.grids.size());
  t.stages = stages_of(run, r.value_type);
  for (const auto& f : run.findings) t.findings.push_back({f.kind, core::printable(f.text), f.line});
  if (auto wrong = check_value(r, run, op)) t.findings.push_back(std::move(*wrong));
  return t;
}

}  // namespace rl::own
