// The Stages tab: the view, the player, the row and warp pagers.
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

Area center_panel(AppState& s, const Area& f, unsigned view_texture, unsigned compare_texture, unsigned chart_texture) {
  place(f, "Lab");
  Area out{};
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

// The banks view shows 16 rows at a time (a warp-wide access each, or a group of a warp that 8-
// or 16-byte accesses are served in), the coalescing view 8 warp-wide loads
// (fewer in presenter mode's large type, as the view last drew them): buttons page through the rest.
static void row_pager(AppState& s) {
  const int rows = render::paged_rows(s.view, *s.trace, s.player.stage());
  const int page = s.page_drawn > 0 ? s.page_drawn : render::page_rows(s.view);
  if (rows <= page) return;
  s.bank_row = std::clamp(s.bank_row, 0, rows - page);
  const char* what = s.view == render::View::Banks ? "rows" : "loads";
  wrap_item(ImGui::GetFontSize() * 12);
  if (ImGui::ArrowButton("##earlier rows", ImGuiDir_Up)) s.bank_row = std::max(0, s.bank_row - page);
  const char* wide = s.view == render::View::Banks ? "bank" : "warp-wide";
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The previous %d %s %s", page, wide, what);
  ImGui::SameLine();
  if (ImGui::ArrowButton("##later rows", ImGuiDir_Down)) s.bank_row = std::min(rows - page, s.bank_row + page);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The next %d %s %s", page, wide, what);
  ImGui::SameLine();
  ImGui::Text("%s %d-%d of %d", what, s.bank_row + 1, s.bank_row + page, rows);
}

// Where a view shows one warp of the block enlarged (the memory view of a wide block, the
// lanes view always), or a part of one (a narrow view), [ and ] or these buttons pick which.
void step_warp(AppState& s, int by) {
  if (s.warps_zoomed <= 0) return;
  const int parts = std::max(1, s.parts_zoomed);
  const int at = std::clamp(s.warp * parts + s.part + by, 0, s.warps_zoomed * parts - 1);
  s.warp = at / parts, s.part = at % parts;
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
  const int span = 32 / std::max(1, s.parts_zoomed);
  if (s.parts_zoomed > 1)
    ImGui::Text("warp %d of %d, lanes %d-%d", s.warp, s.warps_zoomed, s.part * span, s.part * span + span - 1);
  else
    ImGui::Text("warp %d of %d", s.warp, s.warps_zoomed);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The view enlarges one of the block's %d warps (numbered 0 to %d), under a strip of the\n"
        "whole block",
        s.warps_zoomed, s.warps_zoomed - 1);
}

// The export folder and the buttons that write this run's views there.
static void export_row(AppState& s) {
  const float em = ImGui::GetFontSize();
  if (!*s.export_dir) std::snprintf(s.export_dir, sizeof s.export_dir, "%s", default_export_dir().c_str());
  ImGui::SetNextItemWidth(std::max(em * 8, ImGui::GetContentRegionAvail().x - em * 20));
  ImGui::InputText("##export-dir", s.export_dir, sizeof s.export_dir);
  focus_on_near_click("##export-dir");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The folder exports are written to");
  for (const auto& [label, what, tip] :
       {std::tuple{"PNG", StageExport::Png, "This stage's view as a PNG (E); in compare mode both views side by side"},
        std::tuple{"Every stage", StageExport::AllStages,
                   "One PNG per stage (A); in compare mode both views side by side"},
        std::tuple{"GIF", StageExport::Gif, "The run as an animated GIF (G); in compare mode both views side by side"},
        std::tuple{"MP4", StageExport::Mp4, "The run as an MP4 video (M); in compare mode both views side by side"}}) {
    wrap_item(ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::Button(label)) export_stages(s, what);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
  }
}

Area stage_body(AppState& s, unsigned view_texture, unsigned compare_texture) {
  const float em = ImGui::GetFontSize();
  // The controls below wrap on a narrow window: last frame's height of them is what they need.
  float& controls_h = s.widgets.controls_h;
  if (controls_h <= 0) controls_h = em * 8;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float views_h = std::max(em * 4, avail.y - controls_h);
  // Compare mode: each view fills its half, the table under them (the caller renders both at view's size).
  const Area view = s.compare_trace ? compare_views(s, views_h, view_texture, compare_texture)
                                    : Area{origin.x, origin.y, avail.x, views_h};
  if (!s.compare_trace) image(view_texture, view);
  for (const Topic t : {Topic::Run, Topic::Settings, Topic::Race}) message_line(s.messages, t);
  if (!s.trace) {  // a failed run: the player and exports stay where they were, greyed, until a run is in
    ImGui::BeginDisabled();
    player_controls(s);
    if (!s.presenter) export_row(s);
    ImGui::EndDisabled();
    return view;
  }
  const float top = ImGui::GetCursorPosY();
  player_controls(s);
  // Which picture of the stage: the memory view, or the warp-level views beside it (V cycles).
  // A view with nothing to show for this algorithm is greyed out, its reason on hover.
  if (!render::why_not(s.view, *s.trace).empty()) s.view = core::home_view(*s.trace);
  bool first = true;
  for (const auto& row : core::kViewRows) {
    const render::View v = row.view;
    if (!core::of_its_kind(v, *s.trace)) continue;
    const std::string why = render::why_not(v, *s.trace);
    if (!std::exchange(first, false))
      wrap_item(ImGui::GetFrameHeight() + ImGui::CalcTextSize(render::to_string(v)).x + em);
    ImGui::BeginDisabled(!why.empty());
    if (ImGui::RadioButton(render::to_string(v), s.view == v)) s.view = v;
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("%s", why.empty() ? (std::string(row.shows) + "\n(V cycles the views that apply)").c_str() : why.c_str());
  }
  row_pager(s);
  stale_pager(s);
  warp_pager(s);
  // Presenter mode leaves exports to the normal layout: the row would take a line from the view.
  if (!s.presenter) export_row(s);
  if (s.gif_requested && s.trace && !s.export_job.running()) {  // --export-gif: once the run is on screen
    s.gif_requested = false;
    export_stages(s, StageExport::Gif);
  }
  export_status(s);
  message_line(s.messages, Topic::Export);
  ImGui::TextWrapped("%s", core::stage_caption(*s.trace, s.player.stage()).c_str());
  controls_h = ImGui::GetCursorPosY() - top + ImGui::GetStyle().ItemSpacing.y;
  return view;
}

}  // namespace rl::ui
