// The hardware's own counters, shipped with the program: Nsight Compute's figures of one GPU
// call (assets/counters/RUN.json, written by scripts/ncu-counters.py), checked field by field
// before a lesson quotes them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl::core {

struct KernelCounters {
  std::string algorithm;           // the catalog id
  std::string kernel;              // the kernel ncu profiled, as it named it
  int launches = 1;                // the launches summed: 1, or every launch of one reduction
  std::uint64_t instructions = 0;  // warp instructions executed (smsp__inst_executed.sum)
  double duration_us = 0;
  std::size_t grid = 0;
  int block = 0;
};

struct Counters {
  std::string device, driver, recorded, tool, metric, request, type;
  std::size_t n = 0;
  std::vector<KernelCounters> kernels;
  const KernelCounters* find(std::string_view algorithm) const;
};

// Throws std::runtime_error naming the field that is missing, of the wrong type or out of range.
Counters parse_counters(const std::string& json_text);
// The shipped counters of a GPU run ("h100"), parsed once; null where the program has none.
// Throws as parse_counters does.
const Counters* shipped_counters(std::string_view run);
// "42.8 million": a count for a sentence.
std::string millions(std::uint64_t count);

}  // namespace rl::core
