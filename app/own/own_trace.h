// A run of a kernel of your own as a trace like any other (core::Trace): the stages are the
// barriers (and rl_lanes steps) the traced block passed, the code is the student's file, and
// what the CPU path's checks found travels as its findings. The views, the player, exports and
// "open a recorded run" take it as they take ours.
#pragma once
#include "../core/trace.h"
#include "own_run.h"

namespace rl::own {

// `op` is what the kernel is meant to compute (the run is checked against it); the file cannot say.
core::Trace own_trace(const OwnRequest& request, const OwnRun& run, core::Op op);

// The trace's algorithm name for a file: "own:" and the kernel's name without template arguments.
std::string own_algorithm(const OwnLaunch& launch);

}  // namespace rl::own
