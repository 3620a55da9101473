// Built instead of cuda_backend.cpp when no CUDA toolkit was found at configure time.
#include "backend.h"

namespace rl::backend {

std::unique_ptr<Backend> make_cuda_backend(std::string* why) {
  if (why) *why = "this build has no CUDA support (no CUDA toolkit at build time)";
  return nullptr;
}

}  // namespace rl::backend
