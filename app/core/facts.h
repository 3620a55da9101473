// Facts derived from a trace's recordings (never typed in), and captions built from them.
#pragma once
#include <string>

#include "trace.h"

namespace rl::core {

// Warps that had some but not all of their threads active in the stage.
int divergent_warps(const Stage& stage, int block);
// Warps with at least one active thread: each of them issues the stage's instructions.
int busy_warps(const Stage& stage, int block);
// "stride 8: 8 of 32 threads active in 1 warp; 0 divergent warps".
std::string stage_caption(const Trace& trace, int stage);

}  // namespace rl::core
