#include "gui.h"

#include <glad/gl.h>
#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>

#include "../backend/collective.h"
#include "../core/catalog.h"
#include "../core/text.h"
#include "../core/frame_log.h"
#include "../render/canvas.h"
#include "../render/offscreen.h"
#include "../render/warp_views.h"
#include "panels.h"
#include "open_pane.h"
#include "own_bench.h"
#include "own_pane.h"
#include "race_pane.h"
#include "settings.h"
#include "surface.h"

namespace rl::ui {

namespace {

// The choice's input: the array, or the matrix row by row (rows x cols elements, at most the
// window's limit); typed values must fill it exactly.
void fill_input(const RunChoice& c, backend::TraceRequest& req) {
  std::size_t n = std::size_t(c.size);
  if (core::is_matrix_id(c.algorithm)) {
    if (std::int64_t(c.rows) * c.cols > kMaxTracedSize)
      throw std::invalid_argument("a " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + " matrix is more than the " +
                                  std::to_string(kMaxTracedSize) + " elements the window traces");
    req.rows = std::size_t(c.rows), req.cols = std::size_t(c.cols);
    n = req.rows * req.cols;
  }
  req.input = c.typed ? core::parse_numbers(c.values, c.type, "typed values") : core::generate_input(c.input, n, c.type);
  if (req.rows && req.input.size() != n)
    throw std::invalid_argument("typed values: " + std::to_string(req.input.size()) + " numbers, but a " +
                                std::to_string(req.rows) + " x " + std::to_string(req.cols) + " matrix needs " + std::to_string(n));
}

// Compare mode's request: the same input, for an algorithm of the same shape.
backend::TraceRequest compare_request(const backend::TraceRequest& req, const std::string& other) {
  if (core::is_matrix_id(other) != (req.rows > 0))
    throw std::invalid_argument("compare: " + other + (req.rows ? " reduces an array and " : " reduces a matrix and ") +
                                req.algorithm + (req.rows ? " a matrix" : " an array") + "; compare two of one kind");
  backend::TraceRequest out = req;
  out.algorithm = other;
  return out;
}

// The family across GPUs: the choice's GPUs, each a buffer of `size` values drawn in turn (typed
// values: split evenly among them).
backend::CollectiveRequest collective_request(const RunChoice& c) {
  backend::CollectiveRequest r;
  r.algorithm = c.algorithm, r.op = c.op, r.type = c.type;
  const std::vector<double> all =
      c.typed ? core::parse_numbers(c.values, c.type, "typed values")
              : core::generate_input(c.input, std::size_t(c.size) * std::size_t(c.gpus), c.type);
  r.inputs = backend::split_buffers(all, c.gpus, "typed values");
  return r;
}

}  // namespace

// The request's fields but its input.
static backend::TraceRequest request_fields(const RunChoice& c) {
  backend::TraceRequest req;
  req.algorithm = c.algorithm;
  req.op = c.op;
  req.type = c.type;
  req.accumulate = core::is_narrow(c.type) ? c.accumulate : core::Accumulate::Float;
  req.block = c.block;
  req.trace_block = c.trace_block;
  const auto* row = kernels::find_row(c.algorithm);
  // A grid is the grid-stride kernels' to choose (the Run panel shows it for them alone); the
  // others size theirs from the array, whatever a plan or settings file says.
  if (row && kernels::grid_stride(row->indexing)) req.grid = std::size_t(c.grid);
  if (row && row->tree == kernels::Tree::Cluster) req.cluster = c.cluster;  // other kernels take no cluster size
  return req;
}

backend::TraceRequest run_request(const RunChoice& c) {
  backend::TraceRequest req = request_fields(c);
  fill_input(c, req);
  return req;
}

std::optional<kernels::Plan> planned_run(const AppState& s) {
  const RunChoice& c = s.choice;
  const auto* row = kernels::find_row(c.algorithm);
  if (!row || kernels::is_baseline(*row) || !s.backend.backend) return std::nullopt;
  const bool matrix = row->shape == kernels::Shape::Matrix;
  // Typed values and a file set an array's size when the run reads them: no plan before.
  if (!matrix && (c.typed || c.input.kind == core::InputSpec::Kind::File)) return std::nullopt;
  const kernels::Matrix shape{matrix ? std::size_t(std::max(c.rows, 0)) : 1,
                              std::size_t(std::max(matrix ? c.cols : c.size, 0))};
  const backend::TraceRequest req = request_fields(c);
  try {
    return kernels::make_plan(row->algo, shape, {req.block, req.grid, 0, nullptr, req.cluster},
                              s.backend.backend->device_shape(), core::element_bytes(c.type), false);
  } catch (const std::invalid_argument&) {
    return std::nullopt;  // the run will say why
  }
}

void record_trace(AppState& s) {
  const bool first = !s.recorded;
  s.recorded = s.choice;
  if (show_recording(s) || show_opened(s)) return;
  // A run asked for replaces a failed open in the status line; the window's first run, which
  // --open's failure comes before, does not (it said "the window opens without it" and went).
  if (!first && s.messages[Topic::Open].level != Level::Info) s.messages.clear(Topic::Open);
  try {
    const int keep = s.trace && s.trace->algorithm == s.choice.algorithm ? s.player.stage() : 0;
    s.orders.reset();
    if (core::find_collective(s.choice.algorithm)) {  // the CPU model's, whatever backend the window has
      const backend::CollectiveRequest req = collective_request(s.choice);
      s.trace = backend::trace_collective(req);
      s.orders = backend::compare_orders(req);
      s.compare_trace.reset();
      s.messages.clear(Topic::Run);
      s.player.reset(int(s.trace->stages.size()));
      s.player.seek(keep);
      return;
    }
    const backend::TraceRequest req = run_request(s.choice);
    s.trace = s.backend.backend->trace(req);
    s.floats.recorded(req, *s.trace);
    s.compare_trace.reset();
    s.messages.clear(Topic::Run);
    int stages = int(s.trace->stages.size());
    if (!s.choice.compare.empty()) {  // the same input, stepped in lockstep
      s.compare_trace = s.backend.backend->trace(compare_request(req, s.choice.compare));
      stages = std::max(stages, int(s.compare_trace->stages.size()));
    }
    s.player.reset(stages);
    s.player.seek(keep);
  } catch (const std::exception& e) {
    // The list and the source already show the new choice: an old trace beside them would
    // show another run as this one.
    s.trace.reset();
    s.compare_trace.reset();
    s.player.reset(0);
    s.messages.error(Topic::Run, "Run failed: " + std::string(e.what()));
  }
}

namespace {

// --scene and --plan, over the settings file. Throws std::runtime_error naming what is wrong.
void open_scene(AppState& state, const GuiOptions& opts) {
  if (!opts.plan.empty()) open_plan(state, opts.plan);
  if (opts.scene.empty()) return;
  const std::string path = scene_path(opts.scene);
  std::error_code ec;
  if (!path.empty() && std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    throw std::runtime_error("'" + core::printable(path) + "' is not a scene file (a folder, a device or a pipe)");
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) {
    std::string saved;
    for (const auto& n : saved_scenes()) saved += (saved.empty() ? "" : ", ") + n;
    throw std::runtime_error("no scene '" + opts.scene + "' (saved: " + (saved.empty() ? "none" : saved) + ")");
  }
  const auto loaded = core::load_settings(path, core::Whose::Named);
  if (!loaded.problem.empty()) throw std::runtime_error(loaded.problem);
  apply_scene(state, loaded.settings);
}

// The command line's requests, over what the settings file, the scene or the plan chose.
void apply_options(AppState& state, const GuiOptions& opts) {
  if (opts.present) state.presenter = true;
  state.presenter_changed = state.presenter;
  // Asking for an algorithm, a view or a stage asks for the Stages tab, whatever tab was saved.
  const bool stages = !opts.algorithm.empty() || !opts.view.empty() || opts.stage >= 0 || !opts.compare.empty();
  if (!opts.tab.empty()) state.tab = opts.tab == "bandwidth" ? Tab::Bandwidth : Tab::Stages;
  else if (stages)
    state.tab = Tab::Stages;
  state.select_tab = true;
  state.bench.start_requested = opts.run_bench;
  state.gif_requested = opts.export_gif;
  if (!opts.bench_sizes.empty()) std::snprintf(state.bench.sizes, sizeof state.bench.sizes, "%s", opts.bench_sizes.c_str());
  if (!opts.bench_shapes.empty()) {
    state.bench.matrix = true;
    std::snprintf(state.bench.shapes, sizeof state.bench.shapes, "%s", opts.bench_shapes.c_str());
  }
  if (!opts.compare.empty()) state.choice.compare = opts.compare;
  if (!opts.bench_algorithms.empty())
    std::snprintf(state.bench.algorithms, sizeof state.bench.algorithms, "%s", opts.bench_algorithms.c_str());
  if (opts.play) state.play_requested = true;
  if (const auto v = render::parse_view(opts.view)) state.view = *v;
  if (!opts.algorithm.empty()) state.choice.algorithm = opts.algorithm;
  if (opts.rows > 0) state.choice.rows = opts.rows;
  if (opts.cols > 0) state.choice.cols = opts.cols;
  if (opts.stage >= 0) state.stage_requested = opts.stage;
  if (!opts.bench_shapes.empty()) state.bench.followed = state.choice.algorithm;  // matrices, whatever it is
  state.requests_for_own = !opts.kernel.empty() && (opts.stage >= 0 || opts.play);
  if (!opts.pane.empty()) state.pane = opts.pane;
  if (!opts.export_dir.empty()) std::snprintf(state.export_dir, sizeof state.export_dir, "%s", opts.export_dir.c_str());
  if (opts.soak) state.player.set_speed(20), state.play_requested = true;
  if (!opts.race_file.empty()) open_race_file(state, opts.race_file);
  if (!opts.open.empty()) open_file(state, opts.open);
  if (!opts.kernel.empty()) run_own(state, opts.kernel);
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

// What a scripted run reports: every frame's time (--frame-report) and, with --soak, what it
// went through and how memory grew.
struct FrameReport {
  core::FrameLog frames;
  Soak soak;
  int count = 0;  // frames drawn

  void sample_memory(const AppState& s) {
    if (count % 60 == 0)
      frames.add_memory(std::size_t(count), resident_bytes(), s.backend.backend->device_memory_used());
  }
  // False when the report cannot be written (said on err). Needs the GL context, for its renderer.
  bool finish(const GuiOptions& opts, std::ostream& err) const {
    if (opts.soak) {
      const auto g = frames.growth();
      char line[256];
      std::snprintf(line, sizeof line,
                    "soak: %d frames, %d runs played, %d benchmarks started; after warm-up, resident memory "
                    "%+.1f MiB, device memory %+.1f MiB (%zu samples)\n",
                    count, soak.runs, soak.benchmarks, g.rss_mib, g.device_mib, g.samples);
      err << line;
    }
    if (opts.frame_report.empty()) return true;
    const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    std::string why;
    if (frames.write(opts.frame_report, renderer ? renderer : "unknown", &why)) return true;
    err << "reduction-lab: error: " << core::terminal_text(why) << "\n";
    return false;
  }
};

// --screenshot: the last frame as PNG. False when it cannot be written (said on err).
bool save_screenshot(const Surface& surface, int w, int h, const std::string& path, std::ostream& err) {
  std::string why;
  if (render::write_png(path, w, h, surface.read_frame(w, h), &why)) return true;
  err << "reduction-lab: error: " << core::terminal_text(why) << "\n";
  return false;
}

// The view, the compared view and the chart render into textures at the panel's size in
// framebuffer pixels; the panels show them as images.
struct Scene {
  render::Canvas canvas;
  render::Offscreen view, compare, chart;

  void draw(AppState& s, const Area& where) {
    const ImGuiIO& io = ImGui::GetIO();
    const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
    const int w = std::max(64, int(where.w * sx)), h = std::max(64, int(where.h * sy));
    try {
      if (s.tab == Tab::Stages && s.trace) draw_stages(s, w, h);
      else if (s.tab == Tab::Stages)
        draw_no_trace(s, w, h);
      else if (s.tab == Tab::Bandwidth) draw_chart(s.bench, w, h, sx, sy, s.presenter);
      render::Offscreen::unbind();
    } catch (const std::exception& e) {
      render::Offscreen::unbind();
      s.messages.error(Topic::Run, std::string("Drawing failed: ") + e.what());
    }
  }

  // The views' and the chart's smallest text: the mode's minimum, grown as the window's type
  // grows (the monitor's scale, the window past 1600x900, the zoom). Called inside the frame.
  static float min_text_px(bool presenter) {
    const float type_px = ImGui::GetFontSize() * ImGui::GetIO().DisplayFramebufferScale.y;
    return render::min_text_px(presenter, type_px / (presenter ? kLargeFontPx : kFontPx));
  }

  void draw_stages(AppState& s, int w, int h) {
    view.resize(w, h);
    view.bind();
    const render::ViewOptions look{s.presenter,
                                   float(s.player.phase()),
                                   s.presenter ? render::kPresenterTextScale : 1.0f,
                                   s.bank_row,
                                   min_text_px(s.presenter),
                                   s.warp,
                                   s.stale_read,
                                   s.part};
    const render::ViewDrawn drawn = render::draw_stage_view(canvas, s.view, *s.trace, s.player.stage(), w, h, look);
    s.warps_zoomed = drawn.warps;
    s.page_drawn = drawn.page;
    s.parts_zoomed = drawn.parts;
    if (drawn.warps > 0) s.warp = drawn.warp, s.part = drawn.part;  // as the view clamped them
    if (!s.compare_trace) return;
    const int final_stage = int(s.compare_trace->stages.size()) - 1;  // lockstep: the shorter rests on its last
    compare.resize(w, h);
    compare.bind();
    render::draw_stage_view(canvas, s.view, *s.compare_trace, std::min(s.player.stage(), final_stage), w, h, look);
  }

  // No trace on screen (a run failed, or none is in yet): the view says so, instead of keeping
  // the last run's picture beside a list and source that show another algorithm.
  void draw_no_trace(const AppState& s, int w, int h) {
    view.resize(w, h);
    view.bind();
    const render::Palette pal = s.presenter ? render::high_contrast_palette() : render::standard_palette();
    const float min_px = min_text_px(s.presenter);
    const std::string why = !s.messages.has(Topic::Run) ? "No trace yet: the run is on its way."
                                                        : "No trace. " + s.messages.text(Topic::Run);
    canvas.begin(w, h, pal.background);
    render::fitted_text(canvas, float(w) * 0.04f, float(h) * 0.5f, why, min_px * 1.6f, min_px, float(w) * 0.92f,
                        pal.muted);
    canvas.end();
  }

  // The chart, with the mouse (in ImGui units, scaled by sx, sy) hovering a point or
  // clicking a legend entry, which shows or hides that series.
  void draw_chart(BenchUi& b, int w, int h, float sx, float sy, bool presenter) {
    auto spec = shown_chart(b, shown_report(b));
    const float min_px = min_text_px(presenter);
    const auto plot = render::plot_frame(spec, w, h, min_px);
    const float mx = b.mouse_x * sx, my = b.mouse_y * sy;
    if (const auto entry = b.clicked ? render::hit_legend(spec, plot, mx, my) : std::nullopt) {
      const std::string& name = spec.series[*entry].name;
      if (!b.toggled.erase(name)) b.toggled.insert(name);
      spec.series[*entry].visible = !spec.series[*entry].visible;
    }
    const auto hover = b.mouse_x >= 0 ? render::hit_point(spec, plot, mx, my, 10 * sx) : std::nullopt;
    chart.resize(w, h);
    chart.bind();
    render::draw_plot(canvas, spec, w, h, hover, presenter, min_px);
  }
};

// The side panels' widths: as dragged (AppState::panels), else the default proportions, held
// so the centre and both sides keep room for their controls. Presenter mode has no left panel.
core::PanelSplit panel_widths(const AppState& s, float width, float em) {
  if (s.presenter && s.tab == Tab::Bandwidth) return {0, 0};  // the chart takes the width: its lines are the lesson
  if (s.presenter) return core::clamp_panels(0, s.panels.presenter, {0, width * 0.38f}, width, {0, em * 10}, em * 16);
  core::PanelSplit split = core::clamp_panels(s.panels.left, s.panels.right,
                                              {std::min(em * 24, width * 0.28f), std::min(em * 36, width * 0.34f)},
                                              width, {em * 14, em * 12}, em * 18);
  // The Float tab's tables and ladder need room: the left panel widens while it is open, the
  // source panel giving way first; the centre keeps its minimum.
  if (s.widgets.float_open) {
    const float wide = std::min(em * 40, width * 0.45f);
    if (split.left < wide) {
      split.left = wide;
      split.right = std::max(0.0f, std::min(split.right, width - wide - em * 18));
    }
  }
  return split;
}

// A draggable edge at x between two panels; returns where the mouse dragged it, or nothing.
std::optional<float> splitter(const char* id, float x, float height) {
  const float grip = 8;
  ImGui::SetNextWindowPos({x - grip / 2, 0}, ImGuiCond_Always);
  ImGui::SetNextWindowSize({grip, height}, ImGuiCond_Always);
  // The style's 32 px minimum window width would widen the strip over the panels' controls.
  ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, {grip, grip});
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, {0, 0});
  ImGui::Begin(id, nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  ImGui::PopStyleVar(2);
  ImGui::InvisibleButton("##edge", {grip, height});
  const bool hot = ImGui::IsItemHovered() || ImGui::IsItemActive();
  if (hot) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_ResizeEW);
    ImGui::SetTooltip("Drag to resize the panels");
  }
  ImGui::GetWindowDrawList()->AddRectFilled({x - 1.5f, 0}, {x + 1.5f, height},
                                            ImGui::GetColorU32(hot ? ImGuiCol_SeparatorActive : ImGuiCol_Separator));
  const bool dragging = ImGui::IsItemActive();
  ImGui::End();
  if (!dragging) return std::nullopt;
  return ImGui::GetIO().MousePos.x;
}

// The splitters between the panels; a drag is kept as fractions of the window, as clamped.
void splitters(AppState& s, float left_w, float right_w, float width, float height, float em) {
  if (s.presenter) {
    if (right_w <= 0) return;
    if (const auto x = splitter("##split presenter", width - right_w, height)) {
      s.panels.presenter = (width - *x) / width;
      s.panels.presenter = panel_widths(s, width, em).right / width;
    }
    return;
  }
  const auto left = splitter("##split left", left_w, height);
  const auto right = splitter("##split right", width - right_w, height);
  if (!left && !right) return;  // a resized window keeps the fractions; only a drag sets them
  s.panels.left = (left ? *left : left_w) / width;
  s.panels.right = (right ? width - *right : right_w) / width;
  const core::PanelSplit held = panel_widths(s, width, em);
  s.panels.left = held.left / width;
  s.panels.right = held.right / width;
}

// The style's sizes times `factor`, from the sizes the session started with (scaling the
// scaled style again would round them further each time).
void scale_style(float factor) {
  static const ImGuiStyle base = ImGui::GetStyle();
  static float applied = 1;
  if (factor == applied) return;
  ImGui::GetStyle() = base;
  if (factor != 1) ImGui::GetStyle().ScaleAllSizes(factor);
  applied = factor;
}

// One frame's panels, and the scene they show. Presenter mode: the view fills the screen;
// the side panels step aside.
void draw_panels(AppState& s, Scene& scene, ImFont* large, platform::Window* window, Soak* soak) {
  handle_keys(s, window ? window->take_keys() : std::vector<platform::Window::KeyPress>{});
  if (window)
    for (const auto& path : window->take_drops())  // a file dropped on the window: a run, or a kernel to run
      path.ends_with(".cu") ? run_own(s, path) : open_file(s, path);
  // Type grows with the window past 1600x900 (a 4K projector), times the user's zoom; the
  // paddings, spacings and roundings grow with it.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::GetIO().FontGlobalScale = s.zoom * std::max(1.0f, std::min(display.x / 1600, display.y / 900));
  scale_style(ImGui::GetIO().FontGlobalScale);
  if (std::exchange(s.presenter_changed, false) && window) window->set_fullscreen(s.presenter);
  if (s.presenter) ImGui::PushFont(large);
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  const float em = ImGui::GetFontSize();
  const auto [left_w, right_w] = panel_widths(s, size.x, em);
  const float status_h = em * 2.2f, body_h = size.y - status_h;
  poll_race(s);
  poll_own(s);
  own_bench_poll(s);  // the Bandwidth tab's timing of a kernel of your own runs on, shown or not
  if (!s.presenter) algorithm_panel(s, {0, 0, left_w, body_h});
  if (s.recorded != s.choice) record_trace(s);
  apply_requests(s);
  if (soak) soak->step(s);
  const Area where = center_panel(s, {left_w, 0, size.x - left_w - right_w, body_h}, scene.view.texture(),
                                  scene.compare.texture(), scene.chart.texture());
  scene.draw(s, where);
  const Area right{size.x - right_w, 0, right_w, body_h};
  if (right_w > 0) {  // presenter mode's Bandwidth tab has no side panel at all
    if (s.presenter)
      presenter_panel(s, right);
    else
      source_panel(s, right);
  }
  status_bar(s, {0, body_h, size.x, status_h});
  splitters(s, left_w, right_w, size.x, body_h, em);
  help_window(s);
  if (s.black) ImGui::GetForegroundDrawList()->AddRectFilled({0, 0}, size, IM_COL32(0, 0, 0, 255));
  if (s.presenter) ImGui::PopFont();
  // Undo steps: a change counts once it is complete (not while a field is edited or a slider
  // dragged, nor stage by stage while playing, nor while an applied scene's tab switches).
  if (s.settle > 0) --s.settle;
  else if (!s.player.playing() && !ImGui::IsAnyItemActive()) s.history.observe(current_scene(s));
}

// The frame loop, as in Dear ImGui's example_glfw_opengl3: wait and poll, new frame, panels,
// render, swap. Returns the exit code.
int run_loop(AppState& state, const Surface& surface, ImFont* large, const GuiOptions& opts, std::ostream& err) {
  using Clock = Surface::Clock;
  Scene scene;
  FrameReport report;
  int code = 0;
  auto last = Clock::now();
  while (!surface.closed()) {
    // Full rate while something moves (playback, a benchmark streaming in), or in scripted runs.
    surface.wait(state.player.playing() || state.bench.worker.running() || opts.quit_after_frames > 0, last);
    const auto start = Clock::now();
    // Frames drawn while a worker (a benchmark or an export) runs are reported apart.
    const bool bench_running = state.bench.worker.running() || state.export_job.running();
    state.player.tick(std::chrono::duration<double>(start - std::exchange(last, start)).count());

    ImGui_ImplOpenGL3_NewFrame();
    surface.begin_frame();
    ImGui::NewFrame();
    draw_panels(state, scene, large, surface.window.get(), opts.soak ? &report.soak : nullptr);
    if (opts.soak) report.sample_memory(state);
    for (const auto& [name, text] : race_words(state)) report.frames.say(name, text);
    report.frames.say("tab", state.tab == Tab::Bandwidth ? "bandwidth" : "stages");
    report.frames.say("look", std::exchange(state.look_shown, {}));

    ImGui::Render();
    int fw = 0, fh = 0;
    surface.framebuffer_size(&fw, &fh);
    surface.bind_screen();
    glViewport(0, 0, fw, fh);
    glClearColor(0.1f, 0.1f, 0.12f, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++report.count;
    // A scripted run waits for a run of your own in flight (its screenshot shows what it brought).
    const bool own_busy = state.own.busy() || state.bench.own.waiting || state.bench.own.running.valid();
    if ((opts.quit_after_frames > 0 && report.count >= opts.quit_after_frames && !own_busy) || state.quit_requested) {
      if (!opts.screenshot.empty() && !save_screenshot(surface, fw, fh, opts.screenshot, err)) code = 1;
      surface.present();
      break;
    }
    surface.present();
    // The work of one frame, without the time spent waiting for input.
    state.frame_ms = float(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    report.frames.add(state.frame_ms, bench_running);
  }
  if (opts.export_gif) code = std::max(code, finish_requested_export(state, err));
  return report.finish(opts, err) ? code : 1;
}

}  // namespace

int run_gui(const GuiOptions& opts, std::ostream& err) {
  AppState state;
  try {
    state.backend = backend::select(opts.backend);
  } catch (const std::exception& e) {
    err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 1;
  }
  const bool scripted = opts.quit_after_frames > 0;  // scripted runs leave the user's settings alone
  const std::string settings = settings_path();
  load_settings(state, settings);
  try {
    open_scene(state, opts);
  } catch (const std::exception& e) {
    err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 2;
  }
  apply_options(state, opts);
  Surface surface;
  surface.width = opts.width, surface.height = opts.height, surface.grow = !opts.size_asked;
  if (!surface.open(opts.headless, err)) return 1;
  const ImGuiSession imgui(surface, !scripted);
  const int code = run_loop(state, surface, imgui.large_font(), opts, err);
  state.bench.worker.cancel();
  if (!scripted) save_settings(state, settings, err);
  return code;
}

}  // namespace rl::ui
