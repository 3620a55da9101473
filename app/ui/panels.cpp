#include "panels.h"

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>  // key codes: the ImGui GLFW backend reports GLFW keys

#include <algorithm>
#include <optional>
#include <limits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <tuple>
#include <utility>

#include "../backend/backend.h"
#include "../core/catalog.h"
#include "../core/bench.h"
#include "../core/embedded.h"
#include "../core/facts.h"
#include "../core/glossary.h"
#include "../render/bench_chart.h"
#include "../render/export.h"
#include "../render/matrix_view.h"
#include "compare.h"
#include "colors.h"
#include "race_pane.h"
#include "rich_text.h"
#include "settings.h"
#include "work_pane.h"

namespace rl::ui {
namespace {

void place(const Frame& f, const char* name, ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos({f.x, f.y}, ImGuiCond_Always);
  ImGui::SetNextWindowSize({f.w, f.h}, ImGuiCond_Always);
  ImGui::Begin(name, nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus | extra);
}

template <class E>
bool combo(const char* label, E& value, const char* const* names, int count) {
  int i = static_cast<int>(value);
  if (!ImGui::Combo(label, &i, names, count)) return false;
  value = static_cast<E>(i);
  return true;
}

}  // namespace

// A lesson's "Look:" pointer: a button that shows its stage in its view, and what to see.
static void pointer_line(AppState& s, const core::Pointer& look, const core::Trace* trace) {
  const int stage = trace ? core::pointed_stage(*trace, look) : -1;
  const auto view = render::parse_view(look.view);
  const std::string label = "Look: " + core::pointer_label(look, trace);
  ImGui::BeginDisabled(stage < 0 || !view);
  if (ImGui::Button(label.c_str())) {
    s.view = *view;
    s.player.seek(stage);
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(stage >= 0 ? "Show this stage in this view" : "Run this algorithm first: no stage of this kind yet");
  rich_text(look.text);
}

// The short lesson, where to look, and the depth under "More". Its numbers come from the run
// on screen; before its trace is there, from the model's.
static void lesson_text(AppState& s, bool more = true) {
  const auto* about = core::find_algorithm(s.choice.algorithm);
  if (!about) return;
  const core::Trace* trace = s.trace && s.trace->algorithm == about->id ? &*s.trace : nullptr;
  const core::AlgorithmInfo lesson = trace ? core::fill_lessons(*about, *trace) : backend::with_numbers(*about);
  rich_text(lesson.brief);
  if (lesson.look) {
    ImGui::Spacing();
    pointer_line(s, *lesson.look, trace);
  }
  if (more && !lesson.detail.empty() && ImGui::CollapsingHeader("More")) rich_text(lesson.detail);
}

// Every glossary entry; its own terms are underlined too.
static void glossary_tab() {
  for (const auto& t : core::glossary()) {
    ImGui::TextColored(ImGui::GetStyleColorVec4(ImGuiCol_PlotLinesHovered), "%s", t.term.c_str());
    ImGui::Indent();
    rich_text(t.definition);
    ImGui::Unindent();
  }
}

// The lesson and, beside it in tabs, what a class asks next: the run's work and depth, and
// its floating-point error.
static void lesson_pane(AppState& s, float height) {
  // --pane opens one tab once; afterwards the user's clicks choose.
  const std::string wanted = std::exchange(s.pane, "");
  const auto opened = [&](const char* name) { return wanted == name ? ImGuiTabItemFlags_SetSelected : 0; };
  ImGui::BeginChild("lesson", {0, height}, false);
  if (ImGui::BeginTabBar("lesson tabs")) {
    const struct {
      const char *label, *name;
      void (*draw)(AppState&);
    } tabs[] = {{"Lesson", "lesson", [](AppState& st) { lesson_text(st); }},
                {"Work", "work", work_pane},
                {"Float", "float", float_pane},
                {"Glossary", "glossary", [](AppState&) { glossary_tab(); }}};
    for (const auto& tab : tabs) {
      if (!ImGui::BeginTabItem(tab.label, nullptr, opened(tab.name))) continue;
      ImGui::BeginChild(tab.name);
      tab.draw(s);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
}

// The last item's meaning, on hover.
static void tip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

// A field's value was not taken as typed: say why, beside it, until the next change.
static void note(const std::string& text, std::string& kept, bool changed) {
  if (changed) kept = text;
  if (kept.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, kAmber);
  ImGui::TextWrapped("%s", kept.c_str());
  ImGui::PopStyleColor();
}

// A matrix algorithm's rows or columns: N or 2^K, taken when the field is left, checked
// (core::check_matrix_side) with its note.
static void shape_field(AppState& s, bool rows) {
  RunChoice& c = s.choice;
  int& value = rows ? c.rows : c.cols;
  char* text = rows ? s.shape_text.rows : s.shape_text.cols;
  constexpr std::size_t kText = sizeof s.shape_text.rows;
  ImGui::InputText(rows ? "rows" : "cols", text, kText, ImGuiInputTextFlags_CharsNoBlank);
  tip(rows ? "Rows of the matrix: N or 2^K; rows x cols at most 1,048,576 in the window (bench times larger ones)"
           : "Columns of the matrix: N or 2^K; rows x cols at most 1,048,576 in the window (bench times larger ones)");
  const bool done = ImGui::IsItemDeactivatedAfterEdit();
  if (!ImGui::IsItemActive() && !done) std::snprintf(text, kText, "%d", value);
  core::Checked checked{value, {}};
  if (done) checked = core::check_matrix_side(text, rows, value, rows ? c.cols : c.rows, kMaxTracedSize);
  value = int(checked.value);
  if (done) std::snprintf(text, kText, "%d", value);
  note(checked.note, rows ? s.notes.rows : s.notes.cols, done);
}

// Block size, array size (or a matrix's rows and columns) and traced block, each checked
// (core::check_*) with its note.
static void size_fields(AppState& s) {
  RunChoice& c = s.choice;
  const auto* info = core::find_algorithm(c.algorithm);
  const bool any = info && info->any_block;
  bool edited = false;
  if (any) {
    edited = ImGui::InputInt("block size", &c.block, 1, 32);
    tip("Threads per block: this kernel takes any size from 2 to 1024");
  } else {
    static const char* blocks[] = {"32", "64", "128", "256", "512", "1024"};
    int bi = 0;
    while ((32 << bi) < c.block && bi < 5) ++bi;
    if (ImGui::Combo("block size", &bi, blocks, 6)) c.block = 32 << bi, edited = true;
    tip("Threads per block: this kernel takes powers of two from 32 to 1024");
  }
  const auto block = core::check_block(c.block, any);
  note(block.note, s.notes.block, edited || !block.note.empty());
  c.block = int(block.value);
  if (info && info->matrix) {
    shape_field(s, true);
    shape_field(s, false);
  } else if (!c.typed) {
    std::int64_t typed = c.size;
    const bool changed = ImGui::InputScalar("array size", ImGuiDataType_S64, &typed) && typed != c.size;
    tip("Elements in the array, 1 to 1,048,576 in the window (bench times larger ones)");
    const auto size = core::check_array_size(typed, c.size, kMaxTracedSize);
    note(size.note, s.notes.size, changed);
    c.size = int(size.value);
  }
  std::int64_t traced = c.trace_block;
  const bool changed = ImGui::InputScalar("traced block", ImGuiDataType_S64, &traced) && traced != c.trace_block;
  tip("Which block of the grid the views show: every block runs, this one is recorded");
  // A matrix's grid comes from its shape and the device: known once its run is in.
  const std::int64_t grid = s.trace && s.trace->algorithm == c.algorithm ? std::int64_t(s.trace->grid)
                            : info && info->matrix                       ? std::numeric_limits<int>::max()
                                                                         : (std::int64_t(c.size) + c.block - 1) / c.block;
  const auto trace_block = core::check_trace_block(traced, grid);
  note(trace_block.note, s.notes.trace_block, changed || !trace_block.note.empty());
  c.trace_block = int(trace_block.value);
}

// The plan's next (+1) or previous (-1) scene, if there is one.
static void step_scene(AppState& s, int by) {
  const int next = s.scene + by;
  if (next < 0 || next >= int(s.plan->scenes.size())) return;
  s.scene = next;
  apply_scene(s, s.plan->scenes[std::size_t(next)]);
}

// Save the whole state under a name, open a saved one, or step a lesson plan's scenes.
static void scenes_section(AppState& s) {
  if (!ImGui::CollapsingHeader("Scenes and plans")) return;
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(-em * 5);
  ImGui::InputTextWithHint("##scene name", "scene name", s.scene_name, sizeof s.scene_name);
  ImGui::SameLine();
  ImGui::BeginDisabled(!*s.scene_name);
  if (ImGui::Button("Save")) {
    const std::string path = scene_path(s.scene_name);
    std::string why;
    s.scene_message = path.empty() ? "no config folder to save scenes in"
                      : core::save_settings(current_scene(s), path, &why) ? "saved " + path : why;
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Keeps algorithm, compare, view, stage, tab, sizes, input, presenter mode and panel widths");
  for (const auto& name : saved_scenes()) {
    if (ImGui::SmallButton(name.c_str())) {
      const auto loaded = core::load_settings(scene_path(name), core::Whose::Named);
      apply_scene(s, loaded.settings);
      s.scene_message = loaded.problem.empty() ? "opened " + name : loaded.problem;
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
  for (const auto name : embedded::plan_names()) {
    if (ImGui::Button(("Plan: " + std::string(name)).c_str())) {
      try {
        open_plan(s, std::string(name));
      } catch (const std::exception& e) {
        s.scene_message = e.what();
      }
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
  if (s.plan) {
    const auto heading = plan_heading(s);
    ImGui::TextUnformatted(heading.plan.c_str());
    ImGui::TextWrapped("%s", heading.scene.c_str());
    if (ImGui::ArrowButton("##prev scene", ImGuiDir_Left)) step_scene(s, -1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next scene", ImGuiDir_Right)) step_scene(s, 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("Close plan")) s.plan.reset();
  }
  if (!s.scene_message.empty()) ImGui::TextWrapped("%s", s.scene_message.c_str());
}

void algorithm_panel(AppState& s, const Frame& f) {
  place(f, "Algorithm");
  ImGui::BeginChild("list", {0, f.h * 0.28f}, true);
  std::string family;
  for (const auto& a : core::algorithms()) {
    if (a.kind == core::Kind::Baseline) continue;  // timed by bench; nothing to step through
    if (a.family != family) {
      family = a.family;
      ImGui::TextDisabled("%s family", family.c_str());
    }
    if (ImGui::Selectable(a.title.c_str(), s.choice.algorithm == a.id)) s.choice.algorithm = a.id, s.notes = {};
  }
  ImGui::EndChild();
  // Compare mode: a second algorithm beside the first, on the same input, in lockstep.
  const auto ids = core::traced_ids();
  int pick = 0;
  for (int i = 0; i < int(ids.size()); ++i)
    if (ids[i] == s.choice.compare) pick = i + 1;
  std::vector<const char*> names{"(none)"};
  for (const auto& id : ids) names.push_back(id.c_str());
  names[0] = "compare with: none";
  ImGui::SetNextItemWidth(-1);
  if (ImGui::Combo("##compare", &pick, names.data(), int(names.size()))) s.choice.compare = pick ? ids[pick - 1] : "";
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A second algorithm beside the first, on the same input, in lockstep");
  lesson_pane(s, f.h * 0.34f);
  ImGui::Separator();
  ImGui::TextDisabled("Run");
  const float em = ImGui::GetFontSize();
  ImGui::PushItemWidth(-em * 6);
  static const char* ops[] = {"sum", "min", "max"};
  static const char* types[] = {"int", "float", "double"};
  combo("operator", s.choice.op, ops, 3);
  tip("What the reduction combines with: sum, min or max");
  combo("type", s.choice.type, types, 3);
  tip("Element type: int sums wrap at 32 bits; float and double round");
  size_fields(s);
  // iota, ones, random (with a seed), a file of numbers, or values typed or pasted here.
  static const char* inputs[] = {"iota (1, 2, 3, ...)", "ones", "random", "file", "typed values"};
  int kind = s.choice.typed ? 4 : static_cast<int>(s.choice.input.kind);
  const bool picked = ImGui::Combo("input", &kind, inputs, 5);
  tip("The array's values: 1, 2, 3...; all ones; random with a seed; a file of numbers; or your own");
  if (picked) {
    s.choice.typed = kind == 4;
    if (kind < 4) s.choice.input.kind = static_cast<core::InputSpec::Kind>(kind);
  }
  if (!s.choice.typed && s.choice.input.kind == core::InputSpec::Kind::Random) {
    int seed = static_cast<int>(s.choice.input.seed);
    if (ImGui::InputInt("seed", &seed)) s.choice.input.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  }
  if (!s.choice.typed && s.choice.input.kind == core::InputSpec::Kind::File) {
    char path[core::Settings::kMaxPath + 1];
    std::snprintf(path, sizeof path, "%s", s.choice.input.path.c_str());
    if (ImGui::InputText("path", path, sizeof path, ImGuiInputTextFlags_EnterReturnsTrue)) s.choice.input.path = path;
  }
  if (s.choice.typed) {
    static char buf[core::Settings::kMaxTyped + 1];
    if (s.choice.values != buf) std::snprintf(buf, sizeof buf, "%s", s.choice.values.c_str());
    ImGui::InputTextMultiline("##values", buf, sizeof buf, {-1, em * 4});
    if (ImGui::IsItemDeactivatedAfterEdit()) s.choice.values = buf;  // re-run once editing ends
    ImGui::TextDisabled("numbers, separated by spaces, commas or lines");
  }
  ImGui::PopItemWidth();
  const auto* info = core::find_algorithm(s.choice.algorithm);
  const bool ran = s.trace && s.trace->algorithm == s.choice.algorithm;
  const std::size_t grid = ran ? s.trace->grid
                               : (std::size_t(s.choice.size) + std::size_t(s.choice.block) - 1) / std::size_t(s.choice.block);
  if (ran || !(info && info->matrix)) ImGui::Text("%zu block%s of %d threads", grid, grid == 1 ? "" : "s", s.choice.block);
  race_section(s);
  scenes_section(s);
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
  // Compare mode: both views side by side, named after both.
  const std::string base = std::string(s.export_dir) + "/" + s.trace->algorithm +
                           (s.compare_trace ? "-vs-" + s.compare_trace->algorithm : "") + "-" + render::to_string(s.view);
  std::error_code ec;
  std::filesystem::create_directories(s.export_dir, ec);
  constexpr int w = 1600, h = 900;
  if (what == StageExport::Png) {  // one frame: drawn at once in the window's own context
    char stage[16];
    std::snprintf(stage, sizeof stage, "-stage%02d.png", s.player.stage());
    const std::string path = base + stage;
    const render::Look look{s.view, true, nullptr, s.warp, s.bank_row, s.stale_read};
    const auto done = s.compare_trace ? render::export_compare_png(*s.trace, *s.compare_trace, s.player.stage(), w, h, path, look)
                                      : render::export_stage_png(*s.trace, s.player.stage(), w, h, path, look);
    s.export_message = done.ok() ? "Saved " + path : "Export failed: " + done.error;
    return;
  }
  if (s.export_job.running()) {
    s.export_message = "An export is running: wait for it or cancel it first";
    return;
  }
  auto& job = s.export_job;
  job.progress = std::make_shared<render::Progress>();
  job.path = what == StageExport::AllStages ? base + "-stageNN.png" : base + (what == StageExport::Gif ? ".gif" : ".mp4");
  const render::Look look{s.view, false, job.progress.get(), s.warp, s.bank_row, s.stale_read};
  job.result = std::async(std::launch::async, [trace = *s.trace, second = s.compare_trace, look, what, base, path = job.path,
                                               keep = job.progress] {
    (void)keep;  // holds the progress the worker writes to, whatever the window does meanwhile
    // Lowest priority, for this thread and the renderer threads it starts (Linux: nice is per
    // thread, and inherited): the window's frames come first.
    if (setpriority(PRIO_PROCESS, 0, 19) != 0) {
      // Not allowed: the export still runs, only at the window's priority.
    }
    const core::Trace* beside = second ? &*second : nullptr;
    return what == StageExport::AllStages ? render::export_all_stages(trace, w, h, base, look, beside)
                                          : render::export_video(trace, w, h, path, look, beside);
  });
  s.export_message.clear();
}

// A running export's progress and Cancel; its outcome once it ends.
void export_status(AppState& s) {
  auto& job = s.export_job;
  if (!job.running()) return;
  if (job.result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    const auto done = job.result.get();
    s.export_message = done.ok() ? "Saved " + job.path : "Export failed: " + done.error;
    return;
  }
  const int total = std::max(job.progress->total.load(), 1), done = job.progress->done.load();
  char label[64];
  std::snprintf(label, sizeof label, "frame %d of %d", done, total);
  ImGui::ProgressBar(float(done) / float(total), {-ImGui::GetFontSize() * 6, 0}, label);
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) job.progress->cancel = true;
}

void export_all(BenchUi& b, const core::BenchReport& report) {
  const std::string base = b.export_path;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(base).parent_path(), ec);
  const render::Exported done = render::export_bench(report, shown_chart(b, report), base, true);
  b.message = done.ok() ? "Saved " + base + ".png, .csv and .json" : "Export failed: " + done.error;
}

constexpr const char* kModelTimings =
    "CPU model timings: they show the host's cost of modelling each algorithm, not a GPU's.";

// The first report of each shipped run (one entry a run in the source chooser).
std::vector<const core::ShippedReport*> first_of_each_run() {
  std::vector<const core::ShippedReport*> runs;
  for (const auto& r : core::shipped_reports())
    if (std::none_of(runs.begin(), runs.end(), [&](auto* seen) { return seen->run == r.run; })) runs.push_back(&r);
  return runs;
}

// A shipped run's report of the tab's type, operator and family (arrays or matrices); null where
// that run did not measure them.
const core::BenchReport* run_report(const BenchUi& b, std::string_view run) {
  return core::shipped_report(run, core::to_string(b.type), core::to_string(b.op), b.matrix);
}

// Which timings the tab shows: each shipped GPU run, or the benchmark run here; the
// chooser leaves `right` pixels of its row for the button beside it.
void source_choice(AppState& s, float right) {
  BenchUi& b = s.bench;
  std::vector<std::string> keys, names;
  for (const auto* r : first_of_each_run()) {
    keys.push_back(r->run);
    // The date of the report the tab would show: a run's array and matrix sweeps may be days apart.
    const auto* shown = run_report(b, r->run);
    const core::BenchReport& named = shown ? *shown : r->report;
    names.push_back(named.device + ", " + named.date + " (shipped run, not this machine)");
  }
  keys.push_back(kRunHere);
  names.push_back("Run here (" + (s.backend.backend ? s.backend.backend->device() : std::string("no backend")) + ")");
  int pick = int(std::find(keys.begin(), keys.end(), b.source) - keys.begin());
  std::vector<const char*> items;
  for (const auto& n : names) items.push_back(n.c_str());
  ImGui::SetNextItemWidth(-right);
  if (ImGui::Combo("##source", &pick, items.data(), int(items.size()))) b.source = keys[std::size_t(pick)];
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Whose timings the chart and the table show");
}

// Whose timings these are, in words, under the controls; wrapped, as the panel is narrow.
void source_label(const BenchUi& b, bool gpu) {
  const auto say = [](const ImVec4& color, const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, color);
    ImGui::TextWrapped("%s", text.c_str());
    ImGui::PopStyleColor();
  };
  if (shows_shipped(b)) {
    // The shown report's own device and date: a run's files may be measured at different times.
    const auto* shown = run_report(b, b.source);
    for (const auto* r : first_of_each_run())
      if (r->run == b.source) say(kShippedBlue, "Shipped with the program: " + core::shipped_label(shown ? *shown : r->report) + ".");
    if (!shown)
      say(kAmber, "This run has no " + core::to_string(b.type) + " " + core::to_string(b.op) +
                      (b.matrix ? " over matrix shapes" : "") + "; it holds " + core::shipped_contents(b.source) + ".");
    return;
  }
  if (!gpu) say(kAmber, kModelTimings);
}

// The Bandwidth tab's first rows: whose timings and Run here (or Cancel), what to measure,
// progress, and whose timings in words.
void bench_controls(AppState& s, bool gpu) {
  BenchUi& b = s.bench;
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* button = b.worker.running() ? "Cancel" : "Run here";
  source_choice(s, ImGui::CalcTextSize(button).x + style.FramePadding.x * 2 + style.ItemSpacing.x);
  ImGui::SameLine();
  if (b.worker.running()) {
    if (ImGui::Button(button)) b.worker.cancel();
  } else if (ImGui::Button(button) || std::exchange(b.start_requested, false)) {
    start_bench(s);
  }
  static const char* types[] = {"int", "float", "double"};
  static const char* ops[] = {"sum", "min", "max"};
  ImGui::SetNextItemWidth(em * 5);
  combo("##type", b.type, types, 3);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 4.5f);
  combo("##op", b.op, ops, 3);
  ImGui::SameLine();
  ImGui::SameLine();
  static const char* kinds[] = {"arrays", "matrices"};
  int kind = b.matrix ? 1 : 0;
  ImGui::SetNextItemWidth(em * 6.5f);
  if (ImGui::Combo("##kind", &kind, kinds, 2)) b.matrix = kind == 1, b.table_shape = -1;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Arrays: the 1D algorithms over sizes.\nMatrices: the matrix family and its anchors (CUB's "
                      "segmented reduce, cuBLAS gemv) over shapes; x is then the number of rows.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 7);
  if (b.matrix) {
    ImGui::InputText("shapes", b.shapes, sizeof b.shapes);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("ROWSxCOLS,... (each N or 2^K, e.g. 2^8x2^20), or sweep: 2^28 elements from 2^4 to 2^24 rows "
                        "on a GPU, 2^20 elements on the CPU model");
  } else {
    ImGui::InputText("sizes", b.sizes, sizeof b.sizes);
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("algorithms").x + style.ItemInnerSpacing.x));
  ImGui::InputText("algorithms", b.algorithms, sizeof b.algorithms);
  if (!shows_shipped(b)) {
    const auto progress = b.worker.progress();
    const float done = progress.total ? float(progress.done) / float(progress.total) : 0.0f;
    char label[160];
    std::snprintf(label, sizeof label, "%zu / %zu  %s", progress.done, progress.total,
                  b.worker.running() ? progress.current.c_str() : "");
    ImGui::ProgressBar(done, {-1, 0}, label);
  }
  source_label(b, gpu);
  if (!b.worker.error().empty()) ImGui::TextColored(kErrorRed, "%s", b.worker.error().c_str());
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

// What each column of the Harris table holds, on hover of its header.
std::string harris_tip(int column, double peak_gbps) {
  switch (column) {
    case 0: return "The algorithm: Harris' seven kernels first, in his order, then the others in the catalog's order.\n"
                   "Hover a name for the threads a block it ran with.";
    case 1: return "The median time of one whole reduction of n elements, in microseconds, over the run's samples\n"
                   "(on a GPU each sample reads its input cold: reading a buffer twice the L2's size evicts it first).";
    case 2: return "Bandwidth: the bytes the algorithm must move (the input once, plus the result; copy reads and\n"
                   "writes the input), divided by the median time.";
    case 3: {
      if (peak_gbps <= 0) return "The CPU model has no peak bandwidth to compare with.";
      char buf[200];
      std::snprintf(buf, sizeof buf, "GB/s as a percentage of the device's peak memory bandwidth, %.0f GB/s\n"
                                     "(2 x memory clock x bus width, from the device's attributes).", peak_gbps);
      return buf;
    }
    case 4: return "Step speedup: the time of the kernel before this one in Harris' order over this one's.\n"
                   "The first of his kernels measured shows 1.00x; '-' for the algorithms outside his progression.";
    case 5: return "G80 (Harris), quoted, not measured here: Mark Harris' step speedup of this kernel\n"
                   "over the one before it, on a G80 with 2^22 ints (\"Optimizing Parallel Reduction\n"
                   "in CUDA\", NVIDIA, 2007). Shown where the measured step is over that same kernel.";
    default: return "Total speedup: the first row's time (Harris' kernel 1 where it was measured) over this row's.";
  }
}

// A report without a peak (the CPU model's) shows "-" for % of peak, not 0.
void harris_rows(const std::vector<core::HarrisRow>& rows, double peak_gbps) {
  const bool has_peak = peak_gbps > 0;
  if (!ImGui::BeginTable("harris", 7, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY)) return;
  ImGui::TableSetupColumn("algorithm", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 14);
  // Short headers: the panel is narrow. Each says in full what it is in its tooltip.
  for (const char* h : {"time us", "GB/s", "% peak", "step", "G80", "total"}) ImGui::TableSetupColumn(h);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < 7; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", harris_tip(c, peak_gbps).c_str());
  }
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
    if (ImGui::IsItemHovered()) {
      if (r.block > 0) ImGui::SetTooltip("%d threads a block", r.block);
      else ImGui::SetTooltip("No block size recorded: a baseline chooses its own, and older files did not record it");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.median_us);
    ImGui::TableNextColumn();
    ImGui::Text(r.gbps < 10 ? "%.3f" : "%.0f", r.gbps);
    ImGui::TableNextColumn();
    if (has_peak) ImGui::Text("%.1f%%", r.pct_of_peak);
    else ImGui::TextDisabled("-");
    ImGui::TableNextColumn();
    if (std::isnan(r.step_speedup)) ImGui::TextDisabled("-");
    else ImGui::Text("%.2fx", r.step_speedup);
    ImGui::TableNextColumn();
    if (std::isnan(r.g80_step)) ImGui::TextDisabled("-");
    else ImGui::Text("%.2fx", r.g80_step);
    ImGui::TableNextColumn();
    ImGui::Text("%.2fx", r.cumulative_speedup);
  }
  ImGui::EndTable();
}

// The table's own line saying whose timings it holds: it is read apart from the chart.
void table_caption(const BenchUi& b, const core::BenchReport& report) {
  if (shows_shipped(b)) ImGui::TextColored(kShippedBlue, "Table: measured on %s, not this machine.", report.device.c_str());
  else if (report.backend == "sim") ImGui::TextColored(kAmber, "Table: %s timings (the host's cost, not a GPU's).", report.device.c_str());
  else ImGui::TextDisabled("Table: measured here, on %s.", report.device.c_str());
}

// The export's path and button (on the current line), then the last outcome.
void export_row(BenchUi& b, const core::BenchReport& report) {
  const char* button = "Export PNG + CSV + JSON";
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize(button).x + style.FramePadding.x * 2 + style.ItemSpacing.x));
  ImGui::InputText("##export", b.export_path, sizeof b.export_path);
  ImGui::SameLine();
  if (ImGui::Button(button)) export_all(b, report);
  if (!b.message.empty()) ImGui::TextWrapped("%s", b.message.c_str());
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
  export_row(b, report);
  table_caption(b, report);
  harris_rows(core::harris_table(report, ns[idx], core::to_string(b.type), core::to_string(b.op)), report.peak_gbps);
}

// Below the chart of a matrix sweep: which shape the table is for, and each algorithm's row.
void matrix_section(BenchUi& b, const core::BenchReport& report) {
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  for (const auto& r : report.rows)
    if (std::find(shapes.begin(), shapes.end(), std::pair(r.rows, r.cols)) == shapes.end()) shapes.push_back({r.rows, r.cols});
  if (shapes.empty()) {
    if (!b.message.empty()) ImGui::TextWrapped("%s", b.message.c_str());
    return;
  }
  int idx = b.table_shape < 0 || b.table_shape >= int(shapes.size()) ? 0 : b.table_shape;
  char label[64];
  std::snprintf(label, sizeof label, "%zu x %zu", shapes[idx].first, shapes[idx].second);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (ImGui::SliderInt("##shape", &idx, 0, int(shapes.size()) - 1, label)) b.table_shape = idx;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The shape (rows x columns) the table below is for");
  ImGui::SameLine();
  export_row(b, report);
  table_caption(b, report);
  if (!ImGui::BeginTable("##matrix", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp))
    return;
  static const char* heads[] = {"algorithm", "time us", "GB/s", "% peak", "check"};
  static const char* tips[] = {
      "The matrix kernel, or an anchor: cub-segmented (CUB's segmented reduce, a segment per row) and cuBLAS gemv with "
      "a ones vector (rows, or the transpose for columns). Hover a name for its block.",
      "Median time of one whole reduction of the matrix over the run's samples.",
      "Bytes over the median time: the matrix read once, plus one value written per output (row, column, or one).",
      "GB/s over the device's peak (2 x memory clock x bus width), read from the device.",
      "Every output against the exact row or column result: exact for ints, min and max; within rounding for float sums."};
  for (int c = 0; c < 5; ++c) ImGui::TableSetupColumn(heads[c]);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < 5; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(heads[c]);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tips[c]);
  }
  for (const auto& r : report.rows) {
    if (r.rows != shapes[idx].first || r.cols != shapes[idx].second) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.algorithm.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", r.block ? ("blocks of " + std::to_string(r.block) + " threads").c_str() : "a library: its own blocks");
    ImGui::TableNextColumn();
    ImGui::Text("%.1f", r.median_us);
    ImGui::TableNextColumn();
    ImGui::Text("%.0f", r.gbps);
    ImGui::TableNextColumn();
    if (report.peak_gbps > 0) ImGui::Text("%.1f", r.pct_of_peak);
    else ImGui::TextUnformatted("-");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.check_ok ? "ok" : r.check.c_str());
  }
  ImGui::EndTable();
}

// On matrices, a shipped run without matrix shapes gives way to one that has them.
void prefer_run_with_matrices(BenchUi& b) {
  if (!b.matrix || !shows_shipped(b) || run_report(b, b.source)) return;
  for (const auto& run : core::shipped_runs())
    if (run_report(b, run)) b.source = run;
}

void bench_tab(AppState& s, unsigned chart_texture, Frame* chart) {
  BenchUi& b = s.bench;
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  settle_source(s);
  prefer_run_with_matrices(b);
  if (!*b.sizes) std::snprintf(b.sizes, sizeof b.sizes, "%s", gpu ? "2^16..2^28" : "2^10..2^16");
  if (!*b.export_path) std::snprintf(b.export_path, sizeof b.export_path, "%s", default_export_base().c_str());
  bench_controls(s, gpu);
  const core::BenchReport report = shown_report(b);
  chart_image(b, chart_texture, ImGui::GetFontSize() * 10.4f, chart);
  if (b.matrix) matrix_section(b, report);
  else harris_section(b, report);
}

}  // namespace

bool shows_shipped(const BenchUi& b) { return !b.source.empty() && b.source != kRunHere; }

void settle_source(AppState& s) {
  if (!s.bench.source.empty()) return;
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  const auto runs = core::shipped_runs();
  s.bench.source = gpu || runs.empty() ? kRunHere : runs.front();
}

core::BenchReport shown_report(const BenchUi& b) {
  if (!shows_shipped(b)) return b.worker.report();
  if (const auto* r = run_report(b, b.source)) return *r;
  for (const auto& r : core::shipped_reports())
    if (r.run == b.source) {  // its device and date, and no rows: this run did not measure the type
      core::BenchReport named = r.report;
      named.rows.clear();
      return named;
    }
  return {};
}

render::PlotSpec shown_chart(const BenchUi& b, const core::BenchReport& report) {
  const auto origin = shows_shipped(b) ? render::Origin::Shipped : render::Origin::ThisMachine;
  auto spec = render::bench_chart(report, core::to_string(b.type), core::to_string(b.op), origin);
  for (auto& series : spec.series) series.visible = !b.hidden.count(series.name);
  return spec;
}

void start_bench(AppState& s) {
  BenchUi& b = s.bench;
  b.source = kRunHere;  // the run's rows stream into the chart
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  if (!*b.sizes) std::snprintf(b.sizes, sizeof b.sizes, "%s", gpu ? "2^16..2^28" : "2^10..2^16");
  std::string why;
  backend::BenchRequest req;
  req.type = b.type;
  req.op = b.op;
  if (b.matrix) {
    const std::string text = b.shapes;
    const auto shapes = text == "sweep" ? std::optional(core::default_shapes(gpu ? 28 : 20)) : core::parse_shapes(text, &why);
    if (!shapes) {
      b.message = "Shapes: " + why;
      return;
    }
    req.shapes = *shapes;
  } else {
    const auto sizes = core::parse_sizes(b.sizes, &why);
    if (!sizes) {
      b.message = "Sizes: " + why;
      return;
    }
    req.sizes = *sizes;
  }
  const std::string ids = b.algorithms;
  if (ids == "all") {
    req.algorithms = b.matrix ? backend::default_matrix_bench_algorithms(b.type, b.op) : backend::default_bench_algorithms();
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

// The next item on this line if `width` still fits, else on the next: toolbars wrap on a
// narrow window instead of cutting their last controls off.
static void wrap_item(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

// First, back, play, forward, last, the stage slider and the speed, wrapping as needed.
static void player_controls(AppState& s) {
  auto& p = s.player;
  const float em = ImGui::GetFontSize();
  const float pad = ImGui::GetStyle().FramePadding.x * 2;
  const struct {
    const char* label;
    const char* tip;
  } buttons[] = {{"|<", "First stage (Home)"}, {"<", "Previous stage (Left)"}, {p.playing() ? "Pause" : "Play", "Play or pause (Space)"},
                 {">", "Next stage (Right)"}, {">|", "Last stage (End)"}};
  for (int i = 0; i < 5; ++i) {
    if (i > 0) wrap_item(ImGui::CalcTextSize(buttons[i].label).x + pad);
    const bool pressed = i == 2 ? ImGui::Button(buttons[i].label, {em * 4, 0}) : ImGui::Button(buttons[i].label);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", buttons[i].tip);
    if (!pressed) continue;
    if (i == 0) p.first();
    if (i == 1) p.step_back();
    if (i == 2) p.toggle();
    if (i == 3) p.step_forward();
    if (i == 4) p.last();
  }
  wrap_item(em * 8);
  int stage = p.stage();
  ImGui::SetNextItemWidth(std::max(em * 8, ImGui::GetContentRegionAvail().x - em * 9));
  if (ImGui::SliderInt("##stage", &stage, 0, p.stage_count() - 1, "stage %d")) p.seek(stage);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The stage on screen: drag, or Left and Right");
  wrap_item(em * 8);
  float speed = static_cast<float>(p.speed());
  ImGui::SetNextItemWidth(em * 8);
  if (ImGui::SliderFloat("##speed", &speed, 0.25f, 8.0f, "%.2g stages/s", ImGuiSliderFlags_Logarithmic))
    p.set_speed(speed);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Playing speed, in stages a second");
}

// The banks view shows 16 warp-wide accesses at a time, the coalescing view 8 warp-wide loads:
// buttons page through the rest.
static void row_pager(AppState& s) {
  const int rows = render::paged_rows(s.view, *s.trace, s.player.stage()), page = render::page_rows(s.view);
  if (rows <= page) return;
  s.bank_row = std::clamp(s.bank_row, 0, rows - page);
  const char* what = s.view == render::View::Banks ? "accesses" : "loads";
  wrap_item(ImGui::GetFontSize() * 12);
  if (ImGui::ArrowButton("##earlier rows", ImGuiDir_Up)) s.bank_row = std::max(0, s.bank_row - page);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The previous %d warp-wide %s", page, what);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##later rows", ImGuiDir_Down)) s.bank_row = std::min(rows - page, s.bank_row + page);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The next %d warp-wide %s", page, what);
  ImGui::SameLine();
  ImGui::Text("%s %d-%d of %d", what, s.bank_row + 1, s.bank_row + page, rows);
}

// Where a block is too wide to read, the view shows one warp enlarged: [ and ] or these
// buttons pick which.
static void step_warp(AppState& s, int by) {
  if (s.warps_zoomed > 0) s.warp = std::clamp(s.warp + by, 0, s.warps_zoomed - 1);
}

static void warp_pager(AppState& s) {
  if (s.warps_zoomed <= 0) return;
  s.warp = std::clamp(s.warp, 0, s.warps_zoomed - 1);
  wrap_item(ImGui::GetFontSize() * 12);
  if (ImGui::ArrowButton("##previous warp", ImGuiDir_Left)) step_warp(s, -1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Enlarge the previous warp ([)");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next warp", ImGuiDir_Right)) step_warp(s, 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Enlarge the next warp (])");
  ImGui::SameLine();
  ImGui::Text("warp %d of %d", s.warp, s.warps_zoomed);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("The block is too wide to read its values at the minimum text size: the view enlarges one of its\n"
                      "%d warps (numbered 0 to %d), under a strip of the whole block", s.warps_zoomed, s.warps_zoomed - 1);
}

Frame stage_body(AppState& s, unsigned view_texture, unsigned compare_texture) {
  const float em = ImGui::GetFontSize();
  // The controls below wrap on a narrow window: last frame's height of them is what they need.
  static float controls_h = 0;
  if (controls_h <= 0) controls_h = em * 8;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float views_h = std::max(em * 4, avail.y - controls_h);
  // Compare mode: each view fills its half, the table under them (the caller renders both at view's size).
  const Frame view = s.compare_trace ? compare_views(s, views_h, view_texture, compare_texture)
                                     : Frame{origin.x, origin.y, avail.x, views_h};
  if (!s.compare_trace) image(view_texture, view);
  if (!s.error.empty()) ImGui::TextColored(kErrorRed, "%s", s.error.c_str());
  if (!s.notice.empty()) ImGui::TextColored(kErrorRed, "%s", s.notice.c_str());
  if (!s.race.error.empty()) {  // a recording not opened or made
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorRed);
    ImGui::TextWrapped("%s", s.race.error.c_str());
    ImGui::PopStyleColor();
  }
  if (!s.trace) return view;
  const float top = ImGui::GetCursorPosY();
  player_controls(s);
  // Which picture of the stage: the memory view, or the warp-level views beside it (V cycles).
  // A view with nothing to show for this algorithm is greyed out, its reason on hover.
  if (!render::why_not(s.view, *s.trace).empty()) s.view = render::View::Memory;
  for (render::View v : render::kViews) {
    const std::string why = render::why_not(v, *s.trace);
    if (v != render::View::Memory) wrap_item(ImGui::GetFrameHeight() + ImGui::CalcTextSize(render::to_string(v)).x + em);
    ImGui::BeginDisabled(!why.empty());
    if (ImGui::RadioButton(render::to_string(v), s.view == v)) s.view = v;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", why.empty() ? "Show the stage this way (V cycles the views that apply)" : why.c_str());
  }
  row_pager(s);
  stale_pager(s);
  warp_pager(s);
  if (!*s.export_dir) std::snprintf(s.export_dir, sizeof s.export_dir, "%s", default_export_dir().c_str());
  ImGui::SetNextItemWidth(std::max(em * 8, ImGui::GetContentRegionAvail().x - em * 20));
  ImGui::InputText("##export-dir", s.export_dir, sizeof s.export_dir);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The folder exports are written to");
  for (const auto& [label, what, tip] :
       {std::tuple{"PNG", StageExport::Png, "This stage's view as a PNG (E); in compare mode both views side by side"},
        std::tuple{"Every stage", StageExport::AllStages, "One PNG per stage (A); in compare mode both views side by side"},
        std::tuple{"GIF", StageExport::Gif, "The run as an animated GIF (G); in compare mode both views side by side"},
        std::tuple{"MP4", StageExport::Mp4, "The run as an MP4 video (M); in compare mode both views side by side"}}) {
    wrap_item(ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::Button(label)) export_stages(s, what);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  }
  if (s.gif_requested && s.trace && !s.export_job.running()) {  // --export-gif: once the run is on screen
    s.gif_requested = false;
    export_stages(s, StageExport::Gif);
  }
  export_status(s);
  if (!s.export_message.empty()) ImGui::TextWrapped("%s", s.export_message.c_str());
  ImGui::TextWrapped("%s", core::stage_caption(*s.trace, s.player.stage()).c_str());
  controls_h = ImGui::GetCursorPosY() - top + ImGui::GetStyle().ItemSpacing.y;
  return view;
}

void source_panel(AppState& s, const Frame& f) {
  place(f, "Kernel source");
  const auto& src = core::source_of(s.choice.algorithm);
  int line = 0;
  if (s.trace && s.trace->algorithm == s.choice.algorithm && !s.trace->stages.empty())
    line = s.trace->stages[s.player.stage()].line;
  // A race recording's summary heads the column: the views below keep their height.
  if (s.trace && s.trace->race) {
    race_summary(s);
    ImGui::Separator();
  }
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

// Presenter mode's side: the algorithm picker, the short lesson and the kernel's lines around
// the stage on screen, all in the large type.
void presenter_panel(AppState& s, const Frame& f) {
  place(f, "Presenter");
  const auto* about = core::find_algorithm(s.choice.algorithm);
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##algorithm", about ? about->title.c_str() : s.choice.algorithm.c_str())) {
    for (const auto& a : core::algorithms())
      if (a.kind != core::Kind::Baseline && ImGui::Selectable(a.title.c_str(), a.id == s.choice.algorithm))
        s.choice.algorithm = a.id, s.notes = {};
    ImGui::EndCombo();
  }
  const float em = ImGui::GetFontSize();
  ImGui::BeginChild("presenter lesson", {0, f.h * 0.6f});
  if (s.trace && s.trace->race) {  // here, not under the view: the view keeps its height for the back of the room
    race_summary(s);
    ImGui::Separator();
  }
  lesson_text(s, false);  // the depth stays in the normal layout: this is read from the back
  ImGui::EndChild();
  ImGui::Separator();
  const auto& src = core::source_of(s.choice.algorithm);
  const bool on_screen = s.trace && s.trace->algorithm == s.choice.algorithm && !s.trace->stages.empty();
  const int line = on_screen ? s.trace->stages[std::size_t(s.player.stage())].line : 0;
  // The stage's line and its neighbours; the rest of the kernel is in the normal layout.
  const auto at = std::find(src.numbers.begin(), src.numbers.end(), line);
  const std::size_t mid = at == src.numbers.end() ? 0 : std::size_t(at - src.numbers.begin());
  const std::size_t rows = std::size_t(std::max(3.0f, ImGui::GetContentRegionAvail().y / ImGui::GetTextLineHeightWithSpacing() - 1));
  const std::size_t first = mid > rows / 2 ? std::min(mid - rows / 2, src.lines.size() - std::min(rows, src.lines.size())) : 0;
  ImGui::BeginChild("presenter code", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
  for (std::size_t i = first; i < std::min(src.lines.size(), first + rows); ++i) {
    const bool here = src.numbers[i] == line;
    if (here) ImGui::GetWindowDrawList()->AddRectFilled(ImGui::GetCursorScreenPos(),
                                                      {ImGui::GetCursorScreenPos().x + f.w, ImGui::GetCursorScreenPos().y + em * 1.2f},
                                                      ImGui::GetColorU32(ImGuiCol_Header));
    ImGui::Text("%3d  %s", src.numbers[i], src.lines[i].c_str());
  }
  ImGui::EndChild();
  ImGui::End();
}

// "sum of 1000 elements = 500500"; a matrix algorithm that leaves a result per row or column
// says how many ("33 x 257 matrix: 257 column sums").
static std::string result_text(const core::Trace& t) {
  const std::string op = core::to_string(t.op);
  if (t.rows == 0 || render::matrix_lines(t.algorithm) == render::MatrixLines::Whole)
    return op + " of " + std::to_string(t.size) + " elements = " + core::format_value(t.result, t.type);
  const bool rows = render::matrix_lines(t.algorithm) == render::MatrixLines::Rows;
  return std::to_string(t.rows) + " x " + std::to_string(t.cols) + " matrix: " + std::to_string(rows ? t.rows : t.cols) +
         (rows ? " row " : " column ") + op + "s";
}

void status_bar(const AppState& s, const Frame& f) {
  place(f, "Status", ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  const ImVec4 color = gpu ? kGpuGreen : kAmber;
  const std::string line = backend::status_line(s.backend);
  char result[160] = "";
  if (s.trace) std::snprintf(result, sizeof result, "  |  %s", result_text(*s.trace).c_str());
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

namespace {

// The keys, as the help window lists them: one place for what each does.
struct KeyHelp {
  const char* keys;
  const char* what;
};
constexpr KeyHelp kKeys[] = {
    {"Space", "play or pause the stages"},
    {"Right / Left", "next or previous stage"},
    {"PageDown / PageUp", "next or previous scene of the open plan, else stage (what clickers send)"},
    {"Home / End", "first or last stage"},
    {"V", "next view: memory, lanes, divergence, banks, grid, coalescing"},
    {"1 - 9", "the first nine algorithms of the list"},
    {"E, A, G, M", "export the view as PNG, every stage as PNGs, a GIF, an MP4"},
    {"P or F11", "presenter mode on or off; Esc leaves it"},
    {"? or F1", "this help; Esc closes it"},
    {"Ctrl+ / Ctrl- / Ctrl+0", "zoom the whole window in, out, back to 100 %"},
    {"Ctrl+Z", "undo a change of algorithm, compare, view, stage, tab, sizes, input, presenter mode or panel widths"},
    {"Ctrl+Shift+Z or Ctrl+Y", "redo what Ctrl+Z undid"},
    {"[ / ]", "previous or next warp, where a view shows one warp enlarged (a block too wide to read)"},
    {"F", "a racy pitfall's fix beside it, on the same input in lockstep (compare mode); F again hides it"},
    {"R", "a racy pitfall: run it and its fix N times on the GPU with the race recording (the Race section's button)"},
    {"Ctrl+Q", "quit (the settings are saved)"},
};

// Ctrl+Z undoes the last change of the window's state; Ctrl+Shift+Z and Ctrl+Y redo it.
void undo_keys(AppState& s, int key, int mods) {
  if (!(mods & GLFW_MOD_CONTROL)) return;
  const bool redo = key == GLFW_KEY_Y || (key == GLFW_KEY_Z && (mods & GLFW_MOD_SHIFT));
  if (key != GLFW_KEY_Z && !redo) return;
  if (const auto state = redo ? s.history.redo() : s.history.undo()) apply_scene(s, *state);
}

// One key press, from the window's queue: quick taps between two frames are not lost.
void press(AppState& s, int key, int mods) {
  const bool shift = mods & GLFW_MOD_SHIFT;
  if ((mods & GLFW_MOD_CONTROL) && key == GLFW_KEY_Q) s.quit_requested = true;
  // Ctrl+ and Ctrl- zoom the whole UI (Ctrl+0 back to 100 %): type for the back of the room.
  if ((mods & GLFW_MOD_CONTROL) && (key == GLFW_KEY_EQUAL || key == GLFW_KEY_KP_ADD)) s.zoom = std::min(s.zoom + 0.1f, 3.0f);
  if ((mods & GLFW_MOD_CONTROL) && (key == GLFW_KEY_MINUS || key == GLFW_KEY_KP_SUBTRACT)) s.zoom = std::max(s.zoom - 0.1f, 0.5f);
  if ((mods & GLFW_MOD_CONTROL) && (key == GLFW_KEY_0 || key == GLFW_KEY_KP_0)) s.zoom = 1;
  if (key == GLFW_KEY_F1 || (key == GLFW_KEY_SLASH && shift)) s.help = !s.help;
  undo_keys(s, key, mods);
  if (key == GLFW_KEY_ESCAPE && (s.help || s.presenter)) {
    if (s.help) s.help = false;
    else s.presenter = false, s.presenter_changed = true;
  }
  if (key == GLFW_KEY_F11 || key == GLFW_KEY_P) s.presenter = !s.presenter, s.presenter_changed = true;
  if (s.tab != Tab::Stages || (mods & GLFW_MOD_CONTROL)) return;
  // Number keys 1-9 pick the first nine traced algorithms, in the catalog's order.
  const auto ids = core::traced_ids();
  if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9 && key - GLFW_KEY_1 < int(ids.size())) s.choice.algorithm = ids[key - GLFW_KEY_1];
  auto& p = s.player;
  if (key == GLFW_KEY_SPACE) p.toggle();
  if (s.plan && (key == GLFW_KEY_PAGE_DOWN || key == GLFW_KEY_PAGE_UP)) {
    step_scene(s, key == GLFW_KEY_PAGE_DOWN ? 1 : -1);
    return;
  }
  if (key == GLFW_KEY_RIGHT || key == GLFW_KEY_PAGE_DOWN) p.step_forward();
  if (key == GLFW_KEY_LEFT || key == GLFW_KEY_PAGE_UP) p.step_back();
  if (key == GLFW_KEY_HOME) p.first();
  if (key == GLFW_KEY_END) p.last();
  if (key == GLFW_KEY_V) s.view = render::next_view(s.view, s.trace ? &*s.trace : nullptr);
  if (key == GLFW_KEY_F) toggle_fix(s);
  if (key == GLFW_KEY_R) race_key(s);
  if (key == GLFW_KEY_LEFT_BRACKET || key == GLFW_KEY_RIGHT_BRACKET) step_warp(s, key == GLFW_KEY_RIGHT_BRACKET ? 1 : -1);
  if (!s.trace) return;
  if (key == GLFW_KEY_E) export_stages(s, StageExport::Png);
  if (key == GLFW_KEY_A) export_stages(s, StageExport::AllStages);
  if (key == GLFW_KEY_G) export_stages(s, StageExport::Gif);
  if (key == GLFW_KEY_M) export_stages(s, StageExport::Mp4);
}

}  // namespace

void handle_keys(AppState& s, const std::vector<platform::Window::KeyPress>& keys) {
  if (ImGui::GetIO().WantTextInput) return;  // typing into a field
  for (const auto& k : keys) press(s, k.key, k.mods);
}

void help_window(AppState& s) {
  if (!s.help) return;
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos({size.x * 0.5f, size.y * 0.5f}, ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::Begin("Keys (? or F1 to close)", &s.help, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    for (const auto& k : kKeys) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.keys);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.what);
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("Hover an underlined word in a lesson for its meaning.");
  ImGui::End();
}

}  // namespace rl::ui
