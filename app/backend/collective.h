// The family "across GPUs" (kernels/collectives.h): an all-reduce's trace, a step a stage, from
// the CPU model of every step (kernels/model/all_reduce.h).
#pragma once
#include <string>
#include <vector>

#include "../core/trace.h"

namespace rl::backend {

struct CollectiveRequest {
  std::string algorithm;  // a kernels::kCollectives id
  core::Op op = core::Op::Sum;
  core::DType type = core::DType::Int;
  core::Accumulate accumulate = core::Accumulate::Same;  // half and bf16: a GPU's buffer holds the element type
  std::vector<std::vector<double>> inputs;               // one buffer a GPU, each already rounded to the type
};

// Values a GPU an all-reduce's trace takes: the model keeps every GPU's buffer.
constexpr std::size_t kMaxCollectiveTrace = std::size_t(1) << 20;

// Why the family refuses the request, in words; empty when it takes it.
std::string collective_refusal(const CollectiveRequest& request);
// The CPU model's trace. Throws std::invalid_argument with collective_refusal's words.
core::Trace trace_collective(const CollectiveRequest& request);

}  // namespace rl::backend
