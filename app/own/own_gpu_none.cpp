// A build without the CUDA backend: kernels of your own run on the CPU path only.
#include <stdexcept>

#include "own_bench.h"
#include "own_run.h"

namespace rl::own {

OwnRun run_on_gpu(const OwnRequest&) {
  throw std::runtime_error("this build has no CUDA backend: run a kernel of your own on the CPU path (--backend sim)");
}

void warm_up_gpu() {}

kernels::Timing time_own(const OwnRequest&, std::size_t, kernels::BenchSession&, const kernels::BenchSettings&,
                         const std::atomic<bool>*) {
  throw std::runtime_error("this build has no CUDA backend: a kernel of your own is timed on a GPU only");
}

}  // namespace rl::own
