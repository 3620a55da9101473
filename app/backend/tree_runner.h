// Shared by both backends: turns a request into a typed launch and the recorded stages
// into a Trace, so the GPU and the CPU model are converted by the very same code.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernels/reduce_api.h"
#include "../core/catalog.h"
#include "backend.h"

namespace rl::backend {

kernels::Algo kernel_algo(const std::string& id);  // throws std::invalid_argument if unknown
kernels::OpKind kernel_op(core::Op op);

template <class T>
core::Trace build_trace(const TraceRequest& req, const kernels::RawTrace<T>& raw, T result) {
  const core::SourceView& src = core::source_of(req.algorithm);
  core::Trace t;
  t.algorithm = req.algorithm;
  t.source = src.file;
  t.size = req.input.size();
  t.block = req.block;
  t.grid = (t.size + req.block - 1) / req.block;
  t.trace_block = req.trace_block;
  t.op = req.op;
  t.type = req.type;
  t.result = static_cast<double>(result);
  const std::size_t first = static_cast<std::size_t>(req.trace_block) * req.block;
  for (std::size_t i = first; i < first + req.block && i < t.size; ++i) t.input.push_back(req.input[i]);

  for (int k = 0; k < raw.stages; ++k) {
    core::Stage s;
    s.line = k == 0 ? src.load_line : src.step_line;
    const std::size_t base = static_cast<std::size_t>(k) * raw.block;
    s.shared.emplace(raw.block);
    for (int tid = 0; tid < raw.block; ++tid) {
      const std::size_t i = base + tid;
      (*s.shared)[tid] = static_cast<double>(raw.shared[i]);
      if (!raw.active[i]) continue;
      s.active.push_back(tid);
      core::Access a{tid, {}, {}};
      for (int r : {raw.reads[2 * i], raw.reads[2 * i + 1]})
        if (r >= 0) a.reads.push_back(r);
      if (raw.writes[i] >= 0) a.writes.push_back(raw.writes[i]);
      s.accesses.push_back(std::move(a));
    }
    // The label comes from what was recorded: the distance between the two cells read.
    if (k == 0) {
      s.label = "load into shared memory";
    } else if (!s.accesses.empty() && s.accesses[0].reads.size() == 2) {
      s.label = "stride " + std::to_string(s.accesses[0].reads[1] - s.accesses[0].reads[0]);
    } else {
      s.label = "step " + std::to_string(k);
    }
    t.stages.push_back(std::move(s));
  }
  return t;
}

// Reduce has the signature of kernels::gpu_reduce<T> / model::tree_reduce<T>.
template <class T, class Reduce>
core::Trace run_tree(const TraceRequest& req, Reduce reduce) {
  const kernels::Algo algo = kernel_algo(req.algorithm);
  kernels::check_launch(req.input.size(), req.block, true, req.trace_block);
  std::vector<T> typed(req.input.begin(), req.input.end());
  kernels::RawTrace<T> raw;
  const T result = reduce(algo, kernel_op(req.op), typed.data(), typed.size(), req.block, &raw,
                          req.trace_block);
  return build_trace(req, raw, result);
}

}  // namespace rl::backend
