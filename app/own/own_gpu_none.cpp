// A build without the CUDA backend: kernels of your own run on the CPU path only.
#include <stdexcept>

#include "own_run.h"

namespace rl::own {

OwnRun run_on_gpu(const OwnRequest&) {
  throw std::runtime_error("this build has no CUDA backend: run a kernel of your own on the CPU path (--backend sim)");
}

}  // namespace rl::own
