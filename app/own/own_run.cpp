#include "own_run.h"

#include <cstddef>
#include <cstdlib>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "nvrtc.h"
#include "own_passes.h"
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
constexpr int kGridSyncLine = 1 << 30;  // added to the line of a stage rl_grid_sync() ended

struct Sink {
  SinkLayout at{};
  std::size_t lane_bytes = 0;
};

Sink arm_sink(Target& d, unsigned traced, std::size_t shared_bytes, unsigned block) {
  Sink s;
  s.at.traced_block = traced, s.at.max_stages = kMaxStages, s.at.max_steps = kMaxSteps;
  s.at.shared_bytes = std::uint32_t(shared_bytes);
  s.at.lines = d.alloc(kMaxStages * 4, "the trace's lines");
  s.at.params = d.alloc(kMaxStages * 4, "the trace's parameters");
  s.at.shared = d.alloc(std::max<std::size_t>(1, kMaxStages * shared_bytes), "the trace's shared memory");
  s.at.steps = d.alloc(std::size_t(block) * 4, "the trace's step counts");
  s.lane_bytes = std::size_t(kMaxStages + 1) * kMaxSteps * block * 16;  // each value's bits and a 1 where it called
  s.at.lanes = d.alloc(s.lane_bytes, "the trace's lanes");
  d.write(d.sink(), &s.at, sizeof(SinkLayout));
  return s;
}

void read_sink(Target& d, const Sink& s, unsigned block, OwnRun* out) {
  SinkLayout now;
  d.read(d.sink(), &now, sizeof now);
  const unsigned stages = std::min(now.stages, kMaxStages);
  std::vector<int> lines(kMaxStages), params(kMaxStages);
  d.read(s.at.lines, lines.data(), lines.size() * 4);
  d.read(s.at.params, params.data(), params.size() * 4);
  for (unsigned k = 0; k < stages; ++k) {
    // A negated line: rl_warp_stage ended the stage, not a barrier; kGridSyncLine added: rl_grid_sync.
    const bool grid = lines[k] > 0 && (lines[k] & kGridSyncLine) != 0;
    OwnStage st{std::abs(lines[k]) & ~kGridSyncLine, params[k], std::vector<unsigned char>(s.at.shared_bytes),
                lines[k] < 0, grid};
    if (s.at.shared_bytes)
      d.read(s.at.shared + std::uint64_t(k) * s.at.shared_bytes, st.shared.data(), s.at.shared_bytes);
    out->stages.push_back(std::move(st));
  }
  std::vector<std::uint64_t> lanes(s.lane_bytes / 8);
  d.read(s.at.lanes, lanes.data(), s.lane_bytes);
  // A thread's steps count is reset at each barrier; a step is kept where any thread called.
  for (unsigned k = 0; k <= stages; ++k) {
    std::vector<std::vector<std::uint64_t>> steps;
    std::vector<std::vector<int>> callers;
    for (unsigned j = 0; j < kMaxSteps; ++j) {
      const std::size_t row = (std::size_t(k) * kMaxSteps + j) * block * 2;
      std::vector<std::uint64_t> bits(block);
      std::vector<int> called;
      for (unsigned t = 0; t < block; ++t) {
        bits[t] = lanes[row + 2 * t];
        if (lanes[row + 2 * t + 1]) called.push_back(int(t));
      }
      if (called.empty()) break;
      steps.push_back(std::move(bits)), callers.push_back(std::move(called));
    }
    out->lanes.push_back(std::move(steps)), out->callers.push_back(std::move(callers));
  }
}

// The interpreter as a target.
class CpuTarget : public Target {
 public:
  CpuTarget(const Compiled& c, std::uint64_t budget, std::uint64_t schedule)
      : m_(ptx::parse(c.ptx)), lowered_(c.lowered), budget_(budget), schedule_(schedule) {}
  std::uint64_t alloc(std::size_t bytes, const std::string& name) override { return m_.alloc(bytes, name); }
  void write(std::uint64_t at, const void* src, std::size_t n) override { std::memcpy(m_.host(at, n), src, n); }
  void read(std::uint64_t at, void* dst, std::size_t n) override { std::memcpy(dst, m_.host(at, n), n); }
  std::uint64_t sink() override { return m_.symbol_address("rl_sink"); }
  std::uint64_t traced_block() override { return m_.symbol_address("rl_traced_block"); }
  bool launch(unsigned grid, unsigned block, std::size_t shared, std::uint64_t in, std::uint64_t out, std::uint64_t n,
              bool cooperative) override {
    ptx::LaunchSpec s{lowered_, grid, block, shared, {in, out, n}, budget_, schedule_};
    s.cooperative = cooperative;
    s.record_block = record_, s.stage_counter = sink() + offsetof(SinkLayout, stages);
    if (record_ >= 0) read(sink() + offsetof(SinkLayout, steps), &s.step_counters, 8);  // the armed sink's
    record_ = -1;
    return m_.launch(s);
  }
  void record_next(unsigned b) override { record_ = long(b); }
  std::vector<ptx::MemEvent> events() const override { return m_.events(); }
  std::vector<std::uint32_t> split_warps() const override { return m_.split_warps(); }
  std::vector<std::vector<std::uint32_t>> split_steps() const override { return m_.split_steps(); }
  std::vector<ptx::Finding> findings() const override { return m_.findings(); }
  std::uint64_t steps() const override { return m_.steps(); }

 private:
  ptx::Machine m_;
  std::string lowered_;
  std::uint64_t budget_, schedule_;
  long record_ = -1;
};

}  // namespace

std::pair<unsigned, std::size_t> shape_of(const OwnLaunch& l, ExprNames names, std::uint64_t count) {
  names.n = count;
  const std::uint64_t grid = evaluate(l.grid, names), shared = evaluate(l.shared, names);
  if (grid == 0) throw std::invalid_argument("grid: '" + l.grid + "' is 0 blocks for n = " + std::to_string(count));
  if (grid > (std::uint64_t(1) << 31) - 1)
    throw std::invalid_argument("grid: " + std::to_string(grid) + " blocks, past 2^31 - 1");
  if (shared > 227 * 1024)
    throw std::invalid_argument("shared: " + std::to_string(shared) + " bytes, past a block's 227 KiB");
  const std::uint64_t warps_a_block = std::max<std::uint64_t>((names.block + 31) / 32, 1);  // an SM holds whole warps
  const std::uint64_t per_sm = std::min(kMaxBlocksPerSm, names.threads_per_sm / (32 * warps_a_block));
  if (l.cooperative && grid > names.sms * per_sm)
    throw std::invalid_argument("grid: " + std::to_string(grid) + " blocks of " + std::to_string(names.block) +
                                " threads in a cooperative launch, where a GPU of " + std::to_string(names.sms) +
                                " SMs holds " + std::to_string(names.sms * per_sm) + " at most (" +
                                std::to_string(per_sm) + " an SM): every block must be resident at once");
  return {unsigned(grid), std::size_t(shared)};
}

OwnRun prepare_launch(const OwnRequest& r) {
  OwnRun out;
  out.launch = parse_launch(r.source, r.file);
  out.block = r.block ? r.block : out.launch.block;
  if (out.block < 1 || out.block > 1024)
    throw std::invalid_argument("block: " + std::to_string(out.block) + " threads; a block takes 1 to 1024");
  return out;
}

OwnRun prepare_run(const OwnRequest& r) {
  OwnRun out = prepare_launch(r);
  const std::size_t size = value_bytes(r.value_type);
  if (r.input.empty() || r.input.size() % size != 0)
    throw std::invalid_argument("the input holds no whole value of " + r.value_type);
  if (r.input.size() / size > 0xffffffffu)
    throw std::invalid_argument("the kernel's n is an unsigned int: at most 2^32 - 1 elements");
  return out;
}

void check_signature(const Compiled& c) {
  const auto module = ptx::parse(c.ptx);
  const ptx::Entry* e = module->entry(c.lowered);
  const auto bytes = [&](std::size_t i) { return e->params[i].type.bytes; };
  if (!e || e->params.size() != 3 || bytes(0) != 8 || bytes(1) != 8 || bytes(2) != 4)
    throw std::invalid_argument("the kernel must take (const value_t* in, value_t* out, unsigned int n)");
}

std::vector<PassShape> pass_shapes(const OwnLaunch& l, ExprNames names, std::uint64_t n) {
  std::vector<PassShape> out;
  for (std::uint64_t count = n;;) {
    const auto [grid, shared] = shape_of(l, names, count);
    out.push_back({grid, shared, count});
    if (!l.until_one || grid == 1) return out;
    if (grid >= count)
      throw std::invalid_argument("grid: '" + l.grid + "' leaves " + std::to_string(grid) + " results from " +
                                  std::to_string(count) + " elements, so 'passes: until one' would never end");
    count = grid;
  }
}

void run_passes(const OwnRequest& r, Target& d, OwnRun& out) {
  const std::size_t size = value_bytes(r.value_type);
  ExprNames names = r.device;
  names.block = std::uint64_t(out.block), names.value_bytes = size;
  const std::vector<PassShape> passes = pass_shapes(out.launch, names, r.input.size() / size);
  if (r.trace_block >= passes[0].grid)
    throw std::invalid_argument("trace block " + std::to_string(r.trace_block) + " is outside the grid of " +
                                std::to_string(passes[0].grid));
  std::uint64_t src = d.alloc(r.input.size(), "the input");
  d.write(src, r.input.data(), r.input.size());
  for (std::size_t pass = 0; pass < passes.size(); ++pass) {
    const auto [grid, shared, count] = passes[pass];
    const std::size_t outputs = out.launch.outputs(grid);
    const std::uint64_t dst =
        d.alloc(outputs * size, pass == 0 ? "out" : "out (pass " + std::to_string(pass + 1) + ")");
    std::vector<unsigned char> start(outputs * size, 0xff);          // poisoned: the kernel's to write
    if (!out.launch.until_one) std::fill_n(start.begin(), size, 0);  // out[0] = 0
    d.write(dst, start.data(), start.size());
    Sink sink;
    if (pass == 0) {
      sink = arm_sink(d, r.trace_block, shared, unsigned(out.block)), out.shared_bytes = shared;
    } else {
      const SinkLayout off{};
      d.write(d.sink(), &off, sizeof off);
    }
    const std::uint32_t traced = pass == 0 ? r.trace_block : 0xffffffffu;  // later passes trace no block
    d.write(d.traced_block(), &traced, sizeof traced);
    out.grids.push_back(grid);
    if (pass == 0) d.record_next(r.trace_block), out.input_address = src;
    const bool ok = d.launch(grid, unsigned(out.block), shared, src, dst, count, out.launch.cooperative);
    if (pass == 0) {
      read_sink(d, sink, unsigned(out.block), &out);
      out.events = d.events();
      out.split_warps = d.split_warps(), out.split_steps = d.split_steps();
      const std::size_t skip = outputs - out.launch.results(grid);  // the result, before the blocks' values
      out.first_outputs.resize((outputs - skip) * size);
      d.read(dst + skip * size, out.first_outputs.data(), out.first_outputs.size());
    }
    if (!ok) break;
    if (pass + 1 == passes.size()) {
      out.result.resize(size);
      d.read(dst, out.result.data(), size);
    }
    src = dst;
  }
  out.findings = d.findings();
  out.steps = d.steps();
}

OwnRun run_on_cpu(const OwnRequest& r) {
  OwnRun out = prepare_run(r);
  const Compiled c = compile({r.source, r.file, out.launch.name_expression(out.block), r.value_type, 0});
  out.compile_log = c.log, out.compile_ms = c.milliseconds, out.compile_cached = c.cached;
  out.device = kCpuDevice;
  check_signature(c);
  const auto t0 = std::chrono::steady_clock::now();
  CpuTarget d(c, r.step_budget, r.schedule);
  run_passes(r, d, out);
  out.run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace rl::own
