// Built instead of cuda_backend.cpp when the build has no CUDA (no toolkit, or REDLAB_CUDA=OFF).
#include "backend.h"

namespace rl::backend {

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
  if (why) *why = "this build has no CUDA backend (built without CUDA: no toolkit, or no GPU when it was built)";
  return nullptr;
}

}  // namespace rl::backend
