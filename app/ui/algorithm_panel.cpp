// The algorithm panel: what to run, its sizes and input, scenes and plans.
#include "panel_parts.h"

#include <imgui.h>
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
#include "../../kernels/algorithms.h"
#include "../../kernels/collectives.h"
#include "../../kernels/shapes.h"
#include "../core/bench.h"
#include "../core/embedded.h"
#include "../core/facts.h"
#include "../core/glossary.h"
#include "../render/bench_chart.h"
#include "../render/export.h"
#include "../render/matrix_view.h"
#include "compare.h"
#include "open_pane.h"
#include "own_pane.h"
#include "../core/text.h"
#include "colors.h"
#include "race_pane.h"
#include "rich_text.h"
#include "settings.h"
#include "work_pane.h"

namespace rl::ui {

// A matrix algorithm's rows or columns: N or 2^K, taken when the field is left, checked
// (core::check_matrix_side) with its note.
static void shape_field(AppState& s, bool rows) {
  RunChoice& c = s.choice;
  int& value = rows ? c.rows : c.cols;
  char* text = rows ? s.shape_text.rows : s.shape_text.cols;
  constexpr std::size_t kText = sizeof s.shape_text.rows;
  ImGui::InputText(rows ? "rows" : "cols", text, kText, ImGuiInputTextFlags_CharsNoBlank);
  focus_on_near_click(rows ? "rows" : "cols");
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

// The array's size (or each GPU's buffer's), typed as N or 2^K and taken on Enter (or when the
// field is left), checked (core::check_array_size) against `most` with its note: no run starts at
// each keystroke.
static void size_field(AppState& s, const char* label, const char* about, int most) {
  RunChoice& c = s.choice;
  char* text = s.shape_text.size;
  constexpr std::size_t kText = sizeof s.shape_text.size;
  ImGui::InputText(label, text, kText, ImGuiInputTextFlags_CharsNoBlank);
  focus_on_near_click(label);
  tip(about);
  const bool done = ImGui::IsItemDeactivatedAfterEdit();
  if (!ImGui::IsItemActive() && !done) std::snprintf(text, kText, "%d", c.size);
  core::Checked checked{c.size, {}};
  if (done) checked = core::check_array_size(std::string_view(text), c.size, most);
  c.size = int(checked.value);
  if (done) std::snprintf(text, kText, "%d", c.size);
  note(checked.note, s.notes.size, done);
}

// A grid-stride kernel's first-pass blocks: 0 (one wave of the device), or fewer, so that each
// thread takes many elements (Harris' plan, scene 7). Shown for those kernels only.
static void grid_field(AppState& s) {
  RunChoice& c = s.choice;
  const auto* row = kernels::find_row(c.algorithm);
  if (!row || row->shape != kernels::Shape::Array || !kernels::grid_stride(row->indexing)) return;
  int grid = c.grid;
  if (ImGui::InputInt("grid blocks", &grid, 1, 8)) c.grid = std::clamp(grid, 0, 1 << 20);
  // Each kernel has its own rule for 0 (one wave, four blocks an SM, fewer at small sizes): the
  // tip gives the grid the run on screen took rather than one rule for all.
  const bool ran = s.trace && s.trace->algorithm == c.algorithm && c.grid == 0;
  const std::string chosen = ran ? " (this run: " + core::count_text(s.trace->grid, "block", "blocks") + ")" : "";
  tip(("Blocks of the first pass: 0 lets the kernel choose its own grid for this device and size" + chosen +
       "; fewer blocks give\neach thread more elements to combine before the tree")
          .c_str());
}

// Blocks a cluster, for a kernel of clusters (cluster-dsmem) alone: 2, 4 or 8. Returns the size
// the run takes (1: the kernel has no clusters).
static int cluster_field(AppState& s) {
  RunChoice& c = s.choice;
  const auto* row = kernels::find_row(c.algorithm);
  if (!row || row->tree != kernels::Tree::Cluster) return 1;
  static const char* sizes[] = {"2", "4", "8"};
  const int chosen = c.cluster ? c.cluster : row->cluster;
  int at = chosen == 2 ? 0 : chosen == 4 ? 1 : 2;
  if (ImGui::Combo("cluster size", &at, sizes, 3)) c.cluster = 2 << at;
  tip("Blocks a thread block cluster holds: the first block of each reads the others' shared memory.\n"
      "Any size up to 8 is portable; this lab offers 2, 4 and 8");
  return c.cluster ? c.cluster : row->cluster;
}

// The family across GPUs: how many GPUs, and the values each holds (the window traces at most
// kMaxTracedSize values in all).
static void collective_fields(AppState& s) {
  RunChoice& c = s.choice;
  int gpus = c.gpus;
  if (ImGui::InputInt("GPUs", &gpus, 1, 1))
    c.gpus = std::clamp(gpus, model::all_reduce::kMinGpus, model::all_reduce::kMaxGpus);
  tip("GPUs the buffers are spread over, 2 to 8; the CPU model runs every step");
  const int most = kMaxTracedSize / model::all_reduce::kMaxGpus;
  if (!c.typed && c.input.kind != core::InputSpec::Kind::File)
    size_field(s, "values a GPU",
               ("Values in each GPU's buffer: N or 2^K, up to " + std::to_string(most) +
                " in the window; Enter runs it. The ring cuts it into one chunk a GPU")
                   .c_str(),
               most);
}

// Block size, array size (or a matrix's rows and columns) and traced block, each checked
// (core::check_*) with its note.
static void size_fields(AppState& s) {
  RunChoice& c = s.choice;
  if (core::find_collective(c.algorithm)) return collective_fields(s);
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
  } else if (!c.typed && c.input.kind != core::InputSpec::Kind::File) {  // a file's values set the size
    size_field(s, "array size",
               "Elements in the array: N or 2^K, 1 to 1,048,576 in the window (bench times larger ones); Enter runs it",
               kMaxTracedSize);
  }
  grid_field(s);
  const int cluster = cluster_field(s);
  // Every block of a cluster gets data: an empty one would hand its DSMEM reads only identities.
  const bool sized = !c.typed && c.input.kind != core::InputSpec::Kind::File && !(info && info->matrix);
  if (cluster > 1 && sized && std::int64_t(c.size) < std::int64_t(c.block) * cluster) {
    c.size = c.block * cluster;
    s.notes.size = "array size " + std::to_string(c.size) + ": one block's worth for each block of a cluster of " +
                   std::to_string(cluster);
  }
  std::int64_t traced = c.trace_block;
  const bool changed = ImGui::InputScalar("traced block", ImGuiDataType_S64, &traced) && traced != c.trace_block;
  tip("Which block of the grid the views show: every block runs, this one is recorded");
  // The grid of the run on screen; before one, the grid its plan will take on this device;
  // unbounded where neither says (the run then refuses a block outside its grid, in words).
  const auto plan = planned_run(s);
  const std::int64_t grid = s.trace && s.trace->algorithm == c.algorithm ? std::int64_t(s.trace->grid)
                            : plan                                       ? std::int64_t(plan->grid.count())
                                                                         : std::numeric_limits<int>::max();
  const auto trace_block = core::check_trace_block(traced, (grid + cluster - 1) / cluster * cluster, cluster);
  note(trace_block.note, s.notes.trace_block, changed || !trace_block.note.empty());
  c.trace_block = int(trace_block.value);
}

// The plan's next (+1) or previous (-1) scene, if there is one.
void step_scene(AppState& s, int by) {
  const int next = s.scene + by, count = int(s.plan->scenes.size());
  if (next < 0 || next >= count) {
    s.messages.warning(Topic::Plan, next < 0 ? "This is the plan's first scene; PageDown steps on."
                                             : "End of the plan: scene " + std::to_string(count) + " of " +
                                                   std::to_string(count) +
                                                   " was its last. PageUp steps back; Close plan leaves it.");
    return;
  }
  s.messages.clear(Topic::Plan);
  s.scene = next;
  apply_scene(s, s.plan->scenes[std::size_t(next)]);
}

void pick_algorithm(AppState& s, const std::string& id) {
  if (id == s.choice.algorithm) return;
  if (s.race.shown && s.choice == s.race.choice) {  // the race's block and size were for the race
    const RunChoice& b = s.race.before;
    s.choice.block = b.block, s.choice.size = b.size, s.choice.trace_block = b.trace_block;
  }
  if (!s.plan) s.messages.clear(Topic::Plan);  // a note on leaving a plan is read once; the next pick ends it
  s.choice.algorithm = id, s.notes = {};
  s.choice.grid = 0;  // a scene's small grid was for its kernel: the next one gets the device's wave
  if (!s.plan) return;
  // Off the plan's path now: PageDown would jump back into it, so the plan closes, and says so.
  s.messages.warning(Topic::Plan, "Left the plan '" + core::printable(s.plan->title) + "' at scene " +
                                      std::to_string(s.scene + 1) + " for " + id +
                                      "; reopen it under Scenes and plans.");
  s.plan.reset();
}

// A teacher's own plan: the state on screen appended as its next scene, and the plan opened from
// there; plans in config_dir()/plans get a button as the shipped ones do.
static void add_to_plan_row(AppState& s) {
  const std::string dir = config_dir();
  if (!*s.plan_path && !dir.empty()) std::snprintf(s.plan_path, sizeof s.plan_path, "%s/plans/class.json", dir.c_str());
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(-em * 9);
  ImGui::InputTextWithHint("##plan file", "plan file", s.plan_path, sizeof s.plan_path);
  focus_on_near_click("##plan file");
  ImGui::SameLine();
  ImGui::BeginDisabled(!*s.plan_path);
  if (ImGui::Button("Add to plan")) {
    core::Settings scene = current_scene(s);
    const auto* about = core::find_algorithm(scene.algorithm);
    scene.title =
        (about ? about->title : scene.algorithm) + ", " + scene.view + " view, stage " + std::to_string(scene.stage);
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(s.plan_path).parent_path(), ec);
    std::string why;
    const int n = core::add_to_plan(s.plan_path, scene, "My class", &why);
    if (n > 0)
      s.messages.info(Topic::Scene, "Scene " + std::to_string(n) + " added to " + core::printable(s.plan_path) +
                                        "; open it with its button or --plan " + core::printable(s.plan_path));
    else
      s.messages.error(Topic::Scene, why);
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "Appends what is on screen (algorithm, sizes, input, view, stage) to the plan file as its next\n"
        "scene; presenter mode and panel widths stay the teacher's as the plan is stepped");
  for (const auto& name : saved_plans()) {
    if (ImGui::SmallButton(("Plan: " + core::printable(name)).c_str())) {
      try {
        open_plan(s, dir + "/plans/" + name + ".json");
      } catch (const std::exception& x) {
        s.messages.error(Topic::Scene, x.what());
      }
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
}

// Save the whole state under a name, open a saved one, or step a lesson plan's scenes.
static void scenes_section(AppState& s) {
  if (!ImGui::CollapsingHeader("Scenes and plans")) return;
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(-em * 5);
  ImGui::InputTextWithHint("##scene name", "scene name", s.scene_name, sizeof s.scene_name);
  focus_on_near_click("##scene name");
  ImGui::SameLine();
  ImGui::BeginDisabled(!*s.scene_name);
  if (ImGui::Button("Save")) {
    std::string why;
    const std::string path = scene_save_path(s.scene_name, &why);
    if (!path.empty() && core::save_settings(current_scene(s), path, &why))
      s.messages.info(Topic::Scene, "saved " + core::printable(path));
    else
      s.messages.error(Topic::Scene, why);
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Keeps algorithm, compare, view, stage, tab, sizes, input, presenter mode and panel widths");
  for (const auto& name : saved_scenes()) {
    if (ImGui::SmallButton(name.c_str())) {
      const auto loaded = core::load_settings(scene_path(name), core::Whose::Named);
      apply_scene(s, loaded.settings);
      if (loaded.problem.empty())
        s.messages.info(Topic::Scene, "opened " + name);
      else
        s.messages.warning(Topic::Scene, loaded.problem);
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
  for (const auto name : embedded::plan_names()) {
    if (ImGui::Button(("Plan: " + std::string(name)).c_str())) {
      try {
        open_plan(s, std::string(name));
      } catch (const std::exception& e) {
        s.messages.error(Topic::Scene, e.what());
      }
    }
    ImGui::SameLine();
  }
  ImGui::NewLine();
  add_to_plan_row(s);
  if (s.plan) {
    const auto heading = plan_heading(s);
    ImGui::TextUnformatted(heading.plan.c_str());
    ImGui::TextWrapped("%s", heading.scene.c_str());
    if (ImGui::ArrowButton("##prev scene", ImGuiDir_Left)) step_scene(s, -1);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##next scene", ImGuiDir_Right)) step_scene(s, 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("Close plan")) s.plan.reset(), s.messages.clear(Topic::Plan);
  }
  message_line(s.messages, Topic::Plan);
  message_line(s.messages, Topic::Scene);
}

// Each family once, under one heading, in the order the table first names it (a later row of an
// earlier family joins it).
static void algorithm_list(AppState& s, float height) {
  ImGui::BeginChild("list", {0, height}, true);
  std::vector<std::string> families;
  for (const auto& a : core::algorithms())
    if (a.kind != core::Kind::Baseline && std::find(families.begin(), families.end(), a.family) == families.end())
      families.push_back(a.family);
  for (const auto& family : families) {
    ImGui::TextDisabled("%s family", family.c_str());
    for (const auto& a : core::algorithms())
      if (a.kind != core::Kind::Baseline && a.family == family &&
          ImGui::Selectable(a.title.c_str(), s.choice.algorithm == a.id))
        pick_algorithm(s, a.id);
  }
  ImGui::TextDisabled("%s family", std::string(kernels::kAcrossGpus).c_str());
  for (const auto& a : core::collectives())
    if (ImGui::Selectable(a.title.c_str(), s.choice.algorithm == a.id)) pick_algorithm(s, a.id);
  ImGui::EndChild();
}

// Compare mode: a second algorithm beside the first, on the same input, in lockstep.
static void compare_combo(AppState& s) {
  const auto ids = core::traced_ids();
  int pick = 0;
  for (int i = 0; i < int(ids.size()); ++i)
    if (ids[i] == s.choice.compare) pick = i + 1;
  std::vector<const char*> names{"compare with: none"};
  for (const auto& id : ids) names.push_back(id.c_str());
  ImGui::SetNextItemWidth(-1);
  if (ImGui::Combo("##compare", &pick, names.data(), int(names.size()))) s.choice.compare = pick ? ids[pick - 1] : "";
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("A second algorithm beside the first, on the same input, in lockstep");
}

// Operator, type and what halves add in; a type or operator the algorithm refuses is settled
// (backend::settle) and its note drawn.
static void type_fields(AppState& s) {
  static const char* ops[] = {"sum", "min", "max"};
  static const char* types[] = {"int", "float", "double", "half", "bf16"};
  static const char* sums_in[] = {"float", "the type itself"};
  RunChoice& c = s.choice;
  const bool op_edited = combo("operator", c.op, ops, 3);
  tip("What the reduction combines with: sum, min or max");
  const bool type_edited = combo("type", c.type, types, 5);
  tip("Element type: int sums wrap at 32 bits; float, double, half (binary16) and bf16 (bfloat16) round");
  if (core::is_narrow(c.type) && !core::find_collective(c.algorithm)) {  // a GPU's buffer holds the type
    combo("adds in", c.accumulate, sums_in, 2);
    tip("What a half or bf16 run adds in: float (what PyTorch does), or the type itself, rounding "
        "every add to 11 or 8 bits (the pitfall)");
  }
  const backend::Settled settled = backend::settle(c.algorithm, c.type, c.op, c.accumulate);
  c.type = settled.type, c.op = settled.op;
  note(settled.type_note, s.notes.type, !settled.type_note.empty() || type_edited);
  note(settled.op_note, s.notes.op, !settled.op_note.empty() || op_edited || type_edited);
}

// A file of numbers' path, taken on Enter.
static void path_field(AppState& s, bool picked) {
  RunChoice& c = s.choice;
  char path[core::Settings::kMaxPath + 1];
  std::snprintf(path, sizeof path, "%s", c.input.path.c_str());
  // Typing goes into the field at once (not to the one-key shortcuts); the run starts on Enter.
  if (picked && s.widgets.file_pending) ImGui::SetKeyboardFocusHere();
  if (ImGui::InputTextWithHint("path", "a file of numbers, then Enter", path, sizeof path,
                               ImGuiInputTextFlags_EnterReturnsTrue) &&
      *path) {
    c.input.path = path;
    c.input.kind = core::InputSpec::Kind::File;
    c.input.quiet = false;  // typed here: the user's own file, its bad token shown
    c.typed = s.widgets.file_pending = false;
  }
  focus_on_near_click("path");
}

// iota, ones, random (with a seed), a file of numbers, or values typed or pasted here.
static void input_fields(AppState& s) {
  static const char* inputs[] = {"iota (1, 2, 3, ...)", "ones", "random", "file", "typed values"};
  constexpr int kFile = static_cast<int>(core::InputSpec::Kind::File);
  RunChoice& c = s.choice;
  bool& file_pending = s.widgets.file_pending;  // "file" picked, no path entered yet: the run keeps its input
  int kind = c.typed ? 4 : file_pending ? kFile : static_cast<int>(c.input.kind);
  const bool picked = ImGui::Combo("input", &kind, inputs, 5);
  tip("The array's values: 1, 2, 3...; all ones; random with a seed; a file of numbers; or your own");
  if (picked) {
    file_pending = kind == kFile && (c.typed || c.input.kind != core::InputSpec::Kind::File);
    if (!file_pending) {
      c.typed = kind == 4;
      if (kind < 4) c.input.kind = static_cast<core::InputSpec::Kind>(kind);
    }
  }
  if (!c.typed && !file_pending && c.input.kind == core::InputSpec::Kind::Random) {
    int seed = static_cast<int>(c.input.seed);
    if (ImGui::InputInt("seed", &seed)) c.input.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  }
  if (file_pending || (!c.typed && c.input.kind == core::InputSpec::Kind::File)) path_field(s, picked);
  if (c.typed) {
    char* buf = s.widgets.values;
    if (c.values != buf) std::snprintf(buf, sizeof s.widgets.values, "%s", c.values.c_str());
    ImGui::InputTextMultiline("##values", buf, sizeof s.widgets.values, {-1, ImGui::GetFontSize() * 4});
    if (ImGui::IsItemDeactivatedAfterEdit()) c.values = buf;  // re-run once editing ends
    ImGui::TextDisabled("numbers, separated by spaces, commas or lines");
  }
}

// The grid the run on screen took, or (before it is in) the one its plan will launch.
static void grid_line(const AppState& s) {
  if (core::find_collective(s.choice.algorithm)) {
    ImGui::Text("%d GPUs, one chunk each to reduce (the CPU model)", s.choice.gpus);
    return;
  }
  const bool ran = s.trace && s.trace->algorithm == s.choice.algorithm;
  const auto plan = ran ? std::nullopt : planned_run(s);
  if (!ran && !plan) return;
  const std::size_t grid = ran ? s.trace->grid : plan->grid.count();
  const int cluster = ran ? s.trace->geometry.cluster : plan->cluster > 1 ? plan->cluster : 0;
  if (cluster > 0)
    ImGui::Text("%zu blocks of %d threads in %zu clusters of %d", grid, s.choice.block, grid / std::size_t(cluster),
                cluster);
  else
    ImGui::Text("%zu block%s of %d threads", grid, grid == 1 ? "" : "s", s.choice.block);
}

void algorithm_panel(AppState& s, const Area& f) {
  place(f, "Algorithm");
  algorithm_list(s, f.h * 0.28f);
  if (!core::find_collective(s.choice.algorithm)) compare_combo(s);  // one GPU's runs side by side
  lesson_pane(s, f.h * 0.34f);
  ImGui::Separator();
  ImGui::TextDisabled("Run");
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 6);
  type_fields(s);
  size_fields(s);
  input_fields(s);
  ImGui::PopItemWidth();
  grid_line(s);
  race_section(s);
  scenes_section(s);
  open_section(s);
  own_section(s);
  ImGui::End();
}

}  // namespace rl::ui
