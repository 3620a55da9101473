#include "repeat.h"

#include <algorithm>
#include <bit>

#include "../../kernels/algorithms.h"
#include "../core/catalog.h"

namespace rl::backend {

Repeats repeat_trace(Backend& backend, const TraceRequest& request, int runs, const std::atomic<bool>* cancel) {
  Repeats r;
  const int wanted = std::clamp(runs, 1, kMaxRepeats);
  for (; r.runs < wanted && !(cancel && *cancel); ++r.runs) {
    const core::Trace t = backend.trace(request);
    r.backend = t.backend;
    r.device = t.device;
    // Bit patterns: NaN equals itself here, and -0 differs from +0.
    const auto bits = std::bit_cast<std::uint64_t>(t.result);
    const auto same = [bits](const Distinct& d) { return std::bit_cast<std::uint64_t>(d.result) == bits; };
    const auto it = std::find_if(r.results.begin(), r.results.end(), same);
    if (it != r.results.end()) ++it->count;
    else r.results.push_back({t.result, 1});
  }
  return r;
}

int runs_on(const Backend& backend, int runs) { return backend.name() == "cuda" ? runs : 1; }

std::vector<LabRow> repeat_every(Backend& backend, const TraceRequest& request, int runs,
                                 const std::atomic<bool>* cancel) {
  std::vector<LabRow> rows;
  const bool pow2 = request.block >= 32 && std::has_single_bit(unsigned(request.block));
  for (const auto& a : core::algorithms()) {
    const kernels::AlgorithmRow* row = kernels::find_row(a.id);
    if (a.kind != core::Kind::Traced || a.matrix || !row || kernels::run_to_run(*row) == kernels::RunToRun::Pitfall)
      continue;
    if (cancel && *cancel) break;
    LabRow out;
    out.algorithm = a.id;
    out.error = type_refusal(a.id, request.type, request.op);
    if (out.error.empty()) {
      TraceRequest req = request;
      req.algorithm = a.id, req.trace_block = 0, req.grid = 0, req.tickets.clear();
      req.cluster = row->tree == kernels::Tree::Cluster ? request.cluster : 0;  // --cluster for the kernel of clusters
      req.rows = req.cols = 0;  // block-2d's matrix, as one array
      // A block this kernel cannot take: it runs at 256, and says so (48 had run at 256 unsaid).
      if (!pow2 && !a.any_block) {
        req.block = 256;
        out.note = "at 256 threads: it takes powers of two from 32 to 1024, not " + std::to_string(request.block);
      }
      try {
        out.repeats = repeat_trace(backend, req, runs_on(backend, runs), cancel);
      } catch (const std::exception& e) {
        out.error = e.what();
      }
    }
    rows.push_back(std::move(out));
  }
  return rows;
}

std::unique_ptr<Backend> same_kind(const Backend& backend, std::string* why) {
  return backend.name() == "cuda" ? make_cuda_backend(why) : make_sim_backend();
}

}  // namespace rl::backend
