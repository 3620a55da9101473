// A build without CUDA: the family across GPUs runs in the CPU model alone (collective.h).
#include <stdexcept>

#include "collective.h"

namespace rl::backend {

int gpus_present() { return 0; }

core::Trace trace_collective_gpu(const CollectiveRequest& r) {
  throw std::runtime_error(r.algorithm + " on GPUs: this build has no CUDA; the CPU model runs it (--backend sim)");
}

}  // namespace rl::backend
