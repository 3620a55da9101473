#include <stdexcept>
#include <string>

#include "reduce_api.h"

namespace rl::kernels {

int tree_stage_count(int block) {
  int stages = 1;  // the load
  for (int s = 1; s < block; s *= 2) ++stages;
  return stages;
}

void check_launch(std::size_t n, int block, bool traced, int trace_block) {
  if (n == 0) throw std::invalid_argument("size must be at least 1");
  if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
    throw std::invalid_argument("block size must be a power of two from 32 to 1024, got " +
                                std::to_string(block));
  const std::size_t grid = (n + static_cast<std::size_t>(block) - 1) / block;
  if (traced && (trace_block < 0 || static_cast<std::size_t>(trace_block) >= grid))
    throw std::invalid_argument("trace block " + std::to_string(trace_block) +
                                " is outside the grid of " + std::to_string(grid) + " block(s)");
}

}  // namespace rl::kernels
