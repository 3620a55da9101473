// A headless OpenGL 3.3 core context through EGL (no display): the NVIDIA driver's device
// platform on a GPU machine, Mesa's surfaceless or default platform elsewhere.
#pragma once
#include <memory>
#include <string>

namespace rl::platform {

class HeadlessContext {
 public:
  // nullptr with *error naming what failed when no context can be made.
  static std::unique_ptr<HeadlessContext> create(std::string* error);
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;
  std::string renderer() const;  // GL_RENDERER, e.g. "llvmpipe (LLVM 15.0.6, 256 bits)"

 private:
  HeadlessContext() = default;
  void* display_ = nullptr;
  void* context_ = nullptr;
  void* surface_ = nullptr;
};

}  // namespace rl::platform
