// Shared by both backends: turns a request into a typed launch and the recorded stages into
// a Trace, so the GPU and the CPU model are converted by the very same code.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "../../kernels/reduce_api.h"
#include "../../kernels/stage_tags.h"
#include "../core/catalog.h"
#include "../core/facts.h"
#include "backend.h"

namespace rl::backend {

kernels::Algo kernel_algo(const std::string& id);  // throws std::invalid_argument if unknown or a baseline
kernels::OpKind kernel_op(core::Op op);

template <class T>
core::Trace build_trace(const TraceRequest& req, kernels::Algo algo, const kernels::RawTrace<T>& raw, T result) {
  const core::SourceView& src = core::source_of(req.algorithm);
  const bool global = algo == kernels::Algo::GlobalHalving;
  core::Trace t;
  t.algorithm = req.algorithm;
  t.source = src.file;
  t.memory = global ? core::Memory::Global : core::Memory::Shared;
  t.size = req.input.size();
  t.block = req.block;
  t.grid = raw.grid;
  t.trace_block = req.trace_block;
  t.op = req.op;
  t.type = req.type;
  t.result = static_cast<double>(result);
  t.combine = kernels::row(algo).combine;
  t.partials.assign(raw.partials.begin(), raw.partials.end());
  t.tickets = raw.tickets;
  if (algo != kernels::Algo::GlobalHalving) t.pass_outputs = kernels::pass_outputs(algo, t.size, req.block, raw.grid);
  for (std::size_t i : kernels::traced_elements(algo, t.size, req.block, raw.grid, req.trace_block, 16 / sizeof(T), raw.tickets))
    t.input.push_back(req.input[i]);

  const int threads = raw.block, slots = raw.shape.slots;
  for (int k = 0; k < raw.shape.stages; ++k) {
    if (raw.tags[k] < 0) continue;  // a stage this run never reached
    core::Stage s;
    s.label = core::stage_label(raw.tags[k], raw.params[k], raw.has_shared[k]);
    s.tag = raw.tags[k];
    s.param = raw.params[k];
    s.line = src.line_of(kernels::tag_marker(raw.tags[k]));
    if (raw.has_shared[k]) {
      // global-halving's live part shrinks: the whole array, then what each launch left.
      const std::size_t count = global ? (k == 0 ? t.size : std::size_t(raw.params[k])) : std::size_t(raw.shape.shared_size);
      const auto first = raw.shared.begin() + std::ptrdiff_t(std::size_t(k) * raw.shape.shared_size);
      s.shared.emplace(first, first + std::ptrdiff_t(count));
    }
    const std::size_t base = std::size_t(k) * threads;
    if (raw.has_lanes[k]) s.lanes.emplace(raw.lanes.begin() + std::ptrdiff_t(base), raw.lanes.begin() + std::ptrdiff_t(base + threads));
    std::vector<std::vector<int>> words(threads);
    bool touched = false;
    for (int tid = 0; tid < threads; ++tid) {
      if (raw.active[base + tid]) s.active.push_back(tid);
      core::Access a{tid, {}, {}};
      for (int slot = 0; slot < slots; ++slot) {
        const int code = raw.access[(base + tid) * slots + slot];
        if (code < 0) continue;
        (code & 1 ? a.writes : a.reads).push_back(code >> 1);
        words[tid].push_back(code >> 1);
      }
      if (!a.reads.empty() || !a.writes.empty()) {
        touched = true;
        s.accesses.push_back(std::move(a));
      }
    }
    if (touched && !global) s.bank_conflicts = core::bank_conflict_degree(words, sizeof(T));
    s.divergent_warps = core::divergent_warps(s, threads);
    t.stages.push_back(std::move(s));
  }
  return t;
}

// Reduce has the signature of kernels::gpu_reduce<T> / model::model_reduce<T>.
template <class T, class Reduce>
core::Trace run_trace(const TraceRequest& req, Reduce reduce) {
  const kernels::Algo algo = kernel_algo(req.algorithm);
  // CUDA's atomic min/max (cuda::atomic_ref) do not promise this project's NaN rule: refused
  // rather than shown with a result that may differ from run to run.
  if (algo == kernels::Algo::CgReduceUpdateAsync && req.op != core::Op::Sum &&
      std::any_of(req.input.begin(), req.input.end(), [](double x) { return x != x; }))
    throw std::invalid_argument("cg-reduce-update-async: its min and max use CUDA's atomic min/max, which do not "
                                "promise to propagate NaN; pick another algorithm for input with NaN");
  const std::vector<T> typed(req.input.begin(), req.input.end());
  kernels::RawTrace<T> raw;
  const kernels::Launch launch{req.block, req.grid, req.trace_block, req.tickets.empty() ? nullptr : &req.tickets};
  const T result = reduce(algo, kernel_op(req.op), typed.data(), typed.size(), launch, &raw);
  return build_trace(req, algo, raw, result);
}

}  // namespace rl::backend
