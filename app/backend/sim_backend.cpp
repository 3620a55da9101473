#include "../../kernels/model/model.h"
#include "backend.h"
#include "runner.h"

namespace rl::backend {
namespace {

class SimBackend final : public Backend {
 public:
  std::string name() const override { return "sim"; }
  std::string device() const override { return "CPU model"; }
  core::Trace trace(const TraceRequest& req) override {
    const kernels::Algo algo = kernel_algo(req);
    core::Trace t;
    if (kernels::is_matrix(algo))
      t = req.type == core::DType::Int     ? run_matrix_trace<int>(req, algo, model::model_reduce_matrix<int>)
          : req.type == core::DType::Float ? run_matrix_trace<float>(req, algo, model::model_reduce_matrix<float>)
                                           : run_matrix_trace<double>(req, algo, model::model_reduce_matrix<double>);
    else
      t = req.type == core::DType::Int     ? run_trace<int>(req, algo, model::model_reduce<int>)
          : req.type == core::DType::Float ? run_trace<float>(req, algo, model::model_reduce<float>)
                                           : run_trace<double>(req, algo, model::model_reduce<double>);
    t.backend = name();
    t.device = device();
    return t;
  }
};

}  // namespace

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<SimBackend>(); }

}  // namespace rl::backend
