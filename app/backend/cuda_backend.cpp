#include "backend.h"
#include "runner.h"

namespace rl::backend {
namespace {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(std::string device) : device_(std::move(device)) {}
  std::string name() const override { return "cuda"; }
  std::string device() const override { return device_; }
  std::size_t device_memory_used() const override { return kernels::cuda_memory_used(); }
  core::Trace trace(const TraceRequest& req) override {
    // Undefined on a GPU by design: shown from the CPU model, and labelled as such.
    if (!kernels::gpu_launchable(kernel_algo(req.algorithm))) {
      core::Trace t = model_->trace(req);
      t.device = "CPU model (never launched on a GPU: undefined behaviour)";
      return t;
    }
    try {
      core::Trace t;
      if (kernels::is_matrix(kernel_algo(req.algorithm)))
        t = req.type == core::DType::Int     ? run_matrix_trace<int>(req, kernels::gpu_reduce_matrix<int>)
            : req.type == core::DType::Float ? run_matrix_trace<float>(req, kernels::gpu_reduce_matrix<float>)
                                             : run_matrix_trace<double>(req, kernels::gpu_reduce_matrix<double>);
      else
        t = req.type == core::DType::Int     ? run_trace<int>(req, kernels::gpu_reduce<int>)
            : req.type == core::DType::Float ? run_trace<float>(req, kernels::gpu_reduce<float>)
                                             : run_trace<double>(req, kernels::gpu_reduce<double>);
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
