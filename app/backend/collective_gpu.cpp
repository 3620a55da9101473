// The family across GPUs on the GPUs (collective.h): our kernels over peer access, a buffer a GPU.
#include <stdexcept>

#include "../../kernels/all_reduce_api.h"
#include "../../kernels/collectives.h"
#include "../../kernels/gpu_api.h"
#include "collective.h"
#include "runner.h"

namespace rl::backend {
namespace {

namespace ar = model::all_reduce;

// The GPUs' run in the model's shape: the model's moves, the GPUs' values.
template <class T>
ar::Run on_gpus(const CollectiveRequest& r, ar::Run plan) {
  std::vector<int> devices;
  std::vector<std::vector<T>> inputs;
  for (std::size_t g = 0; g < r.inputs.size(); ++g) {
    devices.push_back(int(g));
    inputs.push_back(typed_as<T>(r.inputs[g]));
  }
  kernels::AllReduceSteps steps;
  const auto results = kernels::gpu_all_reduce<T>(plan.algorithm, devices, inputs, kernels::kKeptChunkValues, &steps);
  for (std::size_t k = 0; k < plan.steps.size() && k < steps.size(); ++k) plan.steps[k].after = steps[k];
  for (std::size_t g = 0; g < results.size(); ++g) plan.results[g] = doubles(results[g].begin(), results[g].end());
  return plan;
}

ar::Run run_on_gpus(const CollectiveRequest& r, const ar::Run& plan) {
  switch (r.type) {
    case core::DType::Int: return on_gpus<int>(r, plan);
    case core::DType::Float: return on_gpus<float>(r, plan);
    case core::DType::Double: return on_gpus<double>(r, plan);
    case core::DType::Half: return on_gpus<narrow::Half>(r, plan);
    case core::DType::Bf16: return on_gpus<narrow::Bf16>(r, plan);
  }
  throw std::invalid_argument("an all-reduce of an unknown type");
}

}  // namespace

int gpus_present() { return kernels::cuda_device_count(); }

core::Trace trace_collective_gpu(const CollectiveRequest& r) {
  const ar::Run model = model_run(r);
  const int present = gpus_present();
  if (present < model.gpus)
    throw std::invalid_argument(r.algorithm + " over " + std::to_string(model.gpus) + " GPUs: this machine has " +
                                std::to_string(present) +
                                (present < ar::kMinGpus ? ", and an all-reduce across GPUs needs 2 or more"
                                                        : "; ask for --gpus " + std::to_string(present) + " or fewer") +
                                " (the CPU model runs any count from 2 to 8: --backend sim)");
  const ar::Run ran = run_on_gpus(r, model);
  core::Trace t = collective_trace(r, ran);
  t.backend = "cuda";
  t.device = std::to_string(model.gpus) + " x " + kernels::cuda_device_name();
  if (ran.results != model.results || [&] {
        for (std::size_t k = 0; k < ran.steps.size(); ++k)
          if (ran.steps[k].after != model.steps[k].after) return true;
        return false;
      }())
    t.findings.push_back({"model-mismatch",
                          "the GPUs' values differ from the CPU model's (kernels/all_reduce.cuh "
                          "against kernels/model/all_reduce.cpp)",
                          0});
  return t;
}

}  // namespace rl::backend
