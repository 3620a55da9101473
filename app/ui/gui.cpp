#include "gui.h"

#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <chrono>
#include <cstdio>
#include <thread>
#include <unistd.h>
#include <fstream>
#include <algorithm>
#include <utility>
#include <cmath>
#include <vector>

#include "../core/catalog.h"
#include "../core/embedded.h"
#include "../core/frame_log.h"
#include "../core/settings.h"
#include "../platform/headless.h"
#include "../platform/window.h"
#include "../render/bench_chart.h"
#include "../render/canvas.h"
#include "../render/memory_view.h"
#include "../render/offscreen.h"
#include "../render/warp_views.h"
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
    req.input = s.choice.typed ? core::parse_numbers(s.choice.values, s.choice.type, "typed values")
                               : core::generate_input(s.choice.input, std::size_t(s.choice.size), s.choice.type);
    const int keep = s.trace && s.trace->algorithm == req.algorithm ? s.player.stage() : 0;
    s.trace = s.backend.backend->trace(req);
    s.compare_trace.reset();
    s.error.clear();
    int stages = int(s.trace->stages.size());
    if (!s.choice.compare.empty()) {  // the same input, stepped in lockstep
      backend::TraceRequest other = req;
      other.algorithm = s.choice.compare;
      s.compare_trace = s.backend.backend->trace(other);
      stages = std::max(stages, int(s.compare_trace->stages.size()));
    }
    s.player.reset(stages);
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

// Resident memory of this process, from /proc/self/statm (0 where it cannot be read).
std::size_t resident_bytes() {
  std::ifstream f("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  f >> pages >> resident;
  return resident * std::size_t(sysconf(_SC_PAGESIZE));
}

// --soak keeps everything moving: a run that has played through moves to the next algorithm
// and the next view; a finished benchmark starts again.
struct Soak {
  int runs = 0, benchmarks = 0;
  void step(AppState& s) {
    if (s.trace && !s.player.playing() && !s.play_requested) {
      const auto ids = core::traced_ids();
      const auto it = std::find(ids.begin(), ids.end(), s.choice.algorithm);
      s.choice.algorithm = it == ids.end() || it + 1 == ids.end() ? ids.front() : *(it + 1);
      s.view = render::View((int(s.view) + 1) % render::kViewCount);
      s.play_requested = true;
      ++runs;
    }
    if (!s.bench.worker.running()) {
      start_bench(s);
      ++benchmarks;
    }
  }
};

// Where the UI draws: a GLFW window, or (--headless) an EGL context and an off-screen target
// of a fixed size, paced at 60 frames a second as a display would pace it.
struct Surface {
  std::unique_ptr<platform::Window> window;
  std::unique_ptr<platform::HeadlessContext> headless;
  render::Offscreen screen;
  static constexpr int kWidth = 1600, kHeight = 900;

  bool open(bool off_screen, std::string* why) {
    if (!off_screen) return (window = platform::Window::create("Reduction Lab", kWidth, kHeight, why)) != nullptr;
    if (!(headless = platform::HeadlessContext::create(why))) return false;
    screen.resize(kWidth, kHeight);
    return true;
  }
  float content_scale() const { return window ? window->content_scale() : 1.0f; }
  void framebuffer_size(int* w, int* h) const {
    if (window) return window->framebuffer_size(w, h);
    *w = kWidth, *h = kHeight;
  }
  void begin_frame() {
    if (window) return ImGui_ImplGlfw_NewFrame();
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(kWidth), float(kHeight));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    io.DeltaTime = 1.0f / 60.0f;
  }
  void bind_screen() const {
    if (headless) screen.bind();
  }
};

}  // namespace

int run_gui(const cli::GuiOptions& opts, std::ostream& err) {
  AppState state;
  try {
    state.backend = backend::select(opts.backend);
  } catch (const std::exception& e) {
    err << "reduction-lab: error: " << e.what() << "\n";
    return 1;
  }
  // What the user chose last time, from the config folder; a broken file is reported, not fatal.
  const std::string settings_dir = config_dir();
  const std::string settings_path = settings_dir.empty() ? std::string() : settings_dir + "/settings.json";
  if (!settings_path.empty()) {
    const auto loaded = core::load_settings(settings_path);
    const auto& st = loaded.settings;
    state.choice = {st.algorithm, st.op, st.type, st.block, st.size, st.trace_block, st.input, st.typed,
                    st.values.empty() ? RunChoice{}.values : st.values, ""};
    state.player.set_speed(st.speed);
    state.presenter = st.presenter;
    state.notice = loaded.problem;
  }
  if (opts.present) state.presenter = true;
  state.presenter_changed = state.presenter;
  state.tab = opts.tab == "bandwidth" ? Tab::Bandwidth : Tab::Stages;
  state.select_tab = true;
  state.bench.start_requested = opts.run_bench;
  if (!opts.bench_sizes.empty()) std::snprintf(state.bench.sizes, sizeof state.bench.sizes, "%s", opts.bench_sizes.c_str());
  if (!opts.compare.empty()) state.choice.compare = opts.compare;
  if (!opts.bench_algorithms.empty())
    std::snprintf(state.bench.algorithms, sizeof state.bench.algorithms, "%s", opts.bench_algorithms.c_str());
  if (opts.play) state.play_requested = true;
  if (const auto v = render::parse_view(opts.view)) state.view = *v;
  if (!opts.export_dir.empty()) std::snprintf(state.export_dir, sizeof state.export_dir, "%s", opts.export_dir.c_str());
  std::string why;
  Surface surface;
  try {
    if (!surface.open(opts.headless, &why)) {
      err << "reduction-lab: error: " << why
          << ".\nThe headless commands work without a window: reduction-lab list | trace | render"
             " (see --help).\n";
      return 1;
    }
  } catch (const std::exception& e) {
    err << "reduction-lab: error: the off-screen target failed: " << e.what() << "\n";
    return 1;
  }
  platform::Window* window = surface.window.get();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  const std::string dir = config_dir();
  const std::string ini = dir.empty() ? std::string() : dir + "/imgui.ini";
  io.IniFilename = opts.quit_after_frames > 0 || ini.empty() ? nullptr : ini.c_str();

  // DPI: fonts at pixel size times the monitor's content scale; ImGui sizes follow.
  const float scale = surface.content_scale();
  ImFontConfig font_cfg;
  font_cfg.FontDataOwnedByAtlas = false;
  const auto font = embedded::mono_font();
  io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.data()), int(font.size()), std::round(16 * scale),
                                 &font_cfg);
  // Presenter mode's type: read from the back of a classroom.
  ImFont* large = io.Fonts->AddFontFromMemoryTTF(const_cast<char*>(font.data()), int(font.size()),
                                                 std::round(28 * scale), &font_cfg);
  ImGui::StyleColorsDark();
  ImGui::GetStyle().ScaleAllSizes(scale);
  if (window) ImGui_ImplGlfw_InitForOpenGL(window->handle(), true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int exit_code = 0;
  {
    render::Canvas canvas;
    render::Offscreen view, compare, chart;
    // The Bandwidth tab's export draws the chart at a fixed size, off screen.
    set_chart_exporter([&](const std::string& path, std::string* error) {
      auto spec = render::bench_chart(state.bench.worker.report(), core::to_string(state.bench.type),
                                      core::to_string(state.bench.op));
      for (auto& series : spec.series) series.visible = !state.bench.hidden.count(series.name);
      render::Offscreen target;
      target.resize(1600, 900);
      target.bind();
      render::draw_plot(canvas, spec, 1600, 900);
      render::Offscreen::unbind();
      return render::write_png(path, 1600, 900, target.read_rgba(), error);
    });
    int frame = 0;
    core::FrameLog frames;
    Soak soak;
    if (opts.soak) state.player.set_speed(20), state.play_requested = true;
    auto last = std::chrono::steady_clock::now();
    while (!(window && window->should_close())) {
      // Full rate while something moves (playback, a benchmark streaming in); idle otherwise.
      // (Scripted runs, --quit-after-frames, never wait.)
      if (window) window->wait_events(state.player.playing() || state.bench.worker.running() || opts.quit_after_frames > 0);
      else std::this_thread::sleep_until(last + std::chrono::microseconds(16667));  // a 60 Hz display's pace
      const auto now = std::chrono::steady_clock::now();
      const bool bench_running = state.bench.worker.running();
      const double dt = std::chrono::duration<double>(now - last).count();
      last = now;
      state.player.tick(dt);

      ImGui_ImplOpenGL3_NewFrame();
      surface.begin_frame();
      ImGui::NewFrame();
      handle_keys(state);
      if (std::exchange(state.presenter_changed, false) && window) window->set_fullscreen(state.presenter);
      if (state.presenter) ImGui::PushFont(large);

      const ImVec2 size = io.DisplaySize;
      const float em = ImGui::GetFontSize();
      // Presenter mode: the view fills the screen; the side panels step aside.
      const float left_w = state.presenter ? 0 : std::min(em * 24, size.x * 0.28f);
      const float right_w = state.presenter ? 0 : std::min(em * 36, size.x * 0.34f);
      const float status_h = em * 2.2f;
      const float body_h = size.y - status_h;
      if (!state.presenter) algorithm_panel(state, {0, 0, left_w, body_h});
      if (state.recorded != state.choice) record_trace(state);
      if (state.trace && std::exchange(state.play_requested, false)) state.player.play();
      if (opts.soak) soak.step(state);
      if (opts.soak && frame % 60 == 0)
        frames.add_memory(std::size_t(frame), resident_bytes(), state.backend.backend->device_memory_used());

      // The view or chart renders at the panel's size in framebuffer pixels, then shows as an image.
      const Frame where = center_panel(state, {left_w, 0, size.x - left_w - right_w, body_h}, view.texture(),
                                       compare.texture(), chart.texture());
      const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
      const int vw = std::max(64, int(where.w * sx)), vh = std::max(64, int(where.h * sy));
      try {
        if (state.tab == Tab::Stages && state.trace) {
          view.resize(vw, vh);
          view.bind();
          const render::ViewOptions look{state.presenter, float(state.player.phase()), state.presenter ? 1.5f : 1.0f};
          render::draw_stage_view(canvas, state.view, *state.trace, state.player.stage(), vw, vh, look);
          if (state.compare_trace) {  // lockstep: the shorter trace rests on its last stage
            const int final_stage = int(state.compare_trace->stages.size()) - 1;
            compare.resize(vw, vh);
            compare.bind();
            render::draw_stage_view(canvas, state.view, *state.compare_trace, std::min(state.player.stage(), final_stage), vw, vh,
                                  look);
          }
        } else if (state.tab == Tab::Bandwidth) {
          auto& b = state.bench;
          auto spec = render::bench_chart(b.worker.report(), core::to_string(b.type), core::to_string(b.op));
          for (auto& series : spec.series) series.visible = !b.hidden.count(series.name);
          const auto plot = render::plot_frame(spec, vw, vh);
          const float mx = b.mouse_x * sx, my = b.mouse_y * sy;
          if (b.clicked)  // a click on a legend entry shows or hides that series
            if (const auto entry = render::hit_legend(spec, plot, mx, my)) {
              const std::string& name = spec.series[*entry].name;
              if (!b.hidden.erase(name)) b.hidden.insert(name);
              spec.series[*entry].visible = !spec.series[*entry].visible;
            }
          const auto hover = b.mouse_x >= 0 ? render::hit_point(spec, plot, mx, my, 10 * sx) : std::nullopt;
          chart.resize(vw, vh);
          chart.bind();
          render::draw_plot(canvas, spec, vw, vh, hover, state.presenter);
        }
        render::Offscreen::unbind();
      } catch (const std::exception& e) {
        render::Offscreen::unbind();
        state.error = std::string("Drawing failed: ") + e.what();
      }
      if (!state.presenter) source_panel(state, {size.x - right_w, 0, right_w, body_h});
      status_bar(state, {0, body_h, size.x, status_h});
      if (state.presenter) ImGui::PopFont();

      ImGui::Render();
      int fw = 0, fh = 0;
      surface.framebuffer_size(&fw, &fh);
      surface.bind_screen();
      glViewport(0, 0, fw, fh);
      glClearColor(0.1f, 0.1f, 0.12f, 1);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      ++frame;
      if ((opts.quit_after_frames > 0 && frame >= opts.quit_after_frames) || state.quit_requested) {
        if (!opts.screenshot.empty()) {
          if (window) {
            save_screenshot(fw, fh, opts.screenshot, err);
          } else if (!render::write_png(opts.screenshot, fw, fh, surface.screen.read_rgba(), &why)) {
            err << "reduction-lab: error: " << why << "\n";
            exit_code = 1;
          }
        }
        if (window) window->swap();
        break;
      }
      if (window) window->swap();
      else glFinish();  // off screen, the frame's GPU work counts too
      // The work of one frame, without the time spent waiting for input.
      state.frame_ms = float(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - now).count());
      frames.add(state.frame_ms, bench_running);
    }
    if (opts.soak) {
      const auto g = frames.growth();
      char line[256];
      std::snprintf(line, sizeof line,
                    "soak: %d frames, %d runs played, %d benchmarks started; after warm-up, resident memory "
                    "%+.1f MiB, device memory %+.1f MiB (%zu samples)\n",
                    frame, soak.runs, soak.benchmarks, g.rss_mib, g.device_mib, g.samples);
      err << line;
    }
    if (!opts.frame_report.empty()) {
      const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
      if (!frames.write(opts.frame_report, renderer ? renderer : "unknown", &why)) {
        err << "reduction-lab: error: " << why << "\n";
        exit_code = 1;
      }
    }
  }
  set_chart_exporter({});
  state.bench.worker.cancel();
  if (!settings_path.empty() && opts.quit_after_frames == 0) {  // scripted runs leave the user's settings alone
    const auto& c = state.choice;
    core::Settings st{c.algorithm, c.op, c.type, c.block, c.size, c.trace_block, c.input,
                      c.typed, c.values, state.player.speed(), state.presenter};
    std::string problem;
    if (!core::save_settings(st, settings_path, &problem)) err << "reduction-lab: warning: " << problem << "\n";
  }
  ImGui_ImplOpenGL3_Shutdown();
  if (window) ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  return exit_code;
}

}  // namespace rl::ui
