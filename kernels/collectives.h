// The family "across GPUs" (issue 52): the all-reduce of N GPUs' buffers, one level up from a
// reduction inside one GPU. Its own table beside kAlgorithms: its rows launch no block of threads
// over one array, so none of that table's columns (combine, indexing, tree, blocks) apply.
#pragma once
#include <string_view>

#include "model/all_reduce.h"

namespace rl::kernels {

inline constexpr std::string_view kAcrossGpus = "across GPUs";  // the family's name in `list`

struct CollectiveRow {
  std::string_view id;
  model::all_reduce::Algorithm algorithm;
  std::string_view title;
  // The code the window shows beside its steps, holding `// <<< id`: the CPU model's, until our
  // kernels over peer access run it.
  std::string_view source = "kernels/model/all_reduce.cpp";
};

inline constexpr CollectiveRow kCollectives[] = {
    {"ring-all-reduce", model::all_reduce::Algorithm::Ring, "Ring all-reduce: a reduce-scatter, then an all-gather"},
    {"one-shot-all-reduce", model::all_reduce::Algorithm::OneShot,
     "One-shot all-reduce: every GPU reads every peer's buffer and adds"},
};

constexpr const CollectiveRow* find_collective(std::string_view id) {
  for (const auto& r : kCollectives)
    if (r.id == id) return &r;
  return nullptr;
}

// GPUs a trace of the model takes when none are asked for and no GPUs run it.
inline constexpr int kModelGpus = 4;
// Values a collective's trace keeps of each chunk at every step (its first ones): what the view shows.
inline constexpr std::size_t kKeptChunkValues = 4;

}  // namespace rl::kernels
