#include "../../kernels/reference/tree_model.h"
#include "backend.h"
#include "tree_runner.h"

namespace rl::backend {
namespace {

class SimBackend final : public Backend {
 public:
  std::string name() const override { return "sim"; }
  std::string device() const override { return "CPU model"; }
  core::Trace trace(const TraceRequest& req) override {
    core::Trace t = req.type == core::DType::Int ? run_tree<int>(req, model::tree_reduce<int>)
                                                 : run_tree<float>(req, model::tree_reduce<float>);
    t.backend = name();
    t.device = device();
    return t;
  }
};

}  // namespace

std::unique_ptr<Backend> make_sim_backend() { return std::make_unique<SimBackend>(); }

}  // namespace rl::backend
