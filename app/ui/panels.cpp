#include "panels.h"

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes: the ImGui GLFW backend reports GLFW keys

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "../backend/backend.h"
#include "../core/catalog.h"
#include "../core/bench.h"
#include "../core/facts.h"
#include "../render/bench_chart.h"
#include "../render/export.h"

namespace rl::ui {
namespace {

void place(const Frame& f, const char* name, ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos({f.x, f.y}, ImGuiCond_Always);
  ImGui::SetNextWindowSize({f.w, f.h}, ImGuiCond_Always);
  ImGui::Begin(name, nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | extra);
}

template <class E>
bool combo(const char* label, E& value, const char* const* names, int count) {
  int i = static_cast<int>(value);
  if (!ImGui::Combo(label, &i, names, count)) return false;
  value = static_cast<E>(i);
  return true;
}

}  // namespace

// The lesson's numbers come from the run on screen; before its trace is there, from the model's.
static void lesson_text(const AppState& s) {
  if (const auto* about = core::find_algorithm(s.choice.algorithm)) {
    const bool on_screen = s.trace && s.trace->algorithm == about->id;
    const std::string text = on_screen ? core::fill_lesson(about->detail, *s.trace) : backend::with_numbers(*about).detail;
    ImGui::TextWrapped("%s", text.c_str());
  }
}

// The lesson and, beside it in tabs, what a class asks next: the run's work and depth, and
// its floating-point error.
static void lesson_pane(AppState& s, float height) {
  ImGui::BeginChild("lesson", {0, height}, false);
  if (ImGui::BeginTabBar("lesson tabs")) {
    if (ImGui::BeginTabItem("Lesson")) {
      ImGui::BeginChild("lesson text");
      lesson_text(s);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
}

void algorithm_panel(AppState& s, const Frame& f) {
  place(f, "Algorithm");
  ImGui::BeginChild("list", {0, f.h * 0.38f}, true);
  std::string family;
  for (const auto& a : core::algorithms()) {
    if (a.kind == core::Kind::Baseline) continue;  // timed by bench; nothing to step through
    if (a.family != family) {
      family = a.family;
      ImGui::TextDisabled("%s family", family.c_str());
    }
    if (ImGui::Selectable(a.title.c_str(), s.choice.algorithm == a.id)) s.choice.algorithm = a.id;
  }
  ImGui::EndChild();
  // Compare mode: a second algorithm beside the first, on the same input, in lockstep.
  const auto ids = core::traced_ids();
  int pick = 0;
  for (int i = 0; i < int(ids.size()); ++i)
    if (ids[i] == s.choice.compare) pick = i + 1;
  std::vector<const char*> names{"(none)"};
  for (const auto& id : ids) names.push_back(id.c_str());
  if (ImGui::Combo("compare with", &pick, names.data(), int(names.size()))) s.choice.compare = pick ? ids[pick - 1] : "";
  lesson_pane(s, f.h * 0.24f);
  ImGui::Separator();
  ImGui::TextDisabled("Run");
  const float em = ImGui::GetFontSize();
  ImGui::PushItemWidth(-em * 6);
  static const char* ops[] = {"sum", "min", "max"};
  static const char* types[] = {"int", "float", "double"};
  combo("operator", s.choice.op, ops, 3);
  combo("type", s.choice.type, types, 3);
  const auto* info = core::find_algorithm(s.choice.algorithm);
  if (info && info->any_block) {
    ImGui::InputInt("block size", &s.choice.block, 1, 32);
    s.choice.block = std::clamp(s.choice.block, 2, 1024);
  } else {
    static const char* blocks[] = {"32", "64", "128", "256", "512", "1024"};
    int bi = 0;
    while ((32 << bi) < s.choice.block && bi < 5) ++bi;
    if (ImGui::Combo("block size", &bi, blocks, 6) || (32 << bi) != s.choice.block) s.choice.block = 32 << bi;
  }
  if (!s.choice.typed) {
    ImGui::InputInt("array size", &s.choice.size, 1, 32);
    s.choice.size = std::clamp(s.choice.size, 1, 1 << 20);
  }
  ImGui::InputInt("traced block", &s.choice.trace_block);
  const int grid = s.trace && s.trace->algorithm == s.choice.algorithm ? int(s.trace->grid)
                                                                       : (s.choice.size + s.choice.block - 1) / s.choice.block;
  s.choice.trace_block = std::clamp(s.choice.trace_block, 0, std::max(grid - 1, 0));
  // iota, ones, random (with a seed), a file of numbers, or values typed or pasted here.
  static const char* inputs[] = {"iota (1, 2, 3, ...)", "ones", "random", "file", "typed values"};
  int kind = s.choice.typed ? 4 : static_cast<int>(s.choice.input.kind);
  if (ImGui::Combo("input", &kind, inputs, 5)) {
    s.choice.typed = kind == 4;
    if (kind < 4) s.choice.input.kind = static_cast<core::InputSpec::Kind>(kind);
  }
  if (!s.choice.typed && s.choice.input.kind == core::InputSpec::Kind::Random) {
    int seed = static_cast<int>(s.choice.input.seed);
    if (ImGui::InputInt("seed", &seed)) s.choice.input.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  }
  if (!s.choice.typed && s.choice.input.kind == core::InputSpec::Kind::File) {
    char path[512];
    std::snprintf(path, sizeof path, "%s", s.choice.input.path.c_str());
    if (ImGui::InputText("path", path, sizeof path, ImGuiInputTextFlags_EnterReturnsTrue)) s.choice.input.path = path;
  }
  if (s.choice.typed) {
    static char buf[8192];
    if (s.choice.values != buf) std::snprintf(buf, sizeof buf, "%s", s.choice.values.c_str());
    ImGui::InputTextMultiline("##values", buf, sizeof buf, {-1, em * 4});
    if (ImGui::IsItemDeactivatedAfterEdit()) s.choice.values = buf;  // re-run once editing ends
    ImGui::TextDisabled("numbers, separated by spaces, commas or lines");
  }
  ImGui::PopItemWidth();
  ImGui::Text("%d block%s of %d threads", grid, grid == 1 ? "" : "s", s.choice.block);
  ImGui::End();
}

Frame stage_body(AppState& s, unsigned view_texture, unsigned compare_texture);  // the Stages tab

namespace {

void image(unsigned texture, const Frame& view) {
  if (texture)
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture)), {view.w, view.h}, {0, 1}, {1, 0});
  else
    ImGui::Dummy({view.w, view.h});
}

std::string default_export_dir() {
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/reduction-lab-exports";
}

std::string default_export_base() { return default_export_dir() + "/bandwidth"; }

// The Stages tab's exports, drawn in this window's context at 1600 x 900: the view as it is,
// a PNG per stage, or the whole run as a GIF or MP4 (ffmpeg).
enum class StageExport { Png, AllStages, Gif, Mp4 };

void export_stages(AppState& s, StageExport what) {
  const std::string base = std::string(s.export_dir) + "/" + s.trace->algorithm + "-" + render::to_string(s.view);
  std::error_code ec;
  std::filesystem::create_directories(s.export_dir, ec);
  const render::Look look{s.view, true};
  constexpr int w = 1600, h = 900;
  char stage[16];
  std::snprintf(stage, sizeof stage, "-stage%02d.png", s.player.stage());
  std::string saved;
  render::Exported done;
  switch (what) {
    case StageExport::Png: done = render::export_stage_png(*s.trace, s.player.stage(), w, h, saved = base + stage, look); break;
    case StageExport::AllStages: done = render::export_all_stages(*s.trace, w, h, base, look), saved = base + "-stageNN.png"; break;
    case StageExport::Gif: done = render::export_video(*s.trace, w, h, saved = base + ".gif", look); break;
    case StageExport::Mp4: done = render::export_video(*s.trace, w, h, saved = base + ".mp4", look); break;
  }
  s.export_message = done.ok() ? "Saved " + saved : "Export failed: " + done.error;
}

void export_all(BenchUi& b, const core::BenchReport& report) {
  const std::string base = b.export_path;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(base).parent_path(), ec);
  const render::Exported done = render::export_bench(report, shown_chart(b, report), base, true);
  b.message = done.ok() ? "Saved " + base + ".png, .csv and .json" : "Export failed: " + done.error;
}

// The Bandwidth tab's first rows: what to measure, Run or Cancel, progress, and whose timings.
void bench_controls(AppState& s, bool gpu) {
  BenchUi& b = s.bench;
  const float em = ImGui::GetFontSize();
  static const char* types[] = {"int", "float", "double"};
  static const char* ops[] = {"sum", "min", "max"};
  ImGui::SetNextItemWidth(em * 6);
  combo("##type", b.type, types, 3);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 5);
  combo("##op", b.op, ops, 3);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 9);
  ImGui::InputText("sizes", b.sizes, sizeof b.sizes);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 12);
  ImGui::InputText("algorithms", b.algorithms, sizeof b.algorithms);
  ImGui::SameLine();
  if (b.worker.running()) {
    if (ImGui::Button("Cancel")) b.worker.cancel();
  } else if (ImGui::Button("Run") || std::exchange(b.start_requested, false)) {
    start_bench(s);
  }
  const auto progress = b.worker.progress();
  const float done = progress.total ? float(progress.done) / float(progress.total) : 0.0f;
  char label[160];
  std::snprintf(label, sizeof label, "%zu / %zu  %s", progress.done, progress.total,
                b.worker.running() ? progress.current.c_str() : "");
  ImGui::ProgressBar(done, {-1, 0}, label);
  if (!gpu) ImGui::TextColored({0.95f, 0.72f, 0.2f, 1}, "No GPU: these are timings of the CPU model, not of a GPU.");
  if (!b.worker.error().empty()) ImGui::TextColored({1.0f, 0.45f, 0.3f, 1}, "%s", b.worker.error().c_str());
}

// The chart's image, leaving `table_h` below it; the mouse over it, in its pixels, for the caller's hit tests.
void chart_image(BenchUi& b, unsigned chart_texture, float table_h, Frame* chart) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  *chart = {origin.x, origin.y, avail.x, std::max(ImGui::GetFontSize() * 6, avail.y - table_h)};
  image(chart_texture, *chart);
  const ImVec2 mouse = ImGui::GetMousePos();
  const bool over = ImGui::IsItemHovered();
  b.mouse_x = over ? mouse.x - chart->x : -1;
  b.mouse_y = over ? mouse.y - chart->y : -1;
  b.clicked = over && ImGui::IsMouseClicked(0);
}

void harris_rows(const std::vector<core::HarrisRow>& rows) {
  if (!ImGui::BeginTable("harris", 6, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY)) return;
  ImGui::TableSetupColumn("algorithm", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 14);
  // Short headers: the panel is narrow, and "total" is the cumulative speedup.
  for (const char* h : {"time us", "GB/s", "% peak", "step", "total"}) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (i > 0 && rows[i - 1].harris && !r.harris) {  // Harris' progression ends here
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("others");
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.algorithm.c_str());
    if (r.block > 0 && ImGui::IsItemHovered()) ImGui::SetTooltip("%d threads a block", r.block);
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.median_us);
    ImGui::TableNextColumn();
    ImGui::Text(r.gbps < 10 ? "%.3f" : "%.0f", r.gbps);
    ImGui::TableNextColumn();
    ImGui::Text("%.1f%%", r.pct_of_peak);
    ImGui::TableNextColumn();
    if (std::isnan(r.step_speedup)) ImGui::TextDisabled("-");
    else ImGui::Text("%.2fx", r.step_speedup);
    ImGui::TableNextColumn();
    ImGui::Text("%.2fx", r.cumulative_speedup);
  }
  ImGui::EndTable();
}

// Below the chart: which n the Harris table is for, the export, and the table.
void harris_section(BenchUi& b, const core::BenchReport& report) {
  std::vector<std::size_t> ns;
  for (const auto& r : report.rows)
    if (std::find(ns.begin(), ns.end(), r.n) == ns.end()) ns.push_back(r.n);
  std::sort(ns.begin(), ns.end());
  if (ns.empty()) return;
  const float em = ImGui::GetFontSize();
  int idx = b.table_n < 0 || b.table_n >= int(ns.size()) ? int(ns.size()) - 1 : b.table_n;
  char n_label[48];
  std::snprintf(n_label, sizeof n_label, "n = %zu", ns[idx]);
  ImGui::SetNextItemWidth(em * 12);
  if (ImGui::SliderInt("##n", &idx, 0, int(ns.size()) - 1, n_label)) b.table_n = idx;
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 18);
  ImGui::InputText("##export", b.export_path, sizeof b.export_path);
  ImGui::SameLine();
  if (ImGui::Button("Export PNG + CSV + JSON")) export_all(b, report);
  if (!b.message.empty()) ImGui::TextWrapped("%s", b.message.c_str());
  harris_rows(core::harris_table(report, ns[idx], core::to_string(b.type), core::to_string(b.op)));
}

void bench_tab(AppState& s, unsigned chart_texture, Frame* chart) {
  BenchUi& b = s.bench;
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  if (!*b.sizes) std::snprintf(b.sizes, sizeof b.sizes, "%s", gpu ? "2^16..2^28" : "2^10..2^16");
  if (!*b.export_path) std::snprintf(b.export_path, sizeof b.export_path, "%s", default_export_base().c_str());
  bench_controls(s, gpu);
  const core::BenchReport report = b.worker.report();
  chart_image(b, chart_texture, ImGui::GetFontSize() * 9, chart);
  harris_section(b, report);
}

}  // namespace

render::PlotSpec shown_chart(const BenchUi& b, const core::BenchReport& report) {
  auto spec = render::bench_chart(report, core::to_string(b.type), core::to_string(b.op));
  for (auto& series : spec.series) series.visible = !b.hidden.count(series.name);
  return spec;
}

void start_bench(AppState& s) {
  BenchUi& b = s.bench;
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  if (!*b.sizes) std::snprintf(b.sizes, sizeof b.sizes, "%s", gpu ? "2^16..2^28" : "2^10..2^16");
  std::string why;
  const auto sizes = core::parse_sizes(b.sizes, &why);
  if (!sizes) {
    b.message = "Sizes: " + why;
    return;
  }
  backend::BenchRequest req;
  req.sizes = *sizes;
  req.type = b.type;
  req.op = b.op;
  const std::string ids = b.algorithms;
  if (ids == "all") {
    req.algorithms = backend::default_bench_algorithms();
  } else {
    for (std::size_t at = 0; at <= ids.size();) {
      const std::size_t comma = std::min(ids.find(',', at), ids.size());
      if (comma > at) req.algorithms.push_back(ids.substr(at, comma - at));
      at = comma + 1;
    }
  }
  b.message.clear();
  b.worker.start(req, gpu ? backend::Choice::Cuda : backend::Choice::Sim);
}

Frame center_panel(AppState& s, const Frame& f, unsigned view_texture, unsigned compare_texture, unsigned chart_texture) {
  place(f, "Lab");
  Frame out{};
  if (ImGui::BeginTabBar("tabs")) {
    const bool select = std::exchange(s.select_tab, false);
    const Tab wanted = s.tab;  // the tab bodies below overwrite s.tab
    const auto flags = [&](Tab t) { return select && wanted == t ? ImGuiTabItemFlags_SetSelected : 0; };
    if (ImGui::BeginTabItem("Stages", nullptr, flags(Tab::Stages))) {
      s.tab = Tab::Stages;
      out = stage_body(s, view_texture, compare_texture);
      ImGui::EndTabItem();
    }
    if (ImGui::BeginTabItem("Bandwidth", nullptr, flags(Tab::Bandwidth))) {
      s.tab = Tab::Bandwidth;
      bench_tab(s, chart_texture, &out);
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::End();
  return out;
}

Frame stage_body(AppState& s, unsigned view_texture, unsigned compare_texture) {
  const float em = ImGui::GetFontSize();
  const float controls_h = em * (s.export_message.empty() ? 8.0f : 9.4f);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Compare mode splits the area: each view gets half (the caller renders at that size).
  const float gap = s.compare_trace ? em * 0.5f : 0;
  const float w = s.compare_trace ? (avail.x - gap) / 2 : avail.x;
  const Frame view{origin.x, origin.y, w, std::max(em * 4, avail.y - controls_h)};
  image(view_texture, view);
  if (s.compare_trace) {
    ImGui::SameLine(0, gap);
    image(compare_texture, view);
  }
  if (!s.error.empty()) ImGui::TextColored({1.0f, 0.45f, 0.3f, 1}, "%s", s.error.c_str());
  if (!s.notice.empty()) ImGui::TextColored({1.0f, 0.45f, 0.3f, 1}, "%s", s.notice.c_str());
  if (!s.trace) return view;
  auto& p = s.player;
  if (ImGui::Button("|<")) p.first();
  ImGui::SameLine();
  if (ImGui::Button("<")) p.step_back();
  ImGui::SameLine();
  if (ImGui::Button(p.playing() ? "Pause" : "Play", {em * 4, 0})) p.toggle();
  ImGui::SameLine();
  if (ImGui::Button(">")) p.step_forward();
  ImGui::SameLine();
  if (ImGui::Button(">|")) p.last();
  ImGui::SameLine();
  int stage = p.stage();
  ImGui::SetNextItemWidth(std::max(em * 6, ImGui::GetContentRegionAvail().x - em * 14));
  if (ImGui::SliderInt("##stage", &stage, 0, p.stage_count() - 1, "stage %d")) p.seek(stage);
  ImGui::SameLine();
  float speed = static_cast<float>(p.speed());
  ImGui::SetNextItemWidth(em * 8);
  if (ImGui::SliderFloat("##speed", &speed, 0.25f, 8.0f, "%.2g stages/s", ImGuiSliderFlags_Logarithmic))
    p.set_speed(speed);
  // Which picture of the stage: the memory view, or the warp-level views beside it (V cycles).
  for (render::View v : {render::View::Memory, render::View::Lanes, render::View::Divergence, render::View::Banks,
                         render::View::Grid}) {
    if (ImGui::RadioButton(render::to_string(v), s.view == v)) s.view = v;
    ImGui::SameLine();
  }
  ImGui::TextUnformatted("view (V)");
  if (!*s.export_dir) std::snprintf(s.export_dir, sizeof s.export_dir, "%s", default_export_dir().c_str());
  ImGui::SetNextItemWidth(std::max(em * 8, ImGui::GetContentRegionAvail().x - em * 26));
  ImGui::InputText("##export-dir", s.export_dir, sizeof s.export_dir);
  for (const auto& [label, what] : {std::pair{"PNG", StageExport::Png}, std::pair{"Every stage", StageExport::AllStages},
                                    std::pair{"GIF", StageExport::Gif}, std::pair{"MP4", StageExport::Mp4}}) {
    ImGui::SameLine();
    if (ImGui::Button(label)) export_stages(s, what);
  }
  if (!s.export_message.empty()) ImGui::TextUnformatted(s.export_message.c_str());
  ImGui::TextWrapped("%s", core::stage_caption(*s.trace, p.stage()).c_str());
  return view;
}

void source_panel(AppState& s, const Frame& f) {
  place(f, "Kernel source");
  const auto& src = core::source_of(s.choice.algorithm);
  int line = 0;
  if (s.trace && s.trace->algorithm == s.choice.algorithm && !s.trace->stages.empty())
    line = s.trace->stages[s.player.stage()].line;
  ImGui::TextDisabled("%s, %s", src.file.c_str(), src.span().c_str());
  ImGui::BeginChild("code", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
  static int scrolled_to = -1;
  for (std::size_t i = 0; i < src.lines.size(); ++i) {
    const int number = src.numbers[i];
    if (i > 0 && number != src.numbers[i - 1] + 1) ImGui::Separator();  // a helper the kernel calls
    char label[512];
    std::snprintf(label, sizeof label, "%3d  %s##%d", number, src.lines[i].c_str(), number);
    // The probe calls are the instrumentation: dimmed, so the algorithm reads first.
    const bool probe = src.lines[i].find("probe.") != std::string::npos;
    if (probe) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::Selectable(label, number == line);
    if (probe) ImGui::PopStyleColor();
    if (number == line && scrolled_to != line) {
      ImGui::SetScrollHereY(0.4f);
      scrolled_to = line;
    }
  }
  ImGui::EndChild();
  ImGui::End();
}

void status_bar(const AppState& s, const Frame& f) {
  place(f, "Status", ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  const ImVec4 color = gpu ? ImVec4{0.35f, 0.85f, 0.55f, 1} : ImVec4{0.95f, 0.72f, 0.2f, 1};
  const std::string line = backend::status_line(s.backend);
  char result[160] = "";
  if (s.trace)
    std::snprintf(result, sizeof result, "  |  %s of %zu elements = %s", core::to_string(s.trace->op).c_str(),
                  s.trace->size, core::format_value(s.trace->result, s.trace->type).c_str());
  // Where the whole line does not fit (presenter mode's large type), the reason in brackets
  // moves to a tooltip; "CPU model" or the GPU's name always stays.
  const bool fits = ImGui::CalcTextSize((line + result).c_str()).x < f.w - ImGui::GetStyle().WindowPadding.x * 2;
  const auto bracket = line.find(" (");
  ImGui::TextColored(color, "%s", fits || bracket == std::string::npos ? line.c_str() : line.substr(0, bracket).c_str());
  if (!fits && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", line.c_str());
  if (s.trace) {
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(result);
  }
  char frame[32];
  std::snprintf(frame, sizeof frame, "frame %.1f ms", s.frame_ms);
  // The frame time in the right corner, where the line leaves room (presenter mode's large
  // type may not: then it drops rather than overprints the result).
  const float x = f.w - ImGui::CalcTextSize(frame).x - ImGui::GetStyle().WindowPadding.x * 2;
  const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
  if (x > used) {
    ImGui::SameLine(x);
    ImGui::TextDisabled("%s", frame);
  }
  ImGui::End();
}

void handle_keys(AppState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  if (io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_Q, false)) s.quit_requested = true;
  if (ImGui::IsKeyPressed(GLFW_KEY_F11, false) || ImGui::IsKeyPressed(GLFW_KEY_P, false)) {
    s.presenter = !s.presenter;
    s.presenter_changed = true;
  }
  if (s.tab != Tab::Stages) return;
  // Number keys 1-9 pick the first nine traced algorithms, in the catalog's order.
  const auto ids = core::traced_ids();
  for (int k = 0; k < 9 && k < int(ids.size()); ++k)
    if (ImGui::IsKeyPressed(GLFW_KEY_1 + k, false)) s.choice.algorithm = ids[k];
  auto& p = s.player;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) p.toggle();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) p.step_forward();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) p.step_back();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home), false)) p.first();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End), false)) p.last();
  if (ImGui::IsKeyPressed(GLFW_KEY_V, false)) s.view = render::View((int(s.view) + 1) % render::kViewCount);
  if (s.trace) {  // exports: E the view as a PNG, A every stage, G a GIF, M an MP4
    if (ImGui::IsKeyPressed(GLFW_KEY_E, false)) export_stages(s, StageExport::Png);
    if (ImGui::IsKeyPressed(GLFW_KEY_A, false)) export_stages(s, StageExport::AllStages);
    if (ImGui::IsKeyPressed(GLFW_KEY_G, false)) export_stages(s, StageExport::Gif);
    if (ImGui::IsKeyPressed(GLFW_KEY_M, false)) export_stages(s, StageExport::Mp4);
  }
}

}  // namespace rl::ui
