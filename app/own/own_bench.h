// bench --kernel FILE: a kernel of your own timed on the GPU with the catalog's harness
// (kernels/bench_api.h: cold L2, CUDA events, median and noise, throttled samples left out),
// launch after launch until one value is left, as its file says. Untraced: the sink is left
// unarmed, so reduction_lab.cuh's barriers only synchronise.
#pragma once
#include <atomic>
#include <cstddef>

#include "../../kernels/bench_api.h"
#include "own_run.h"

namespace rl::own {

// Times `request`'s kernel (its source, file, block and value type; its input is the session's
// current one, n elements of that type). Throws CompileError, std::invalid_argument for a
// launch the file's lines cannot make at n, std::runtime_error without the CUDA backend.
kernels::Timing time_own(const OwnRequest& request, std::size_t n, kernels::BenchSession& session,
                         const kernels::BenchSettings& settings, const std::atomic<bool>* cancel);

}  // namespace rl::own
