#include "backend.h"

#include <algorithm>
#include <utility>
#include <map>
#include <mutex>
#include <stdexcept>

#include "../../kernels/algorithms.h"
#include "../core/facts.h"
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

core::AlgorithmInfo with_numbers(core::AlgorithmInfo info) {
  const auto needs = [](const std::string& text) { return text.find('{') != std::string::npos; };
  const bool look = info.look && needs(info.look->text);
  if (info.kind == core::Kind::Baseline || !(needs(info.lesson) || needs(info.brief) || needs(info.detail) || look))
    return info;
  // One model run per algorithm: the window asks every frame until its own trace is on screen.
  static std::mutex mutex;
  static std::map<std::string, core::Trace> runs;
  std::lock_guard lock(mutex);
  auto it = runs.find(info.id);
  if (it == runs.end()) {
    constexpr int kBlock = 256;
    std::vector<double> iota(kBlock);
    for (int i = 0; i < kBlock; ++i) iota[std::size_t(i)] = i + 1;
    it = runs.emplace(info.id, make_sim_backend()->trace({info.id, core::Op::Sum, core::DType::Int, kBlock, 0, iota})).first;
  }
  return core::fill_lessons(std::move(info), it->second);
}

}  // namespace rl::backend
