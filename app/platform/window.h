// The GUI's window: GLFW with an OpenGL 3.3 core context, glad loaded.
#pragma once
#include <memory>
#include <string>
#include <vector>

struct GLFWwindow;

namespace rl::platform {

class Window {
 public:
  // nullptr with *error set when there is no display or no OpenGL 3.3.
  // With `grow`, a screen larger than width x height (a 4K projector) gets a window as large a
  // part of it as 1600x900 is of a 1600x900 screen, centred.
  static std::unique_ptr<Window> create(const char* title, int width, int height, bool grow, std::string* error);
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

  struct KeyPress {
    int key;   // GLFW_KEY_*
    int mods;  // GLFW_MOD_*
  };
  // Every key press (and auto-repeat) since the last call, in order. Dear ImGui 1.86 keeps
  // only whether a key is down, so a press and release within one frame would be lost.
  // Call after the UI library installed its callbacks: this one chains to them.
  void queue_keys();
  std::vector<KeyPress> take_keys();
  // Paths of files dropped on the window since the last call (the last drop's), in order.
  std::vector<std::string> take_drops();

 private:
  Window() = default;
  GLFWwindow* window_ = nullptr;
  int saved_[4] = {100, 100, 1600, 900};  // x, y, width, height before going full screen
  std::vector<KeyPress> keys_;
  std::vector<std::string> drops_;
  void (*chained_)(GLFWwindow*, int, int, int, int) = nullptr;
  static void on_key(GLFWwindow* w, int key, int scancode, int action, int mods);
  static void on_drop(GLFWwindow* w, int count, const char** paths);
};

}  // namespace rl::platform
