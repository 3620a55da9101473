#include "gui.h"

#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <chrono>
#include <cmath>
#include <vector>

#include "../core/embedded.h"
#include "../platform/window.h"
#include "../render/canvas.h"
#include "../render/memory_view.h"
#include "../render/offscreen.h"
#include "panels.h"
#include "settings.h"

namespace rl::ui {

void record_trace(AppState& s) {
  s.recorded = s.choice;
  backend::TraceRequest req;
  req.algorithm = s.choice.algorithm;
  req.op = s.choice.op;
  req.type = s.choice.type;
  req.block = s.choice.block;
  req.trace_block = s.choice.trace_block;
  try {
    req.input = core::generate_input(s.choice.input, std::size_t(s.choice.size), s.choice.type);
    const int keep = s.trace && s.trace->algorithm == req.algorithm ? s.player.stage() : 0;
    s.trace = s.backend.backend->trace(req);
    s.error.clear();
    s.player.reset(int(s.trace->stages.size()));
    s.player.seek(keep);
  } catch (const std::exception& e) {
    s.error = "Run failed: " + std::string(e.what());
  }
}

namespace {

void save_screenshot(int w, int h, const std::string& path, std::ostream& err) {
  std::vector<std::uint8_t> px(std::size_t(w) * h * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  std::vector<std::uint8_t> flipped(px.size());
  const std::size_t row = std::size_t(w) * 4;
  for (int y = 0; y < h; ++y) std::copy_n(px.begin() + (h - 1 - y) * row, row, flipped.begin() + y * row);
  std::string why;
  if (!render::write_png(path, w, h, flipped, &why)) err << "reduction-lab: error: " << why << "\n";
}

}  // namespace

int run_gui(const cli::GuiOptions& opts, std::ostream& err) {
  AppState state;
  try {
    state.backend = backend::select(opts.backend);
  } catch (const std::exception& e) {
    err << "reduction-lab: error: " << e.what() << "\n";
    return 1;
  }
  std::string why;
  auto window = platform::Window::create("Reduction Lab", 1600, 900, &why);
  if (!window) {
    err << "reduction-lab: error: " << why
        << ".\nThe headless commands work without a window: reduction-lab list | trace | render"
           " (see --help).\n";
    return 1;
  }

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  const std::string dir = config_dir();
  const std::string ini = dir.empty() ? std::string() : dir + "/imgui.ini";
  io.IniFilename = opts.quit_after_frames > 0 || ini.empty() ? nullptr : ini.c_str();

  // DPI: fonts at pixel size times the monitor's content scale; ImGui sizes follow.
  const float scale = window->content_scale();
  ImFontConfig font_cfg;
  font_cfg.FontDataOwnedByAtlas = false;
  const auto font = embedded::mono_font();
  io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.data()), int(font.size()), std::round(16 * scale),
                                 &font_cfg);
  ImGui::StyleColorsDark();
  ImGui::GetStyle().ScaleAllSizes(scale);
  ImGui_ImplGlfw_InitForOpenGL(window->handle(), true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int exit_code = 0;
  {
    render::Canvas canvas;
    render::Offscreen view;
    int frame = 0;
    auto last = std::chrono::steady_clock::now();
    while (!window->should_close()) {
      window->wait_events(state.player.playing());
      const auto now = std::chrono::steady_clock::now();
      const double dt = std::chrono::duration<double>(now - last).count();
      last = now;
      state.player.tick(dt);

      ImGui_ImplOpenGL3_NewFrame();
      ImGui_ImplGlfw_NewFrame();
      ImGui::NewFrame();
      handle_keys(state);

      const ImVec2 size = io.DisplaySize;
      const float em = ImGui::GetFontSize();
      const float left_w = std::min(em * 24, size.x * 0.28f), right_w = std::min(em * 36, size.x * 0.34f);
      const float status_h = em * 2.2f;
      const float body_h = size.y - status_h;
      algorithm_panel(state, {0, 0, left_w, body_h});
      if (state.recorded != state.choice) record_trace(state);

      // The view renders at the panel's size in framebuffer pixels, then shows as an image.
      const Frame where = stage_panel(state, {left_w, 0, size.x - left_w - right_w, body_h}, view.texture());
      const int vw = std::max(64, int(where.w * io.DisplayFramebufferScale.x));
      const int vh = std::max(64, int(where.h * io.DisplayFramebufferScale.y));
      if (state.trace) {
        try {
          view.resize(vw, vh);
          view.bind();
          render::draw_memory_view(canvas, *state.trace, state.player.stage(), vw, vh);
          render::Offscreen::unbind();
        } catch (const std::exception& e) {
          render::Offscreen::unbind();
          state.error = std::string("Drawing failed: ") + e.what();
        }
      }
      source_panel(state, {size.x - right_w, 0, right_w, body_h});
      status_bar(state, {0, body_h, size.x, status_h});

      ImGui::Render();
      int fw = 0, fh = 0;
      window->framebuffer_size(&fw, &fh);
      glViewport(0, 0, fw, fh);
      glClearColor(0.1f, 0.1f, 0.12f, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      ++frame;
      if (opts.quit_after_frames > 0 && frame >= opts.quit_after_frames) {
        if (!opts.screenshot.empty()) save_screenshot(fw, fh, opts.screenshot, err);
        window->swap();
        break;
      }
      window->swap();
      // The work of one frame, without the time spent waiting for input.
      state.frame_ms = float(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - now).count());
    }
  }
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return exit_code;
}

}  // namespace rl::ui
