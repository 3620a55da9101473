#include "collective.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "../../kernels/collectives.h"
#include "../../kernels/raw_trace.h"
#include "../core/catalog.h"
#include "../core/text.h"

namespace rl::backend {
namespace {

namespace ar = model::all_reduce;

// Each add rounds to the type the GPUs' buffers hold (an int wraps at 2^32, as a GPU's does).
double (*rounding(core::DType type))(double) {
  switch (type) {
    case core::DType::Int: return [](double v) { return core::wrap_int32(v); };
    case core::DType::Float: return [](double v) { return double(float(v)); };
    case core::DType::Half: return [](double v) { return core::round_to_type(v, core::DType::Half); };
    case core::DType::Bf16: return [](double v) { return core::round_to_type(v, core::DType::Bf16); };
    case core::DType::Double: break;
  }
  return [](double v) { return v; };
}

// The kind of step a model step is: the ring's first N - 1 reduce-scatter, the rest all-gather.
std::pair<int, int> tag_of(ar::Algorithm algorithm, std::size_t step, int gpus) {
  if (algorithm == ar::Algorithm::OneShot) return {kernels::kTagPeerAdd, 0};
  const int s = int(step), n = gpus - 1;
  return s < n ? std::pair{int(kernels::kTagReduceScatter), s + 1} : std::pair{int(kernels::kTagAllGather), s - n + 1};
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

core::Stage stage(std::string label, int tag, int param, const core::SourceView& src) {
  core::Stage s;
  s.label = std::move(label), s.tag = tag, s.param = param;
  core::point_at_tag(s, src);
  return s;
}

}  // namespace

std::vector<std::vector<double>> split_buffers(const std::vector<double>& all, int gpus, const std::string& what) {
  const auto g = std::size_t(std::max(gpus, 1));
  if (all.empty() || all.size() % g != 0)
    throw std::invalid_argument(what + ": " + std::to_string(all.size()) + " numbers do not make " + std::to_string(g) +
                                " buffers of one size (GPU 0's first)");
  const std::size_t n = all.size() / g;
  std::vector<std::vector<double>> out;
  for (std::size_t k = 0; k < g; ++k)
    out.emplace_back(all.begin() + std::ptrdiff_t(k * n), all.begin() + std::ptrdiff_t((k + 1) * n));
  return out;
}

std::string collective_op_refusal(const std::string& algorithm, core::Op op) {
  if (op == core::Op::Sum) return "";
  return algorithm + " takes the sum only, not the " + core::to_string(op) +
         ": the min and max across GPUs are not built yet";
}

std::string collective_refusal(const CollectiveRequest& r) {
  const kernels::CollectiveRow* row = kernels::find_collective(r.algorithm);
  if (!row) return "'" + r.algorithm + "' is not an all-reduce across GPUs";
  const int n = int(r.inputs.size());
  if (n < ar::kMinGpus || n > ar::kMaxGpus)
    return r.algorithm + " runs over " + std::to_string(ar::kMinGpus) + " to " + std::to_string(ar::kMaxGpus) +
           " GPUs, not " + std::to_string(n);
  if (std::string why = collective_op_refusal(r.algorithm, r.op); !why.empty()) return why;
  if (core::is_narrow(r.type) && r.accumulate != core::Accumulate::Same)
    return r.algorithm + " keeps its partial sums in the GPUs' buffers, of " + core::to_string(r.type) +
           ": every add rounds to it (--accumulate same)";
  if (r.inputs[0].empty() || r.inputs[0].size() > kMaxCollectiveTrace)
    return r.algorithm + ": a trace takes 1 to 2^20 values a GPU, not " + std::to_string(r.inputs[0].size());
  return "";
}

ar::Run model_run(const CollectiveRequest& r) {
  if (const std::string why = collective_refusal(r); !why.empty()) throw std::invalid_argument(why);
  return ar::run(kernels::find_collective(r.algorithm)->algorithm, r.inputs, rounding(r.type),
                 kernels::kKeptChunkValues);
}

core::Trace trace_collective(const CollectiveRequest& r) { return collective_trace(r, model_run(r)); }

core::Trace collective_trace(const CollectiveRequest& r, const ar::Run& run) {
  const kernels::CollectiveRow& row = *kernels::find_collective(r.algorithm);
  core::Trace t;
  t.algorithm = r.algorithm;
  t.backend = "sim";
  t.device = "CPU model";
  const core::SourceView& src = core::source_of(r.algorithm);  // the steps' lines: the model's code
  t.source = src.file;
  t.code = src;
  t.recorded.utc = core::utc_now();
  t.size = r.inputs[0].size();
  t.op = r.op, t.type = r.type;
  if (core::is_narrow(r.type)) t.accumulate = core::Accumulate::Same;
  core::Collective c;
  c.gpus = run.gpus, c.chunk_begin = run.chunk_begin, c.kept = kernels::kKeptChunkValues;
  t.stages.push_back(stage("the GPUs' buffers", kernels::kTagInput, 0, src));
  c.stages.push_back({{}, ar::kept_values(r.inputs, run.chunk_begin, c.kept)});
  for (std::size_t k = 0; k < run.steps.size(); ++k) {
    const auto [tag, param] = tag_of(row.algorithm, k, run.gpus);
    t.stages.push_back(stage(run.steps[k].label, tag, param, src));
    core::GpuStage g;
    for (const ar::Move& mv : run.steps[k].moves) g.transfers.push_back({mv.from, mv.to, mv.chunk, mv.add});
    g.held = run.steps[k].after;
    c.stages.push_back(std::move(g));
  }
  const std::size_t shown = std::min(t.size, kernels::kMaxPartials);
  for (const auto& result : run.results) {
    c.results.emplace_back(result.begin(), result.begin() + std::ptrdiff_t(shown));
    c.agree = c.agree && same_bits(result, run.results[0]);
  }
  t.result = run.results[0][0];
  t.collective = std::move(c);
  return t;
}

OrderDifference compare_orders(CollectiveRequest r) {
  r.algorithm = "ring-all-reduce";
  const ar::Run ring = model_run(r);
  r.algorithm = "one-shot-all-reduce";
  const ar::Run one_shot = model_run(r);
  OrderDifference d;
  d.elements = ring.results[0].size();
  for (std::size_t i = 0; i < d.elements; ++i) {
    const double a = ring.results[0][i], b = one_shot.results[0][i];
    if (std::memcmp(&a, &b, sizeof a) == 0) continue;
    if (d.differing++ == 0) d.first = i, d.ring = a, d.one_shot = b;
  }
  return d;
}

}  // namespace rl::backend
