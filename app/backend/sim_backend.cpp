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
    core::Trace t = with_types(req, [&]<class T, class In>() {
      if (kernels::is_matrix(algo)) return run_matrix_trace<T, In>(req, algo, model::model_reduce_matrix<T, In>);
      return run_trace<T, In>(req, algo, model::model_reduce<T, In>);
    });
    t.backend = name();
    t.device = device();
    return t;
  }
};

}  // namespace

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<SimBackend>(); }

}  // namespace rl::backend
