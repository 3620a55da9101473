// The lesson pane: the lesson, the work, the float and glossary tabs.
#include "panel_parts.h"

#include <imgui.h>
#include <GLFW/glfw3.h>  // key codes: the ImGui GLFW backend reports GLFW keys
#include <algorithm>
#include <map>
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
#include "../own/own_check.h"
#include "own_pane.h"
#include "../core/bench.h"
#include "../core/embedded.h"
#include "../core/facts.h"
#include "../core/glossary.h"
#include "../render/bench_chart.h"
#include "../render/export.h"
#include "../render/matrix_view.h"
#include "../core/text.h"
#include "compare.h"
#include "open_pane.h"
#include "colors.h"
#include "race_pane.h"
#include "rich_text.h"
#include "settings.h"
#include "work_pane.h"

namespace rl::ui {

// Runs the block a Look needs: the array grows to fill one such block (typed values keep theirs).
static void set_block_for_look(AppState& s, int block) {
  s.choice.block = block;
  if (!s.choice.typed && s.choice.size < block) s.choice.size = block;
  s.look_pending = true;
}

// A lesson's "Look:" pointer: a button that shows its stage in its view, and what to see. Where
// the run on screen is too small a block to show it, the button sets the smallest block that does
// and looks once that run is in.
// The larger block a Look needs where the run on screen cannot show its point (its stage is
// missing, or a banks Look's conflicts are not there yet: interleaved addressing's stride 4 at 32
// threads); 0 where this block shows it or no block does. An int, not an optional: GCC 12 -O3
// warned maybe-uninitialized on one here.
// Asked every frame: kept per algorithm, pointer and block (each answer runs the CPU model once).
static int block_needed(const AppState& s, const core::AlgorithmInfo& about, const core::Pointer& look, int stage) {
  static std::map<std::tuple<std::string, std::string, int>, int> known;
  const int block = s.choice.block;
  const std::string pointer =
      look.view + " " + std::to_string(look.tag) + "=" + std::to_string(look.param.value_or(-1));
  const auto key = std::tuple{about.id, pointer + " " + look.text, block};
  auto it = known.find(key);
  if (it == known.end()) it = known.emplace(key, backend::look_block(about, look, block).value_or(0)).first;
  const int at = it->second;
  const bool pow2 = block >= 32 && (block & (block - 1)) == 0;  // look_block steps through powers of two
  if (stage >= 0 && (at == 0 || at == block || !pow2)) return 0;
  return at > block ? at : 0;
}

static void pointer_line(AppState& s, const core::AlgorithmInfo& about, const core::Pointer& look,
                         const core::Trace* trace) {
  const int stage = trace ? core::pointed_stage(*trace, look) : -1;
  const auto view = render::parse_view(look.view);
  const int needed = trace && !trace->collective ? block_needed(s, about, look, stage) : 0;
  if (s.look_pending && stage >= 0 && view) {
    s.look_pending = false;
    s.view = *view;
    s.player.seek(stage);
  }
  const std::string where = needed
                                ? "needs " + std::to_string(needed) + "+ threads a block: set " + std::to_string(needed)
                                : core::pointer_label(look, trace);
  s.look_shown = "Look: " + where + ": " + look.text;
  const std::string label = "Look: " + where;
  // Where the whole label is wider than the column, the button says "Look:" and the place wraps beside it.
  const bool fits =
      ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2 <= ImGui::GetContentRegionAvail().x;
  ImGui::BeginDisabled(!view || (stage < 0 && !needed));
  if (ImGui::Button(fits ? label.c_str() : "Look:")) {
    s.view = *view;
    if (needed)
      set_block_for_look(s, needed);
    else
      s.player.seek(stage);
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("%s", needed ? "This block is too small to show it: run the smallest block that does, then look"
                            : stage >= 0 ? "Show this stage in this view"
                            : trace      ? "This run has no such stage at any block this kernel takes"
                                         : "Run this algorithm first: no stage of this kind yet");
  if (!fits) {
    ImGui::SameLine();
    ImGui::TextWrapped("%s", where.c_str());
  }
  rich_text(look.text);
}

// The plan scene's own Look while its algorithm is on screen (read when the plan was loaded).
static std::optional<core::Pointer> scene_look(const AppState& s, const std::string& algorithm) {
  if (!s.plan || s.scene < 0 || std::size_t(s.scene) >= s.plan->scenes.size()) return std::nullopt;
  const core::Settings& scene = s.plan->scenes[std::size_t(s.scene)];
  if (scene.look.empty() || scene.algorithm != algorithm) return std::nullopt;
  return core::parse_pointer(scene.look);
}

// The short lesson, where to look, and the depth under "More". Its numbers come from the run
// on screen; before its trace is there, from the model's.
// The run's input through the other order of adds: the ring against the one-shot, bit for bit.
static void orders_line(const core::Trace& t, const backend::OrderDifference& d) {
  ImGui::Spacing();
  if (d.differing == 0) {
    ImGui::TextWrapped("On this input the ring and the one-shot give the same bits at all %zu elements.", d.elements);
    return;
  }
  const core::DType type = core::value_type(t);
  ImGui::TextWrapped(
      "On this input the ring's and the one-shot's orders of adds give other bits at %zu of %zu elements; "
      "element %zu: ring %s, one-shot %s.",
      d.differing, d.elements, d.first, core::format_value(d.ring, type).c_str(),
      core::format_value(d.one_shot, type).c_str());
}

void lesson_text(AppState& s, bool more) {
  if (s.trace && core::own_kernel(*s.trace)) {  // a kernel of your own: its run, then how to write one
    if (s.trace->source == s.own.file) own_status(s), ImGui::Separator();
    const core::AlgorithmInfo& own = core::write_your_own();
    rich_text(own::own_lesson(own.brief));
    if (more && ImGui::CollapsingHeader("More")) rich_text(own::own_lesson(own.detail));
    return;
  }
  if (shows_foreign_trace(s)) {
    ImGui::TextWrapped("This build has no lesson for '%s': the stages, the counts and the source lines beside them "
                       "come from the file it was opened from.", core::printable(s.trace->algorithm).c_str());
    return;
  }
  const auto* about = core::find_any(s.choice.algorithm);
  if (!about) return;
  const core::Trace* trace = s.trace && s.trace->algorithm == about->id ? &*s.trace : nullptr;
  const core::AlgorithmInfo lesson = trace ? core::fill_lessons(*about, *trace) : backend::with_numbers(*about);
  rich_text(lesson.brief);
  if (const auto look = scene_look(s, about->id); look || lesson.look) {
    ImGui::Spacing();
    pointer_line(s, *about, look ? *look : *lesson.look, trace);
  }
  if (trace && trace->collective && s.orders) orders_line(*trace, *s.orders);
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
void lesson_pane(AppState& s, float height) {
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
    s.widgets.float_open = false;
    // An all-reduce across GPUs has no block's work or one sum's error to show.
    const bool across = s.trace && s.trace->collective;
    for (const auto& tab : tabs) {
      if (across && (tab.draw == work_pane || tab.draw == float_pane)) continue;
      if (!ImGui::BeginTabItem(tab.label, nullptr, opened(tab.name))) continue;
      if (tab.draw == float_pane) s.widgets.float_open = true;
      ImGui::BeginChild(tab.name);
      tab.draw(s);
      ImGui::EndChild();
      ImGui::EndTabItem();
    }
    ImGui::EndTabBar();
  }
  ImGui::EndChild();
}

}  // namespace rl::ui
