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

// The request to run `source` (named `file` in messages) over `values` of `type` (float, int or
// double; std::invalid_argument for others): block 0 takes the file's.
OwnRequest own_request(std::string source, std::string file, core::DType type, const std::vector<double>& values,
                       int block, unsigned trace_block);
// Runs it on the GPU or (NVRTC's PTX interpreted) on the CPU and makes its trace; throws as
// run_on_cpu and run_on_gpu do. Where the run found nothing and check_seed is not 0, the kernel
// is run again at the other sizes own_check.h names, over random:check_seed inputs (and, for ints,
// a second draw: check_other_sizes), and what failed there becomes the trace's findings.
core::Trace trace_own(const OwnRequest& request, bool gpu, core::Op op, std::uint64_t check_seed);
// The checks trace_own runs after the run that made `trace` (a second warp schedule on the CPU,
// then the other sizes): the window runs them once the trace is on screen.
std::vector<core::Finding> later_findings(const OwnRequest& request, bool gpu, core::Op op, const core::Trace& trace,
                                          std::uint64_t check_seed);

// The trace's algorithm name for a file: "own:" and the kernel's name without template arguments.
std::string own_algorithm(const OwnLaunch& launch);

}  // namespace rl::own
