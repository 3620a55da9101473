#include <ctime>

#include "../../kernels/race_api.h"
#include "../../kernels/model/model.h"
#include "backend.h"
#include "runner.h"
#include "../core/text.h"

namespace rl::backend {
namespace {


// N recorded runs on the GPU, checked block by block against the model; the kept block's log
// replayed against the model's trace of that block.
template <class T>
core::Trace run_race(const TraceRequest& req, int runs) {
  const kernels::Algo algo = kernel_algo(req);
  const std::vector<T> typed(req.input.begin(), req.input.end());
  const kernels::Launch launch{req.block, 0, req.trace_block, nullptr};
  kernels::check_race_launch(algo, typed.size(), launch);  // before the model runs the whole input
  kernels::RawTrace<T> meant;
  const kernels::Matrix array{1, typed.size()};
  const T expected =
      model::model_run<T>(model::model_plan(algo, array, launch, sizeof(T), true), req.op, typed.data(), &meant)[0];
  const auto gpu = kernels::gpu_race_runs<T>(algo, req.op, typed.data(), typed.size(), launch, runs, meant.partials);
  TraceRequest kept = req;
  kept.trace_block = gpu.block;
  core::Trace t = run_trace<T>(kept, plan_for(kept, model::kModelDevice), model::model_run<T, T>);
  core::Race race;
  race.runs = runs;
  race.blocks = meant.partials.size();
  race.expected = double(expected);
  race.results.assign(gpu.results.begin(), gpu.results.end());
  race.wrong_blocks = gpu.wrong_blocks;
  race.first_wrong = gpu.first_wrong;
  race.block = gpu.block;
  core::replay(t, std::vector<double>(gpu.log.begin(), gpu.log.end()), race);
  t.partials.assign(gpu.partials.begin(), gpu.partials.end());
  t.result = race.results[std::size_t(core::replayed_run(race))];
  race.date = core::utc_now();
  t.race = std::move(race);
  return t;
}

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(std::string device) : device_(std::move(device)) {}
  std::string name() const override { return "cuda"; }
  std::string device() const override { return device_; }
  std::size_t device_memory_used() const override { return kernels::cuda_memory_used(); }
  kernels::DeviceShape device_shape() const override { return kernels::cuda_device_shape(); }
  core::Trace race(const TraceRequest& req, int runs) override {
    if (core::is_narrow(req.type))
      throw std::invalid_argument("race recordings take int, float and double, not " + core::to_string(req.type));
    try {
      core::Trace t = req.type == core::DType::Int     ? run_race<int>(req, runs)
                      : req.type == core::DType::Float ? run_race<float>(req, runs)
                                                       : run_race<double>(req, runs);
      t.backend = name();
      t.device = device_;
      return t;
    } catch (const kernels::CudaError& e) {
      throw std::runtime_error(std::string("GPU run failed: ") + e.what());
    }
  }
  core::Trace trace(const TraceRequest& req) override {
    // Undefined on a GPU by design: shown from the CPU model, and labelled as such.
    const kernels::Algo algo = kernel_algo(req);
    if (!kernels::gpu_launchable(algo)) {
      core::Trace t = model_->trace(req);
      t.device = "CPU model (never launched on a GPU: undefined behaviour)";
      return t;
    }
    try {
      const kernels::Plan plan = plan_for(req, device_shape());
      core::Trace t =
          with_types(req, [&]<class T, class In>() { return run_trace<T, In>(req, plan, kernels::gpu_run<T, In>); });
      t.backend = name();
      t.device = device_;
      return t;
    } catch (const kernels::CudaError& e) {
      throw std::runtime_error(std::string("GPU run failed: ") + e.what());
    }
  }

 private:
  std::string device_;
  std::unique_ptr<Backend> model_ = make_sim_backend();
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
  try {
    if (!kernels::cuda_available(why)) return nullptr;
    return std::make_unique<CudaBackend>(kernels::cuda_device_name());
  } catch (const kernels::CudaError& e) {
    if (why) *why = e.what();
    return nullptr;
  }
}

}  // namespace rl::backend
