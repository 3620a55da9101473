// The GUI's window: GLFW with an OpenGL 3.3 core context, glad loaded.
#pragma once
#include <memory>
#include <string>

struct GLFWwindow;

namespace rl::platform {

class Window {
 public:
  // nullptr with *error set when there is no display or no OpenGL 3.3.
  static std::unique_ptr<Window> create(const char* title, int width, int height, std::string* error);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return window_; }
  bool should_close() const;
  float content_scale() const;  // 1.0 on a standard-DPI monitor
  void framebuffer_size(int* w, int* h) const;
  void swap();
  // Full screen on the primary monitor, or back to the window it was.
  void set_fullscreen(bool on);
  // Waits for input (idle) or only polls (animating).
  void wait_events(bool animating);

 private:
  Window() = default;
  GLFWwindow* window_ = nullptr;
  int saved_[4] = {100, 100, 1600, 900};  // x, y, width, height before going full screen
};

}  // namespace rl::platform
