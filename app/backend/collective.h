// The family "across GPUs" (kernels/collectives.h): an all-reduce's trace, a step a stage, from
// the CPU model of every step (kernels/model/all_reduce.h).
#pragma once
#include <string>
#include <vector>

#include "../../kernels/model/all_reduce.h"
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

// One buffer a GPU from a flat list, GPU 0's values first. Throws std::invalid_argument, its words
// starting with `what`, where the list does not cut into `gpus` non-empty buffers of one size.
std::vector<std::vector<double>> split_buffers(const std::vector<double>& all, int gpus, const std::string& what);

// Why the family refuses an operator (it adds alone), in words; empty for the sum.
std::string collective_op_refusal(const std::string& algorithm, core::Op op);
// Why the family refuses the request, in words; empty when it takes it.
std::string collective_refusal(const CollectiveRequest& request);
// The CPU model's run of the request, each step keeping kernels::kKeptChunkValues of every chunk.
// Throws std::invalid_argument with collective_refusal's words.
model::all_reduce::Run model_run(const CollectiveRequest& request);
// The CPU model's trace (backend "sim").
core::Trace trace_collective(const CollectiveRequest& request);
// A run's trace: its steps as stages, its results every GPU's (the model's, or a GPU run's in the
// model's shape).
core::Trace collective_trace(const CollectiveRequest& request, const model::all_reduce::Run& run);

// The ring's and the one-shot's results over the same buffers, element by element: where their
// orders of adds give other bits (the determinism lab's question, one level up).
struct OrderDifference {
  std::size_t elements = 0, differing = 0;
  std::size_t first = 0;          // the first element that differs (when any does)
  double ring = 0, one_shot = 0;  // its two sums
};
OrderDifference compare_orders(CollectiveRequest request);

// GPUs this machine has (0 without CUDA or a driver).
int gpus_present();
// Our kernels over peer access (kernels/all_reduce.cuh), buffer g on GPU g (backend "cuda"), beside
// the model: a difference becomes a finding. Throws std::invalid_argument where the machine has
// fewer GPUs than buffers, std::runtime_error for a GPU failure (no peer access, out of memory).
core::Trace trace_collective_gpu(const CollectiveRequest& request);

}  // namespace rl::backend
