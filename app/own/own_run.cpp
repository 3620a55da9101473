#include "own_run.h"

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "nvrtc.h"
#include "ptx_module.h"

namespace rl::own {
namespace {

// reduction_lab.cuh's rl_trace_sink, as the device lays it out (five 32-bit counts, a pad, five
// pointers: 64 bytes).
struct SinkLayout {
  std::uint32_t traced_block, max_stages, max_steps, shared_bytes, stages, pad;
  std::uint64_t lines, params, shared, steps, lanes;
};
static_assert(sizeof(SinkLayout) == 64, "rl_trace_sink is 64 bytes");

struct Sink {
  SinkLayout at{};
  std::size_t lane_bytes = 0;
};

Sink arm_sink(ptx::Machine& m, unsigned traced, std::size_t shared_bytes, unsigned block) {
  Sink s;
  s.at.traced_block = traced, s.at.max_stages = kMaxStages, s.at.max_steps = kMaxSteps;
  s.at.shared_bytes = std::uint32_t(shared_bytes);
  s.at.lines = m.alloc(kMaxStages * 4, "the trace's lines");
  s.at.params = m.alloc(kMaxStages * 4, "the trace's parameters");
  s.at.shared = m.alloc(std::max<std::size_t>(1, kMaxStages * shared_bytes), "the trace's shared memory");
  s.at.steps = m.alloc(std::size_t(block) * 4, "the trace's step counts");
  s.lane_bytes = std::size_t(kMaxStages + 1) * kMaxSteps * block * 8;
  s.at.lanes = m.alloc(s.lane_bytes, "the trace's lanes");
  std::memcpy(m.host(m.symbol_address("rl_sink"), sizeof(SinkLayout)), &s.at, sizeof(SinkLayout));
  return s;
}

void read_sink(ptx::Machine& m, const Sink& s, unsigned block, OwnRun* out) {
  SinkLayout now;
  std::memcpy(&now, m.host(m.symbol_address("rl_sink"), sizeof now), sizeof now);
  const unsigned stages = std::min(now.stages, kMaxStages);
  for (unsigned k = 0; k < stages; ++k) {
    OwnStage st;
    std::memcpy(&st.line, m.host(s.at.lines + 4 * k, 4), 4);
    std::memcpy(&st.param, m.host(s.at.params + 4 * k, 4), 4);
    const unsigned char* sh =
        m.host(s.at.shared + std::uint64_t(k) * s.at.shared_bytes, std::max<std::size_t>(s.at.shared_bytes, 1));
    st.shared.assign(sh, sh + s.at.shared_bytes);
    out->stages.push_back(std::move(st));
  }
  const auto* lanes = reinterpret_cast<const std::uint64_t*>(m.host(s.at.lanes, s.lane_bytes));
  // A thread's steps count is reset at each barrier; a step is recorded where any thread wrote.
  std::vector<std::uint64_t> blank(std::size_t(kMaxStages + 1) * kMaxSteps * block, 0);
  for (unsigned k = 0; k <= stages; ++k) {
    std::vector<std::vector<std::uint64_t>> steps;
    for (unsigned j = 0; j < kMaxSteps; ++j) {
      const std::uint64_t* row = lanes + (std::size_t(k) * kMaxSteps + j) * block;
      if (std::memcmp(row, blank.data(), block * 8) == 0) break;
      steps.emplace_back(row, row + block);
    }
    out->lanes.push_back(std::move(steps));
  }
}

// The grid and shared memory of one launch over `count` elements, checked.
std::pair<unsigned, std::size_t> shape_of(const OwnLaunch& l, ExprNames names, std::uint64_t count) {
  names.n = count;
  const std::uint64_t grid = evaluate(l.grid, names), shared = evaluate(l.shared, names);
  if (grid == 0) throw std::invalid_argument("grid: '" + l.grid + "' is 0 blocks for n = " + std::to_string(count));
  if (grid > (std::uint64_t(1) << 31) - 1)
    throw std::invalid_argument("grid: " + std::to_string(grid) + " blocks, past 2^31 - 1");
  if (shared > 227 * 1024)
    throw std::invalid_argument("shared: " + std::to_string(shared) + " bytes, past a block's 227 KiB");
  return {unsigned(grid), std::size_t(shared)};
}

}  // namespace

std::size_t value_bytes(const std::string& type) {
  if (type == "float" || type == "int") return 4;
  if (type == "double") return 8;
  throw std::invalid_argument("a kernel of your own takes float, int or double, not " + type);
}

OwnRun run_on_cpu(const OwnRequest& r) {
  OwnRun out;
  out.launch = parse_launch(r.source, r.file);
  out.block = r.block ? r.block : out.launch.block;
  if (out.block < 1 || out.block > 1024)
    throw std::invalid_argument("block: " + std::to_string(out.block) + " threads; a block takes 1 to 1024");
  const std::size_t size = value_bytes(r.value_type), n = r.input.size() / size;
  if (n == 0 || r.input.size() % size != 0)
    throw std::invalid_argument("the input holds no whole value of " + r.value_type);
  const Compiled c = compile({r.source, r.file, out.launch.name_expression(out.block), r.value_type, 0});
  out.compile_log = c.log, out.compile_ms = c.milliseconds, out.compile_cached = c.cached;
  const auto t0 = std::chrono::steady_clock::now();
  ptx::Machine m(ptx::parse(c.ptx));
  ExprNames names = r.device;
  names.block = std::uint64_t(out.block), names.value_bytes = size;
  std::uint64_t src = m.alloc(r.input.size(), "the input");
  std::memcpy(m.host(src, r.input.size()), r.input.data(), r.input.size());
  std::uint64_t count = n;
  for (int pass = 0;; ++pass) {
    const auto [grid, shared] = shape_of(out.launch, names, count);
    if (pass == 0 && r.trace_block >= grid)
      throw std::invalid_argument("trace block " + std::to_string(r.trace_block) + " is outside the grid of " +
                                  std::to_string(grid));
    const std::size_t outputs = out.launch.until_one ? grid : 1;
    const std::uint64_t dst =
        m.alloc(outputs * size, pass == 0 ? "out" : "out (pass " + std::to_string(pass + 1) + ")");
    std::memset(m.host(dst, outputs * size), out.launch.until_one ? 0xff : 0,
                outputs * size);  // poisoned, or out[0] = 0
    Sink sink;
    if (pass == 0)
      sink = arm_sink(m, r.trace_block, shared, unsigned(out.block)), out.shared_bytes = shared;
    else
      std::memset(m.host(m.symbol_address("rl_sink"), sizeof(SinkLayout)), 0, sizeof(SinkLayout));
    out.grids.push_back(grid);
    const bool ok = m.launch({c.lowered, grid, unsigned(out.block), shared, {src, dst, count}, r.step_budget});
    if (pass == 0) {
      read_sink(m, sink, unsigned(out.block), &out);
      const unsigned char* first = m.host(dst, outputs * size);
      out.first_outputs.assign(first, first + outputs * size);
    }
    if (!ok) break;
    if (!out.launch.until_one || grid == 1) {
      const unsigned char* v = m.host(dst, size);
      out.result.assign(v, v + size);
      break;
    }
    if (grid >= count)
      throw std::invalid_argument("grid: '" + out.launch.grid + "' leaves " + std::to_string(grid) + " results from " +
                                  std::to_string(count) + " elements, so 'passes: until one' would never end");
    src = dst, count = grid;
  }
  out.findings = m.findings();
  out.steps = m.steps();
  out.run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace rl::own
