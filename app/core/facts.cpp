#include "facts.h"

#include <vector>

namespace rl::core {
namespace {

std::vector<int> active_per_warp(const Stage& stage, int block) {
  std::vector<int> count((block + 31) / 32, 0);
  for (int t : stage.active)
    if (t >= 0 && t < block) ++count[t / 32];
  return count;
}

}  // namespace

int divergent_warps(const Stage& stage, int block) {
  int n = 0;
  const auto count = active_per_warp(stage, block);
  for (std::size_t w = 0; w < count.size(); ++w) {
    const int size = std::min(32, block - int(w) * 32);
    if (count[w] > 0 && count[w] < size) ++n;
  }
  return n;
}

int busy_warps(const Stage& stage, int block) {
  int n = 0;
  for (int c : active_per_warp(stage, block)) n += c > 0;
  return n;
}

std::string stage_caption(const Trace& t, int k) {
  if (k < 0 || k >= int(t.stages.size())) return {};
  const Stage& s = t.stages[k];
  const int busy = busy_warps(s, t.block), divergent = divergent_warps(s, t.block);
  std::string out = s.label + ": " + std::to_string(s.active.size()) + " of " +
                    std::to_string(t.block) + " threads active in " + std::to_string(busy) +
                    (busy == 1 ? " warp" : " warps");
  out += "; " + std::to_string(divergent) + (divergent == 1 ? " divergent warp" : " divergent warps");
  return out;
}

}  // namespace rl::core
