#include "own_trace.h"

#include "own_compare.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

#include "../../kernels/raw_trace.h"
#include "../core/catalog.h"
#include "../core/facts.h"
#include "../core/text.h"
#include "own_check.h"

namespace rl::own {
namespace {

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

// A warp's accesses of one kind (shared reads, shared writes, input loads), one slot a warp-wide
// instruction (MemEvent::issue): a thread that took no part in one (its lanes took another
// branch) keeps -1 there, so the banks and coalescing views group a warp's accesses as the
// hardware serves them. Events of one warp and one issue run one after another.
struct WarpSlots {
  std::uint32_t last = UINT32_MAX;
  std::size_t count = 0;
  std::size_t slot(std::uint32_t issue) {
    if (issue != last) last = issue, ++count;
    return count - 1;
  }
};
struct WarpAccesses {
  WarpSlots reads, writes, loads;
};
constexpr std::size_t kSlotsAWarp = 64;  // a warp's first instructions reading, and writing, shared memory in a stage

template <class T>
void put(std::vector<T>& at, std::vector<int>& widths, std::size_t slot, T value, int width) {
  at.resize(std::max(at.size(), slot + 1), T(-1)), widths.resize(at.size(), 1);
  at[slot] = value, widths[slot] = width;
}

// What the CPU path recorded of a barrier's stage: the threads that touched shared memory or
// loaded input, their shared cells and their first kLoadSlots input loads (a slot a warp-wide
// instruction, WarpSlots), and their bank conflicts (the caller counts divergent warps: a
// stage's split warps count where nothing was recorded too).
void add_work(core::Stage& s, const std::vector<const ptx::MemEvent*>& events, int threads, std::size_t size,
              std::uint64_t input, std::uint64_t input_bytes) {
  std::vector<core::Access> access(static_cast<std::size_t>(threads));
  std::vector<core::Load> loads(static_cast<std::size_t>(threads));
  std::vector<WarpAccesses> warps(static_cast<std::size_t>(threads + 31) / 32);
  std::vector<bool> active(static_cast<std::size_t>(threads), false);
  for (const ptx::MemEvent* e : events) {
    const std::size_t t = e->thread;
    const int width = std::max(1, int(e->bytes / size));  // a vector: its elements
    WarpAccesses& warp = warps[t / 32];
    if (e->shared) {
      active[t] = true;
      core::Access& a = access[t];
      const std::size_t slot = (e->write ? warp.writes : warp.reads).slot(e->issue);
      if (slot < kSlotsAWarp)
        put(e->write ? a.writes : a.reads, e->write ? a.write_widths : a.read_widths, slot, int(e->address / size),
            width);
    } else if (e->address >= input && e->address < input + input_bytes) {
      active[t] = true;
      const std::size_t slot = warp.loads.slot(e->issue);
      if (slot < std::size_t(kernels::kLoadSlots))
        put(loads[t].elements, loads[t].widths, slot, (long long)((e->address - input) / size), width);
    }
  }
  for (int t = 0; t < threads; ++t) {
    if (active[std::size_t(t)]) s.active.push_back(t);
    core::Access& a = access[std::size_t(t)];
    if (!a.writes.empty())  // the warp's writes start after all its reads' slots (core::bank_rows)
      a.reads.resize(std::min(warps[std::size_t(t) / 32].reads.count, kSlotsAWarp), -1),
          a.read_widths.resize(a.reads.size(), 1);
    core::drop_unit_widths(a.read_widths), core::drop_unit_widths(a.write_widths);
    if (!a.reads.empty() || !a.writes.empty()) a.thread = t, s.accesses.push_back(std::move(a));
    core::Load& l = loads[std::size_t(t)];
    core::drop_unit_widths(l.widths);
    if (!l.elements.empty()) l.thread = t, s.loads.push_back(std::move(l));
  }
  if (!s.accesses.empty()) s.bank_conflicts = core::bank_conflict_degree(s, size);
}

// Warp w for each bit w of a split mask (ptx::Machine::split_warps), ascending.
std::vector<int> warps_in(std::uint32_t mask) {
  std::vector<int> warps;
  for (int w = 0; w < 32; ++w)
    if (mask >> w & 1u) warps.push_back(w);
  return warps;
}

// The stages in the order they ran: each stage's rl_lanes steps, then the barrier that ended it.
// After the last barrier no barrier ends a stage: what the threads did there (warp 0 reading the
// warps' sums, then shuffling) is the work of the rl_lanes steps, each access in the step it led
// to (the thread's calls so far); what follows the last call is not shown. Each step's split warps
// are those that ran apart on the way to its call.
std::vector<core::Stage> stages_of(const OwnRun& run, const std::string& type, std::uint64_t input_bytes) {
  std::vector<std::vector<const ptx::MemEvent*>> events(run.stages.size()), after;
  for (const ptx::MemEvent& e : run.events) {
    if (e.thread >= unsigned(run.block)) continue;
    if (e.stage < events.size()) {
      events[e.stage].push_back(&e);
    } else if (e.stage == events.size() && e.step < kMaxSteps) {
      if (after.size() <= e.step) after.resize(e.step + 1);
      after[e.step].push_back(&e);
    }
  }
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
        if (k == run.stages.size() && j < after.size()) {  // accesses of the step; active stays the callers
          core::Stage work;
          add_work(work, after[j], run.block, value_bytes(type), run.input_address, input_bytes);
          s.accesses = std::move(work.accesses), s.loads = std::move(work.loads);
          s.bank_conflicts = work.bank_conflicts;
        }
        s.active = run.callers[k][j];  // the threads that called rl_lanes in this step
        if (k < run.split_steps.size() && j < run.split_steps[k].size())
          s.split_warps = warps_in(run.split_steps[k][j]);
        s.divergent_warps = core::divergent_warps(s, run.block);
        out.push_back(std::move(s));
      }
    if (k >= run.stages.size()) continue;
    core::Stage s;
    s.tag = run.stages[k].warp   ? kernels::kTagWarpStage
            : run.stages[k].grid ? kernels::kTagGridSync
                                 : kernels::kTagBarrier;
    s.param = param, s.line = run.stages[k].line;
    s.label = core::stage_label(s.tag, s.param, true);
    s.shared = values_of(run.stages[k].shared, type);
    if (k < run.split_warps.size()) s.split_warps = warps_in(run.split_warps[k]);
    if (!run.events.empty()) add_work(s, events[k], run.block, value_bytes(type), run.input_address, input_bytes);
    s.divergent_warps = core::divergent_warps(s, run.block);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

OwnRequest own_request(std::string source, std::string file, core::DType type, const std::vector<double>& values,
                       int block, unsigned trace_block) {
  OwnRequest r;
  r.source = std::move(source), r.file = std::move(file);
  r.value_type = core::to_string(type);
  r.input = bytes_of(values, r.value_type);
  r.block = block, r.trace_block = trace_block;
  return r;
}

core::Trace trace_own(const OwnRequest& r, bool gpu, core::Op op, std::uint64_t check_seed) {
  core::Trace t = own_trace(r, gpu ? run_on_gpu(r) : run_on_cpu(r), op);
  if (!check_seed) return t;
  for (core::Finding& f : later_findings(r, gpu, op, t, check_seed)) t.findings.push_back(std::move(f));
  return t;
}

std::vector<core::Finding> later_findings(const OwnRequest& r, bool gpu, core::Op op, const core::Trace& t,
                                          std::uint64_t check_seed) {
  if (!gpu)  // a race's effect on the snapshots, under another warp schedule
    if (auto f = schedule_finding(r, op, t, check_seed)) return {std::move(*f)};
  if (!t.findings.empty()) return {};
  return check_other_sizes(r, gpu, op, check_seed);
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
  t.type = own_dtype(r.value_type);
  if (core::is_narrow(t.type)) t.accumulate = core::Accumulate::Same;  // shared memory holds value_t
  t.result = run.result.empty() ? std::nan("") : value_at(run.result.data(), r.value_type);
  t.partials = values_of(run.first_outputs, r.value_type, kernels::kMaxPartials);
  for (unsigned g : run.grids) t.pass_outputs.push_back(run.launch.results(g));
  t.geometry.grid_x = t.grid, t.geometry.block_x = run.block;
  t.geometry.indexing = kernels::Indexing::Own, t.geometry.tree = kernels::Tree::Own;
  t.geometry.passes = int(run.grids.size());
  t.stages = stages_of(run, r.value_type, r.input.size());
  for (const auto& f : run.findings) t.findings.push_back({f.kind, core::printable(f.text), f.line});
  if (auto wrong = check_value(r, run, op)) t.findings.push_back(std::move(*wrong));
  return t;
}

}  // namespace rl::own
