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

std::vector<std::size_t> traced_elements(kernels::Algo algo, std::size_t n, int block, std::size_t grid, int traced,
                                         std::size_t per_vector, const std::vector<int>& tickets) {
  using A = kernels::Algo;
  std::vector<std::size_t> out;
  const std::size_t b = std::size_t(block), k = std::size_t(traced);
  switch (algo) {
    case A::GlobalHalving:
      for (std::size_t i = 0; i < n; ++i) out.push_back(i);
      break;
    case A::FirstAddOnLoad:
    case A::UnrollLastWarp:
    case A::CompleteUnroll:
    case A::LegacyWarpSynchronous:
      for (std::size_t i = k * 2 * b; i < std::min(n, (k + 1) * 2 * b); ++i) out.push_back(i);
      break;
    case A::WarpShuffleVectorized: {  // 16-byte vectors by grid stride, then the scalar tail
      const std::size_t vectors = n / per_vector, threads = grid * b;
      for (std::size_t start = k * b; start < vectors; start += threads)
        for (std::size_t j = start; j < std::min(vectors, start + b); ++j)
          for (std::size_t e = 0; e < per_vector; ++e) out.push_back(per_vector * j + e);
      for (std::size_t i = per_vector * vectors + k * b; i < n; i += threads)
        for (std::size_t e = i; e < std::min(n, i + b); ++e) out.push_back(e);
      break;
    }
    case A::WorkQueue: {  // the tickets the block took, then the scalar tail
      const std::size_t vectors = n / per_vector, chunk = std::size_t(kernels::kQueueVectors) * b;
      for (std::size_t c = 0; c < tickets.size(); ++c)
        if (tickets[c] == traced)
          for (std::size_t j = c * chunk; j < std::min(vectors, (c + 1) * chunk); ++j)
            for (std::size_t e = 0; e < per_vector; ++e) out.push_back(per_vector * j + e);
      for (std::size_t i = per_vector * vectors + k * b; i < n; i += grid * b)
        for (std::size_t e = i; e < std::min(n, i + b); ++e) out.push_back(e);
      break;
    }
    case A::MultiplePerThread:  // pairs of tiles a block apart, every grid-wide stride
      for (std::size_t start = k * 2 * b; start < n; start += grid * 2 * b)
        for (std::size_t i = start; i < std::min(n, start + 2 * b); ++i) out.push_back(i);
      break;
    case A::CgTwoPhase:
    case A::CgReduceUpdateAsync:
    case A::CgGridSync:  // a block's tile of every grid-wide stride
      for (std::size_t start = k * b; start < n; start += grid * b)
        for (std::size_t i = start; i < std::min(n, start + b); ++i) out.push_back(i);
      break;
    default:
      for (std::size_t i = k * b; i < std::min(n, (k + 1) * b); ++i) out.push_back(i);
  }
  return out;
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
