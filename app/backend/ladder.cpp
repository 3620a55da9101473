#include "ladder.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "../../kernels/algorithms.h"
#include "../../kernels/model/model.h"
#include "../core/text.h"
#include "runner.h"
#ifdef REDLAB_HAS_CUDA
#include "../../kernels/bench_api.h"
#endif

namespace rl::backend {
namespace {

using core::Narrow;

// The rungs as core::precision_ladder orders them: element type, then what it adds in.
constexpr std::pair<Narrow, Narrow> kRungs[] = {{Narrow::Half, Narrow::Half},   {Narrow::Half, Narrow::Float},
                                                {Narrow::Bf16, Narrow::Bf16},   {Narrow::Bf16, Narrow::Float},
                                                {Narrow::Float, Narrow::Float}, {Narrow::Double, Narrow::Double}};

std::vector<double> held_as(const std::vector<double>& values, Narrow t) {
  std::vector<double> held(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) held[i] = core::round_to_type(values[i], core::dtype_of(t));
  return held;
}

// The CPU model of the algorithm in the rung's types: the GPU's order of adds, on the CPU.
double model_sum(kernels::Algo algo, const std::vector<double>& held, Narrow element, Narrow acc, int block) {
  const kernels::Launch launch{block, 0, 0};
  const core::Accumulate adds = acc == element ? core::Accumulate::Same : core::Accumulate::Float;
  return with_types(core::dtype_of(element), adds, [&]<class T, class In>() {
    const std::vector<In> values = typed_as<In>(held);
    const kernels::Plan plan = model::model_plan(algo, {1, values.size()}, launch, sizeof(In), false);
    return double(model::model_run<T, In>(plan, kernels::OpKind::Sum, values.data(), nullptr)[0]);
  });
}

#ifdef REDLAB_HAS_CUDA

void run_on_gpu(LadderRun& run, kernels::Algo algo, const std::vector<double>& values, double max_seconds,
                const std::atomic<bool>* cancel) {
  kernels::BenchSession session;
  run.device = session.device().name;
  run.peak_gbps = session.device().peak_gbps;
  kernels::BenchSettings settings;
  settings.max_seconds = max_seconds;
  const int block = kernels::preferred_block(algo, values.size(), session.device().sm_count);
  for (const auto& [element, acc] : kRungs) {
    if (cancel && cancel->load()) return;
    const std::vector<double> held = held_as(values, element);
    session.set_values(core::dtype_of(element), held,
                       acc == element && (element == Narrow::Half || element == Narrow::Bf16));
    const kernels::Plan plan =
        kernels::gpu_plan(algo, {1, values.size()}, {block, 0, 0}, core::element_bytes(core::dtype_of(element)), false);
    const kernels::Timing t = session.time(plan, kernels::OpKind::Sum, settings, cancel);
    LadderRung r;
    r.rung = core::rung_of(held, element, acc, t.result);
    r.median_us = t.median_us;
    r.noise_pct = t.noise_pct;
    r.gbps = t.median_us > 0
                 ? double(values.size() * core::element_bytes(core::dtype_of(element))) / (t.median_us * 1e3)
                 : 0;
    run.rungs.push_back(r);
  }
}
#endif

}  // namespace

bool ladder_takes(const std::string& algorithm) {
  const kernels::AlgorithmRow* row = kernels::find_row(algorithm);
  return row && row->narrow && !kernels::is_baseline(*row) && row->shape == kernels::Shape::Array;
}

LadderRun run_ladder(const std::string& algorithm, const std::vector<double>& values, Choice backend,
                     [[maybe_unused]] double max_seconds, const std::atomic<bool>* cancel) {
  if (!ladder_takes(algorithm)) {
    std::string ids;
    for (const auto& r : kernels::kAlgorithms)
      if (ladder_takes(std::string(r.id))) ids += (ids.empty() ? "" : ", ") + std::string(r.id);
    throw std::invalid_argument("the ladder runs through an array kernel that takes half and bf16 (" + ids +
                                "), not '" + core::printable(algorithm) + "'");
  }
  const kernels::Algo algo = kernel_algo(algorithm);
  if (values.empty()) throw std::invalid_argument("the ladder needs at least one value");
  LadderRun run;
  run.algorithm = algorithm;
  run.date = core::utc_now();
  std::string why;
  const bool gpu = backend != Choice::Sim && make_cuda_backend(&why) != nullptr;
  if (backend == Choice::Cuda && !gpu) throw std::runtime_error("the cuda backend cannot run: " + why);
#ifdef REDLAB_HAS_CUDA
  if (gpu) {
    run.gpu = true;
    try {
      run_on_gpu(run, algo, values, max_seconds, cancel);
    } catch (const kernels::CudaError& e) {
      throw std::runtime_error(std::string("the ladder failed on the GPU: ") + e.what());
    }
    return run;
  }
#endif
  run.device = "CPU model";
  for (const auto& [element, acc] : kRungs) {
    if (cancel && cancel->load()) break;
    const std::vector<double> held = held_as(values, element);
    LadderRung r;
    const int block = kernels::preferred_block(algo, held.size(), model::kModelSmCount);  // as the GPU path picks
    r.rung = core::rung_of(held, element, acc, model_sum(algo, held, element, acc, block));
    run.rungs.push_back(r);
  }
  return run;
}

std::string ladder_text(const LadderRun& run) {
  std::string out = run.algorithm + " on " + (run.gpu ? run.device : "the CPU model (its order of adds, untimed)") +
                    ", " + run.date + "\n";
  char line[200];
  std::snprintf(line, sizeof line, "%-7s %-7s %26s %10s %7s %10s %8s\n", "type", "adds in", "result", "ulps", "digits",
                "us", "GB/s");
  out += line;
  for (const LadderRung& r : run.rungs) {
    const auto digits = core::correct_digits(r.rung);
    const std::string ulps = r.rung.ulps ? std::to_string(*r.rung.ulps) : "-";
    char us[32] = "-", gbps[32] = "-";
    if (run.gpu) std::snprintf(us, sizeof us, "%.2f", r.median_us), std::snprintf(gbps, sizeof gbps, "%.0f", r.gbps);
    std::snprintf(line, sizeof line, "%-7s %-7s %26.17g %10s %7s %10s %8s\n", core::narrow_name(r.rung.element).c_str(),
                  core::narrow_name(r.rung.accumulator).c_str(), r.rung.result, ulps.c_str(),
                  digits ? std::to_string(int(*digits)).c_str() : "-", us, gbps);
    out += line;
  }
  if (!run.rungs.empty()) {
    std::snprintf(line, sizeof line, "exact sum of the values as double holds them: %.17Lg\n",
                  run.rungs.back().rung.reference);
    out += line;
  }
  return out;
}

}  // namespace rl::backend
