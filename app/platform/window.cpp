#include "window.h"

#include <algorithm>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE  // glad provides the GL declarations
#include <GLFW/glfw3.h>

#include <cstdlib>
#include <utility>

namespace rl::platform {
namespace {
std::string g_last_error;
void on_error(int code, const char* text) { g_last_error = std::to_string(code) + ": " + text; }
}  // namespace

std::unique_ptr<Window> Window::create(const char* title, int width, int height, bool grow, std::string* error) {
  glfwSetErrorCallback(on_error);
  if (!glfwInit()) {
    const bool no_display = !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY");
    if (error)
      *error = no_display ? "no display to open a window on (DISPLAY and WAYLAND_DISPLAY are unset)"
                          : "cannot open a window: GLFW failed (" + g_last_error + ")";
    return nullptr;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
  // No larger than the screen's work area (an 800x600 projector): the window manager may not shrink it.
  int area_x = 0, area_y = 0, area_w = 0, area_h = 0;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
    float sx = 1, sy = 1;
    glfwGetMonitorWorkarea(monitor, &area_x, &area_y, &area_w, &area_h);
    glfwGetMonitorContentScale(monitor, &sx, &sy);  // GLFW_SCALE_TO_MONITOR multiplies the size by it
    if (area_w > 0 && area_h > 0) {
      const float fit_w = float(area_w) / std::max(sx, 1.0f), fit_h = float(area_h) / std::max(sy, 1.0f);
      const float factor = grow ? std::max(1.0f, std::min(fit_w / float(width), fit_h / float(height))) : 1.0f;
      width = std::min(int(float(width) * factor), int(fit_w));
      height = std::min(int(float(height) * factor), int(fit_h));
    }
  }
  GLFWwindow* w = glfwCreateWindow(width, height, title, nullptr, nullptr);
  if (w && grow && area_w > 0) {  // centred in the work area, not where the window manager drops it
    int fw = 0, fh = 0;
    glfwGetWindowSize(w, &fw, &fh);
    glfwSetWindowPos(w, area_x + std::max(0, (area_w - fw) / 2), area_y + std::max(0, (area_h - fh) / 2));
  }
  if (!w) {
    if (error) *error = "cannot create an OpenGL 3.3 window (" + g_last_error + ")";
    glfwTerminate();
    return nullptr;
  }
  glfwMakeContextCurrent(w);
  if (!gladLoadGL(glfwGetProcAddress)) {
    if (error) *error = "cannot load OpenGL 3.3 functions";
    glfwDestroyWindow(w);
    glfwTerminate();
    return nullptr;
  }
  glfwSwapInterval(1);
  auto out = std::unique_ptr<Window>(new Window());
  out->window_ = w;
  return out;
}

Window::~Window() {
  glfwDestroyWindow(window_);
  glfwTerminate();
}

bool Window::should_close() const { return glfwWindowShouldClose(window_); }

float Window::content_scale() const {
  float x = 1, y = 1;
  glfwGetWindowContentScale(window_, &x, &y);
  return x > 0 ? x : 1.0f;
}

void Window::framebuffer_size(int* w, int* h) const { glfwGetFramebufferSize(window_, w, h); }
void Window::swap() { glfwSwapBuffers(window_); }

void Window::set_fullscreen(bool on) {
  GLFWmonitor* monitor = glfwGetPrimaryMonitor();
  const bool is = glfwGetWindowMonitor(window_) != nullptr;
  if (on == is || !monitor) return;
  if (on) {
    glfwGetWindowPos(window_, &saved_[0], &saved_[1]);
    glfwGetWindowSize(window_, &saved_[2], &saved_[3]);
    const GLFWvidmode* mode = glfwGetVideoMode(monitor);
    glfwSetWindowMonitor(window_, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(window_, nullptr, saved_[0], saved_[1], saved_[2], saved_[3], 0);
  }
}

void Window::wait_events(bool animating) {
  if (animating) glfwPollEvents();
  else glfwWaitEventsTimeout(0.25);
}

void Window::queue_keys() {
  glfwSetWindowUserPointer(window_, this);
  chained_ = glfwSetKeyCallback(window_, on_key);
  glfwSetDropCallback(window_, on_drop);
}

void Window::on_drop(GLFWwindow* w, int count, const char** paths) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  if (!self) return;
  self->drops_.clear();
  for (int i = 0; i < count; ++i) self->drops_.emplace_back(paths[i]);
}

std::vector<std::string> Window::take_drops() { return std::exchange(drops_, {}); }

void Window::on_key(GLFWwindow* w, int key, int scancode, int action, int mods) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  if (self && action != GLFW_RELEASE) self->keys_.push_back({key, mods});
  if (self && self->chained_) self->chained_(w, key, scancode, action, mods);
}

std::vector<Window::KeyPress> Window::take_keys() { return std::exchange(keys_, {}); }

}  // namespace rl::platform
