// What the tests of kernels of your own share.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <string>

#include "app/own/nvrtc.h"

namespace rl {

// NVRTC must load here, or the test says why it skipped (or fails, where it is required).
inline bool nvrtc_or_skip() {
  std::string why;
  if (own::nvrtc_ready(&why)) return true;
  if (const char* need = std::getenv("REDLAB_REQUIRE_NVRTC"); need && std::string(need) == "1")
    ADD_FAILURE() << "REDLAB_REQUIRE_NVRTC=1: " << why;
  return false;
}

// The message a call throws, or "(no error)" where it returned.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace rl
