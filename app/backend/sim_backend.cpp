#include "../../kernels/model/model.h"
#include "backend.h"
#include "runner.h"

namespace rl::backend {
namespace {

class SimBackend final : public Backend {
 public:
  std::string name() const override { return "sim"; }
  std::string device() const override { return "CPU model"; }
  kernels::DeviceShape device_shape() const override { return model::kModelDevice; }
  core::Trace trace(const TraceRequest& req) override {
    const kernels::Plan plan = plan_for(req, device_shape());
    core::Trace t =
        with_types(req, [&]<class T, class In>() { return run_trace<T, In>(req, plan, model::model_run<T, In>); });
    t.backend = name();
    t.device = device();
    return t;
  }
};

}  // namespace

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<SimBackend>(); }

}  // namespace rl::backend
