#include "surface.h"

#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "../core/embedded.h"
#include "settings.h"

namespace rl::ui {

bool Surface::open(bool off_screen, std::ostream& err) {
  std::string why;
  try {
    if (off_screen && (headless = platform::HeadlessContext::create(&why))) screen.resize(width, height);
    if (!off_screen) window = platform::Window::create("Reduction Lab", width, height, grow, &why);
  } catch (const std::exception& e) {
    err << "reduction-lab: error: the off-screen target failed: " << e.what() << "\n";
    return false;
  }
  if (window || headless) return true;
  err << "reduction-lab: error: " << why
      << ".\nThe headless commands work without a window: reduction-lab list | trace | render (see --help).\n";
  return false;
}

void Surface::framebuffer_size(int* w, int* h) const {
  if (window) return window->framebuffer_size(w, h);
  *w = width, *h = height;
}

void Surface::wait(bool busy, Clock::time_point last) const {
  if (window) window->wait_events(busy);
  else std::this_thread::sleep_until(last + std::chrono::microseconds(16667));
}

void Surface::begin_frame() const {
  if (window) return ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(float(width), float(height));
  io.DisplayFramebufferScale = ImVec2(1, 1);
  io.DeltaTime = 1.0f / 60.0f;
}

void Surface::bind_screen() const {
  if (headless) screen.bind();
}

void Surface::present() const {
  if (window) window->swap();
  else glFinish();
}

std::vector<std::uint8_t> Surface::read_frame(int w, int h) const {
  if (headless) return screen.read_rgba();
  std::vector<std::uint8_t> px(std::size_t(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  std::vector<std::uint8_t> flipped(px.size());  // GL's first row is the bottom one
  const std::size_t row = std::size_t(w) * 4;
  for (int y = 0; y < h; ++y) std::copy_n(px.begin() + (h - 1 - y) * row, row, flipped.begin() + y * row);
  return flipped;
}

ImGuiSession::ImGuiSession(const Surface& surface, bool keep_ini) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  const std::string dir = config_dir();
  ini_ = dir.empty() ? std::string() : dir + "/imgui.ini";
  io.IniFilename = !keep_ini || ini_.empty() ? nullptr : ini_.c_str();
  // DPI: fonts at pixel size times the monitor's content scale; ImGui sizes follow.
  const float scale = surface.content_scale();
  ImFontConfig font_cfg;
  font_cfg.FontDataOwnedByAtlas = false;
  const auto font = embedded::mono_font();
  io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.data()), int(font.size()), std::round(kFontPx * scale), &font_cfg);
  // Presenter mode's type: read from the back of a classroom.
  large_ = io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.data()), int(font.size()), std::round(kLargeFontPx * scale),
                                          &font_cfg);
  ImGui::StyleColorsDark();
  ImGui::GetStyle().ScaleAllSizes(scale);
  if ((glfw_ = surface.window != nullptr)) {
    ImGui_ImplGlfw_InitForOpenGL(surface.window->handle(), true);
    surface.window->queue_keys();
  }
  ImGui_ImplOpenGL3_Init("#version 330 core");
}

ImGuiSession::~ImGuiSession() {
  ImGui_ImplOpenGL3_Shutdown();
  if (glfw_) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace rl::ui
