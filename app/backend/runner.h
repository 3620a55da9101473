// Shared by both backends: turns a request into a typed launch and the recorded stages into
// a Trace, so the GPU and the CPU model are converted by the very same code.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "../../kernels/algorithms.h"
#include "../../kernels/raw_trace.h"
#include "../../kernels/shapes.h"
#include "../../kernels/matrix_shapes.h"
#include "../../kernels/gpu_api.h"
#include "../../kernels/plan.h"
#include "../../kernels/stage_tags.h"
#include "../core/catalog.h"
#include "../core/facts.h"
#include "../core/text.h"
#include "backend.h"
#include "geometry.h"

namespace rl::backend {

kernels::Algo kernel_algo(const std::string& id);  // throws std::invalid_argument if unknown or a baseline
const kernels::AlgorithmRow& kernel_row(const std::string& id);  // the same, its row
// The request's algorithm, checked as above and for the type and operator: a row that reduces
// int alone (AlgorithmRow::ints_only), or whose bulk reduction takes floats' sums alone, refuses the
// others in words.
kernels::Algo kernel_algo(const TraceRequest& req);
void check_type(const kernels::AlgorithmRow& row, core::DType type, core::Op op,
                core::Accumulate accumulate = core::Accumulate::Float);
// A window of the matrix around the traced block: its first row (or the matrix's last rows),
// at most 16 rows and 32 columns, and which cells the block reads.
core::Window matrix_window(const TraceRequest& req, const std::vector<std::size_t>& elements);
// The problem a request poses: its matrix, or its array as one row of n. Throws
// std::invalid_argument for rows and columns given to an array kernel, or missing for a matrix one.
kernels::Matrix problem_of(const TraceRequest& req, kernels::Algo algo);
// The plan of a request on a device of that shape (kernels::make_plan), checked for its kernel,
// type and operator; its tickets point into req.
kernels::Plan plan_for(const TraceRequest& req, kernels::DeviceShape device);
// The plan as the run carried it out: cg-grid-sync's GPU grid is settled at launch (occupancy).
kernels::Plan plan_as_ran(const kernels::Plan& plan, std::size_t grid);

// Values of the element type, from doubles that already hold them (exact).
template <class In>
std::vector<In> typed_as(const std::vector<double>& values) {
  std::vector<In> out;
  out.reserve(values.size());
  for (double v : values) out.push_back(static_cast<In>(v));
  return out;
}

// Recorded values as the trace keeps them: doubles (every int, float, half and bfloat16 exactly).
template <class It>
std::vector<double> doubles(It first, It last) {
  std::vector<double> out;
  out.reserve(std::size_t(last - first));
  for (; first != last; ++first) out.push_back(static_cast<double>(*first));
  return out;
}

template <class T>
void add_stages(core::Trace& t, const kernels::Plan& plan, const kernels::RawTrace<T>& raw,
                const core::SourceView& src);

// When, and from which source lines: what a trace opened elsewhere shows beside its stages.
inline void stamp(core::Trace& t, const core::SourceView& src) {
  t.recorded.utc = core::utc_now();
  t.code = src;
}

// The fields every trace carries, array or matrix: what ran, where, on which source lines.
template <class T>
core::Trace trace_header(const TraceRequest& req, const kernels::Plan& plan, const kernels::RawTrace<T>& raw,
                         const core::SourceView& src) {
  core::Trace t;
  t.algorithm = req.algorithm;
  t.source = src.file;
  stamp(t, src);
  t.size = req.input.size();
  t.block = req.block;
  t.grid = raw.grid;
  t.trace_block = req.trace_block;
  t.op = req.op;
  t.type = req.type;
  t.accumulate = core::is_narrow(req.type) ? req.accumulate : core::Accumulate::Float;
  t.combine = plan.row->combine;
  t.partials = doubles(raw.partials.begin(), raw.partials.end());
  return t;
}

// What only an array's trace holds: its one result, the hand-out of tickets, each pass's outputs.
template <class T>
void array_fields(core::Trace& t, const kernels::Plan& plan, const kernels::RawTrace<T>& raw, T result) {
  const bool global = plan.row->indexing == kernels::Indexing::WholeArray;
  t.memory = global ? core::Memory::Global : core::Memory::Shared;
  t.result = static_cast<double>(result);
  t.tickets = raw.tickets;
  if (!global)
    for (const kernels::Pass& p : plan.passes) t.pass_outputs.push_back(p.outputs);
}

// What only a matrix's trace holds: its shape, its outputs, the traced block's output and the
// window of the matrix around that block.
template <class T>
void matrix_fields(core::Trace& t, const TraceRequest& req, const kernels::Plan& plan, const std::vector<T>& outputs,
                   const std::vector<std::size_t>& elements) {
  t.rows = req.rows;
  t.cols = req.cols;
  t.outputs =
      doubles(outputs.begin(), outputs.begin() + std::ptrdiff_t(std::min(outputs.size(), kernels::kMaxPartials)));
  t.outputs_total = outputs.size();
  t.result = static_cast<double>(outputs[plan.traced_output]);
  t.window = matrix_window(req, elements);
}

// The trace of a run of `plan` (as it ran: plan_as_ran) that recorded raw and left outputs.
template <class T>
core::Trace build_trace(const TraceRequest& req, const kernels::Plan& plan, const kernels::RawTrace<T>& raw,
                        const std::vector<T>& outputs) {
  const core::SourceView& src = core::source_of(req.algorithm);
  core::Trace t = trace_header(req, plan, raw, src);
  t.geometry = geometry(plan, raw.tickets);
  const std::vector<std::size_t> elements = kernels::traced_elements(plan, raw.tickets);
  for (std::size_t i : elements) t.input.push_back(req.input[i]);
  if (plan.matrix()) {
    matrix_fields(t, req, plan, outputs, elements);
    t.first_block_waits = raw.first_waits;
  } else
    array_fields(t, plan, raw, outputs[0]);
  add_stages(t, plan, raw, src);
  return t;
}

// The recorded stages: labels, source lines, shared memory, lanes, accesses and loads.
template <class T>
void add_stages(core::Trace& t, const kernels::Plan& plan, const kernels::RawTrace<T>& raw,
                const core::SourceView& src) {
  const bool global = plan.row->indexing == kernels::Indexing::WholeArray;
  const int threads = raw.block, slots = raw.shape.slots, load_slots = raw.shape.load_slots;
  for (int k = 0; k < raw.shape.stages; ++k) {
    if (raw.tags[k] < 0) continue;  // a stage this run never reached
    core::Stage s;
    s.label = core::stage_label(raw.tags[k], raw.params[k], raw.shared_count[k] > 0);
    s.tag = raw.tags[k];
    s.param = raw.params[k];
    core::point_at_tag(s, src);
    if (raw.shared_count[k] > 0) {
      // The cells the stage recorded: global-halving's live part shrinks, bulk-async's tile
      // gives way to the warp totals.
      const std::size_t count = std::size_t(std::min(raw.shared_count[k], raw.shape.shared_size));
      const auto first = raw.shared.begin() + std::ptrdiff_t(std::size_t(k) * raw.shape.shared_size);
      s.shared = doubles(first, first + std::ptrdiff_t(count));
    }
    const std::size_t base = std::size_t(k) * threads;
    if (raw.has_lanes[k])
      s.lanes = doubles(raw.lanes.begin() + std::ptrdiff_t(base), raw.lanes.begin() + std::ptrdiff_t(base + threads));
    std::vector<std::vector<int>> words(threads);
    bool touched = false;
    for (int tid = 0; tid < threads; ++tid) {
      if (raw.active[base + tid]) s.active.push_back(tid);
      core::Access a{tid, {}, {}, {}};
      for (int slot = 0; slot < slots; ++slot) {
        const std::size_t at = (base + tid) * slots + slot;
        const int code = raw.access[at];
        if (code < 0) continue;
        (code & 1 ? a.writes : a.reads).push_back(code >> 1);
        if (!raw.sources.empty() && raw.sources[at] >= 0) {
          a.sources.push_back(raw.sources[at]);
          continue;  // through distributed shared memory: its banks are not modelled (facts.cpp thread_words)
        }
        words[tid].push_back(code >> 1);
      }
      if (global && !a.reads.empty())  // global-halving's reads are its global loads
        s.loads.push_back({tid, std::vector<long long>(a.reads.begin(), a.reads.end()), {}});
      if (!a.reads.empty() || !a.writes.empty()) {
        touched = true;
        s.accesses.push_back(std::move(a));
      }
    }
    const bool own = std::any_of(words.begin(), words.end(), [](const std::vector<int>& w) { return !w.empty(); });
    if (touched && own && !global) s.bank_conflicts = core::bank_conflict_degree(words, core::shared_cell_bytes(t));
    s.divergent_warps = core::divergent_warps(s, threads);
    for (int tid = 0; tid < threads && load_slots > 0; ++tid) {
      const auto first = raw.loads.begin() + std::ptrdiff_t((base + tid) * load_slots);
      core::Load l{tid, {}, {}};
      const auto end = std::find_if(std::make_reverse_iterator(first + load_slots), std::make_reverse_iterator(first),
                                    [](long long c) { return c >= 0; }).base();  // past the last load
      for (auto c = first; c != end; ++c)  // a skipped slot stays, as -1: a warp's lanes' k-th loads stay together
        l.elements.push_back(*c < 0 ? -1 : (long long)kernels::load_index(*c)), l.widths.push_back(*c < 0 ? 1 : kernels::load_width(*c));
      core::drop_unit_widths(l.widths);
      if (!l.elements.empty()) s.loads.push_back(std::move(l));
    }
    t.stages.push_back(std::move(s));
  }
}

// Run has the signature of kernels::gpu_run<T, In> / model::model_run<T, In>; plan: plan_for(req, ...).
template <class T, class In = T, class Run>
core::Trace run_trace(const TraceRequest& req, const kernels::Plan& plan, Run run) {
  // CUDA's atomic min/max (cuda::atomic_ref) do not promise this project's NaN rule: refused
  // rather than shown with a result that may differ from run to run.
  if (plan.row->tree == kernels::Tree::CgTilesAsync && req.op != core::Op::Sum &&
      std::any_of(req.input.begin(), req.input.end(), [](double x) { return x != x; }))
    throw std::invalid_argument("cg-reduce-update-async: its min and max use CUDA's atomic min/max, which do not "
                                "promise to propagate NaN; pick another algorithm for input with NaN");
  const std::vector<In> typed = typed_as<In>(req.input);
  kernels::RawTrace<T> raw;
  const std::vector<T> outputs = run(plan, req.op, typed.data(), &raw);
  return build_trace(req, plan_as_ran(plan, raw.grid), raw, outputs);
}

// Calls f.template operator()<T, In>() with the accumulator and element types: int, float and
// double add in themselves; half and bf16 in float or in themselves (accumulate).
template <class F>
auto with_types(core::DType type, core::Accumulate accumulate, F f) {
  const bool same = accumulate == core::Accumulate::Same;
  switch (type) {
    case core::DType::Int: return f.template operator()<int, int>();
    case core::DType::Float: return f.template operator()<float, float>();
    case core::DType::Double: return f.template operator()<double, double>();
    case core::DType::Half:
      return same ? f.template operator()<narrow::Half, narrow::Half>() : f.template operator()<float, narrow::Half>();
    case core::DType::Bf16:
      return same ? f.template operator()<narrow::Bf16, narrow::Bf16>() : f.template operator()<float, narrow::Bf16>();
  }
  throw std::invalid_argument("unknown element type");
}

template <class F>
core::Trace with_types(const TraceRequest& req, F f) {
  return with_types(req.type, req.accumulate, f);
}

}  // namespace rl::backend
