#include "backend.h"

#include <stdexcept>

#include "tree_runner.h"

namespace rl::backend {

kernels::Algo kernel_algo(const std::string& id) {
  if (id == "interleaved-divergent") return kernels::Algo::InterleavedDivergent;
  if (id == "interleaved-bank-conflicts") return kernels::Algo::InterleavedBankConflicts;
  if (id == "sequential") return kernels::Algo::Sequential;
  throw std::invalid_argument("unknown algorithm '" + id + "'");
}

kernels::OpKind kernel_op(core::Op op) {
  switch (op) {
    case core::Op::Sum: return kernels::OpKind::Sum;
    case core::Op::Min: return kernels::OpKind::Min;
    case core::Op::Max: return kernels::OpKind::Max;
  }
  return kernels::OpKind::Sum;
}

Selection select(Choice choice) {
  Selection sel;
  if (choice == Choice::Sim) {
    sel.backend = make_sim_backend();
    return sel;
  }
  std::string why;
  sel.backend = make_cuda_backend(&why);
  if (sel.backend) return sel;
  if (choice == Choice::Cuda) throw std::runtime_error("the cuda backend cannot run: " + why);
  sel.backend = make_sim_backend();
  sel.fallback_reason = why;
  return sel;
}

std::string status_line(const Selection& sel) {
  if (!sel.backend) return "no backend";
  if (sel.backend->name() == "cuda") return "GPU: " + sel.backend->device();
  return "CPU model: " + (sel.fallback_reason.empty() ? std::string("chosen by the user")
                                                       : sel.fallback_reason);
}

}  // namespace rl::backend
