// Where the UI draws, and Dear ImGui set up for it: a GLFW window, or (--headless) an EGL
// context and an off-screen target of a fixed size, paced at 60 frames a second as a display
// would pace it.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "../platform/headless.h"
#include "../platform/window.h"
#include "../render/offscreen.h"

struct ImFont;

namespace rl::ui {

struct Surface {
  using Clock = std::chrono::steady_clock;
  std::unique_ptr<platform::Window> window;
  std::unique_ptr<platform::HeadlessContext> headless;
  render::Offscreen screen;
  int width = 1600, height = 900;  // at open; a window may be resized afterwards
  bool grow = true;                // a larger screen gets a larger window (no size was asked for)

  // False with what went wrong, and what still works without a window, said on err.
  bool open(bool off_screen, std::ostream& err);
  bool closed() const { return window && window->should_close(); }
  float content_scale() const { return window ? window->content_scale() : 1.0f; }
  void framebuffer_size(int* w, int* h) const;
  // Until the next frame: input (idle, unless busy), or off screen a 60 Hz display's pace after `last`.
  void wait(bool busy, Clock::time_point last) const;
  void begin_frame() const;  // the platform half of ImGui's new frame
  void bind_screen() const;  // where ImGui's frame is drawn
  void present() const;      // swap, or off screen finish the frame's GPU work (it counts too)
  // The frame just drawn, top row first, before present().
  std::vector<std::uint8_t> read_frame(int w, int h) const;
};

// The window's type at 1600x900 and 100 % zoom, in pixels: the normal font and presenter mode's.
constexpr float kFontPx = 16, kLargeFontPx = 28;

// Dear ImGui for a surface: fonts at the monitor's scale, the GLFW backend for a window,
// OpenGL 3 for drawing; shut down in reverse order.
class ImGuiSession {
 public:
  // keep_ini: load and save ImGui's window layout in the config folder (not in scripted runs).
  ImGuiSession(const Surface& surface, bool keep_ini);
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;
  ImFont* large_font() const { return large_; }  // presenter mode's type

 private:
  std::string ini_;  // ImGui holds a pointer to it until the context is destroyed
  ImFont* large_ = nullptr;
  bool glfw_ = false;
};

}  // namespace rl::ui
