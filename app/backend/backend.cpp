#include "backend.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "../../kernels/algorithms.h"
#include "runner.h"

namespace rl::backend {

kernels::Algo kernel_algo(const std::string& id) {
  const auto* row = kernels::find_row(id);
  if (row && !kernels::is_baseline(*row)) return row->algo;
  if (row) throw std::invalid_argument("'" + id + "' is a baseline: it is timed by `bench`, it has no stages to trace");
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
