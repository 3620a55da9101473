// The kernel source panel, and presenter mode's column.
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
#include "../core/bench.h"
#include "../core/embedded.h"
#include "../core/facts.h"
#include "../core/glossary.h"
#include "../core/text.h"
#include "../render/bench_chart.h"
#include "../render/export.h"
#include "../render/matrix_view.h"
#include "compare.h"
#include "open_pane.h"
#include "own_editor.h"
#include "colors.h"
#include "race_pane.h"
#include "rich_text.h"
#include "settings.h"
#include "work_pane.h"

namespace rl::ui {

void source_panel(AppState& s, const Area& f) {
  place(f, "Kernel source");
  if (s.own.editing) {  // a kernel of your own, edited here
    own_editor(s);
    ImGui::End();
    return;
  }
  const core::SourceView src = shown_source(s);
  const int at = src.index_of(shown_place(s, src));
  // A race recording's summary heads the column: the views below keep their height.
  if (s.trace && s.trace->race) {
    race_summary(s);
    ImGui::Separator();
  }
  // Wrapped: with helpers from other files the spans outgrow the column.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("%s, %s", src.file.c_str(), src.span().c_str());
  ImGui::PopStyleColor();
  ImGui::BeginChild("code", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
  int& scrolled_to = s.widgets.source_line;
  for (std::size_t i = 0; i < src.lines.size(); ++i) {
    const int number = src.numbers[i];
    const bool other_file = src.opens_file(i);
    if (i > 0 && (other_file || number != src.numbers[i - 1] + 1)) ImGui::Separator();  // a helper the kernel calls
    if (other_file) ImGui::TextDisabled("%s", src.file_of(i).c_str());
    char label[512];
    std::snprintf(label, sizeof label, "%3d  %s##%zu", number, src.lines[i].c_str(), i);
    // The probe calls are the instrumentation: dimmed, so the algorithm reads first.
    const bool probe = src.lines[i].find("probe.") != std::string::npos;
    if (probe) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::Selectable(label, int(i) == at);
    if (probe) ImGui::PopStyleColor();
    if (int(i) == at && scrolled_to != at) {
      ImGui::SetScrollHereY(0.4f);
      scrolled_to = at;
    }
  }
  ImGui::EndChild();
  ImGui::End();
}

// The stage's line of a kernel and its neighbours, `rows` in all: the neighbours one line each, cut
// at the edge; the stage's line whole, wrapped under itself, on the highlight.
static void code_window(const core::SourceView& src, const core::Place& place, std::size_t rows) {
  const int at = src.index_of(place);
  const std::size_t mid = at < 0 ? 0 : std::size_t(at);
  const std::size_t first =
      mid > rows / 2 ? std::min(mid - rows / 2, src.lines.size() - std::min(rows, src.lines.size())) : 0;
  for (std::size_t i = first; i < std::min(src.lines.size(), first + rows); ++i) {
    // A helper's lines from another file under that file's name.
    if (src.opens_file(i, first)) ImGui::TextDisabled("%s", src.file_of(i).c_str());
    char text[512];
    std::snprintf(text, sizeof text, "%3d  %s", src.numbers[i], src.lines[i].c_str());
    if (int(i) != at) {
      ImGui::TextUnformatted(text);
      continue;
    }
    const float wrap = ImGui::GetContentRegionAvail().x;
    const ImVec2 pos = ImGui::GetCursorScreenPos(), size = ImGui::CalcTextSize(text, nullptr, false, wrap);
    ImGui::GetWindowDrawList()->AddRectFilled(pos, {pos.x + wrap, pos.y + size.y}, ImGui::GetColorU32(ImGuiCol_Header));
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
  }
}

// What the presenter's heading names: the run on screen where it is not the picked algorithm's
// (a kernel of your own, a run opened from a file), else the picked algorithm.
static std::string shown_title(const AppState& s, const core::AlgorithmInfo* about) {
  if (s.trace && core::own_kernel(*s.trace))
    return "Your own kernel: " + core::printable(std::filesystem::path(s.trace->source).filename().string());
  if (shows_foreign_trace(s)) return "Opened: " + core::printable(s.trace->algorithm);
  return about ? about->title : s.choice.algorithm;
}

// Presenter mode's side: the algorithm picker, the short lesson and the kernel's lines around
// the stage on screen, all in the large type.
void presenter_panel(AppState& s, const Area& f) {
  place(f, "Presenter");
  const auto* about = core::find_any(s.choice.algorithm);
  // The picker is an arrow; the title beside it wraps, whole, where a combo's preview would cut it.
  if (ImGui::BeginCombo("##algorithm", nullptr, ImGuiComboFlags_NoPreview)) {
    for (const auto& a : core::algorithms())
      if (a.kind != core::Kind::Baseline && ImGui::Selectable(a.title.c_str(), a.id == s.choice.algorithm))
        pick_algorithm(s, a.id);
    for (const auto& a : core::collectives())
      if (ImGui::Selectable(a.title.c_str(), a.id == s.choice.algorithm)) pick_algorithm(s, a.id);
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Pick another algorithm (or keys 1-9)");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", shown_title(s, about).c_str());
  if (s.plan) {  // "Harris' seven steps, scene 3 of 7: Sequential addressing"
    const auto heading = plan_heading(s);
    ImGui::TextWrapped("%s: %s", heading.plan.c_str(), heading.scene.c_str());
  }
  message_line(s.messages, Topic::Plan);
  // The lesson as tall as its text (last frame's), up to 60 % of the column: the kernel's lines take the rest.
  float& lesson_h = s.widgets.lesson_h;
  // Compare mode keeps room for both kernels' highlighted lines (a race recording's summary is tall).
  const float most = f.h * (s.compare_trace ? 0.45f : 0.6f);
  ImGui::BeginChild("presenter lesson", {0, lesson_h > 0 ? std::min(lesson_h, most) : most});
  if (s.trace && s.trace->race) {  // here, not under the view: the view keeps its height for the back of the room
    race_summary(s);
    ImGui::Separator();
  }
  lesson_text(s, false);  // the depth stays in the normal layout: this is read from the back
  lesson_h = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
  ImGui::EndChild();
  ImGui::Separator();
  const core::SourceView src = shown_source(s);
  const std::size_t rows =
      std::size_t(std::max(3.0f, ImGui::GetContentRegionAvail().y / ImGui::GetTextLineHeightWithSpacing() - 1));
  ImGui::BeginChild("presenter code", {0, 0});
  if (!s.compare_trace) {
    code_window(src, shown_place(s, src), rows);
  } else {  // compare mode: both kernels, each at its own stage's line
    code_window(src, shown_place(s, src), std::max<std::size_t>(1, rows / 2 - 1));
    const core::Trace& other = *s.compare_trace;
    const core::SourceView theirs = core::source_of(other.algorithm);
    const core::Stage& stage = other.stages[std::size_t(std::clamp(s.player.stage(), 0, int(other.stages.size()) - 1))];
    ImGui::Separator();
    ImGui::TextDisabled("%s", other.algorithm.c_str());
    code_window(theirs, tag_place(stage, theirs), std::max<std::size_t>(1, rows - rows / 2 - 1));
  }
  ImGui::EndChild();
  ImGui::End();
}

}  // namespace rl::ui
