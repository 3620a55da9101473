// How long one warp waits for its warp stage: redux-sync's REDUX against warp-shuffle's five
// shuffles and adds (issue 34: the machine code in redux-sync's lesson "with the time of each").
// Plain C++: host code needs no nvcc.
#pragma once
#include <cstdint>
#include <vector>

namespace rl::kernels {

struct WarpStageCycles {
  int stages = 0;      // stages in each timed chain
  double redux = 0;    // SM clock cycles a stage: one __reduce_add_sync
  double shuffle = 0;  // five __shfl_down_sync, an add after each
};

// Times int sum chains of `stages` stages in one warp alone on the GPU with clock64, each stage
// fed by the one before (so the figure is the stage's latency, what a warp waits), the fewest
// cycles of `repeats` launches. Each chain's 32 lanes are checked against warp_stage_chain below;
// a mismatch throws std::logic_error. Throws CudaError without a GPU, std::invalid_argument
// on a GPU older than sm_80 (no redux.sync).
WarpStageCycles time_warp_stages(int stages = 4096, int repeats = 5);

// The lanes a chain leaves, as the hardware computes them (int sums wrap): redux gives every lane
// the 32 lanes' total; a shuffle stage adds lane + offset's value (a lane past 31 its own).
std::vector<std::int32_t> warp_stage_chain(bool redux, int stages);

}  // namespace rl::kernels
