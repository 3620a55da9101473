// Shared by both backends: turns a request into a typed launch and the recorded stages into
// a Trace, so the GPU and the CPU model are converted by the very same code.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "../../kernels/algorithms.h"
#include "../../kernels/algo.h"
#include "../../kernels/raw_trace.h"
#include "../../kernels/shapes.h"
#include "../../kernels/matrix_shapes.h"
#include "../../kernels/gpu_api.h"
#include "../../kernels/stage_tags.h"
#include "../core/catalog.h"
#include "../core/facts.h"
#include "../core/text.h"
#include "backend.h"
#include "geometry.h"

namespace rl::backend {

kernels::Algo kernel_algo(const std::string& id);  // throws std::invalid_argument if unknown or a baseline
// The request's algorithm, checked as above and for the type and operator: a row that reduces
// int alone (AlgorithmRow::ints_only), or whose bulk reduction takes floats' sums alone, refuses the
// others in words.
kernels::Algo kernel_algo(const TraceRequest& req);
void check_type(const kernels::AlgorithmRow& row, core::DType type, core::Op op,
                core::Accumulate accumulate = core::Accumulate::Float);
// The output a matrix trace's traced block writes first: its row, its first column, or 0.
std::size_t traced_output(kernels::Algo algo, kernels::Matrix m, int block, kernels::Grid2 grid, int traced,
                          std::size_t elem_bytes = 4);

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
void add_stages(core::Trace& t, kernels::Algo algo, const kernels::RawTrace<T>& raw, const core::SourceView& src);

// When, and from which source lines: what a trace opened elsewhere shows beside its stages.
inline void stamp(core::Trace& t, const core::SourceView& src) {
  t.recorded.utc = core::utc_now();
  t.code = {src.file, src.numbers, src.lines};
}

// The fields every trace carries, array or matrix: what ran, where, on which source lines.
template <class T>
core::Trace trace_header(const TraceRequest& req, kernels::Algo algo, const kernels::RawTrace<T>& raw,
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
  t.combine = kernels::row(algo).combine;
  t.partials = doubles(raw.partials.begin(), raw.partials.end());
  return t;
}

// elem_bytes: the input element's (2 for halves), which sets what a 16-byte load reads.
template <class T>
core::Trace build_trace(const TraceRequest& req, kernels::Algo algo, const kernels::RawTrace<T>& raw, T result,
                        std::size_t elem_bytes = sizeof(T)) {
  const bool global = kernels::row(algo).indexing == kernels::Indexing::WholeArray;
  const core::SourceView& src = core::source_of(req.algorithm);
  core::Trace t = trace_header(req, algo, raw, src);
  t.memory = global ? core::Memory::Global : core::Memory::Shared;
  t.result = static_cast<double>(result);
  t.tickets = raw.tickets;
  const int cluster = kernels::cluster_blocks(algo, req.cluster);
  if (!global) t.pass_outputs = kernels::pass_outputs(algo, t.size, req.block, raw.grid, cluster);
  t.geometry = array_geometry(algo, t.size, req.block, raw.grid, req.trace_block, elem_bytes, raw.tickets, cluster);
  for (std::size_t i : kernels::traced_elements(algo, t.size, req.block, raw.grid, req.trace_block,
                                                kernels::vector_elements(elem_bytes), raw.tickets))
    t.input.push_back(req.input[i]);

  add_stages(t, algo, raw, src);
  return t;
}

// The recorded stages: labels, source lines, shared memory, lanes, accesses and loads.
template <class T>
void add_stages(core::Trace& t, kernels::Algo algo, const kernels::RawTrace<T>& raw, const core::SourceView& src) {
  const bool global = kernels::row(algo).indexing == kernels::Indexing::WholeArray;
  const int threads = raw.block, slots = raw.shape.slots, load_slots = raw.shape.load_slots;
  for (int k = 0; k < raw.shape.stages; ++k) {
    if (raw.tags[k] < 0) continue;  // a stage this run never reached
    core::Stage s;
    s.label = core::stage_label(raw.tags[k], raw.params[k], raw.shared_count[k] > 0);
    s.tag = raw.tags[k];
    s.param = raw.params[k];
    s.line = src.line_of(kernels::tag_marker(raw.tags[k]));
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
    if (touched && own && !global) s.bank_conflicts = core::bank_conflict_degree(words, sizeof(T));
    s.divergent_warps = core::divergent_warps(s, threads);
    for (int tid = 0; tid < threads && load_slots > 0; ++tid) {
      const auto first = raw.loads.begin() + std::ptrdiff_t((base + tid) * load_slots);
      core::Load l{tid, {}, {}};
      const auto end = std::find_if(std::make_reverse_iterator(first + load_slots), std::make_reverse_iterator(first),
                                    [](long long c) { return c >= 0; }).base();  // past the last load
      for (auto c = first; c != end; ++c)  // a skipped slot stays, as -1: a warp's lanes' k-th loads stay together
        l.elements.push_back(*c < 0 ? -1 : (long long)kernels::load_index(*c)), l.widths.push_back(*c < 0 ? 1 : kernels::load_width(*c));
      if (std::all_of(l.widths.begin(), l.widths.end(), [](int w) { return w == 1; })) l.widths.clear();  // JSON's default
      if (!l.elements.empty()) s.loads.push_back(std::move(l));
    }
    t.stages.push_back(std::move(s));
  }
}

// Reduce has the signature of kernels::gpu_reduce<T, In> / model::model_reduce<T, In>.
// algo: the request's, looked up once by the backend (kernel_algo).
template <class T, class In = T, class Reduce>
core::Trace run_trace(const TraceRequest& req, kernels::Algo algo, Reduce reduce) {
  if (req.rows || req.cols) throw std::invalid_argument(req.algorithm + " reduces an array: it takes a size, not rows and columns");
  // CUDA's atomic min/max (cuda::atomic_ref) do not promise this project's NaN rule: refused
  // rather than shown with a result that may differ from run to run.
  if (kernels::row(algo).tree == kernels::Tree::CgTilesAsync && req.op != core::Op::Sum &&
      std::any_of(req.input.begin(), req.input.end(), [](double x) { return x != x; }))
    throw std::invalid_argument("cg-reduce-update-async: its min and max use CUDA's atomic min/max, which do not "
                                "promise to propagate NaN; pick another algorithm for input with NaN");
  const std::vector<In> typed = typed_as<In>(req.input);
  kernels::RawTrace<T> raw;
  const kernels::Launch launch{req.block, req.grid, req.trace_block, req.tickets.empty() ? nullptr : &req.tickets,
                               req.cluster};
  const T result = reduce(algo, req.op, typed.data(), typed.size(), launch, &raw);
  return build_trace(req, algo, raw, result, sizeof(In));
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

// A window of the matrix around the traced block: its first row (or the matrix's last rows),
// at most 16 rows and 32 columns, and which cells the block reads.
core::Window matrix_window(const TraceRequest& req, const std::vector<std::size_t>& elements);

template <class T>
core::Trace build_matrix_trace(const TraceRequest& req, kernels::Algo algo, const kernels::RawTrace<T>& raw,
                               const std::vector<T>& outputs, std::size_t elem_bytes = sizeof(T)) {
  const core::SourceView& src = core::source_of(req.algorithm);
  core::Trace t = trace_header(req, algo, raw, src);
  t.rows = req.rows;
  t.cols = req.cols;
  t.outputs =
      doubles(outputs.begin(), outputs.begin() + std::ptrdiff_t(std::min(outputs.size(), kernels::kMaxPartials)));
  t.outputs_total = outputs.size();
  const kernels::Matrix m{req.rows, req.cols};
  const kernels::Grid2 grid = kernels::matrix_grid(algo, m, req.block, raw.grid, kernels::DeviceShape(1), elem_bytes);
  const std::vector<std::size_t> elements =
      kernels::matrix_traced_elements(algo, m, req.block, grid, req.trace_block, elem_bytes);
  for (std::size_t i : elements) t.input.push_back(req.input[i]);
  t.result = static_cast<double>(outputs[traced_output(algo, m, req.block, grid, req.trace_block, elem_bytes)]);
  t.window = matrix_window(req, elements);
  t.geometry = matrix_geometry(algo, m, req.block, grid, req.trace_block, elem_bytes);
  add_stages(t, algo, raw, src);
  return t;
}

template <class T, class In = T, class Reduce>
core::Trace run_matrix_trace(const TraceRequest& req, kernels::Algo algo, Reduce reduce) {
  if (req.rows == 0 || req.cols == 0 || req.cols > req.input.size() / req.rows || req.rows * req.cols != req.input.size())
    throw std::invalid_argument(req.algorithm + " needs a matrix: --rows and --cols, at least 1 each");
  kernels::cluster_blocks(algo, req.cluster);  // refuses a cluster size: no matrix kernel has clusters
  const std::vector<In> typed = typed_as<In>(req.input);
  kernels::RawTrace<T> raw;
  const kernels::Launch launch{req.block, req.grid, req.trace_block, nullptr};
  const std::vector<T> outputs = reduce(algo, req.op, typed.data(), {req.rows, req.cols}, launch, &raw);
  return build_matrix_trace(req, algo, raw, outputs, sizeof(In));
}

}  // namespace rl::backend
