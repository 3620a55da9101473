// Small pieces every panel uses.
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

void place(const Area& f, const char* name, ImGuiWindowFlags extra) {
  ImGui::SetNextWindowPos({f.x, f.y}, ImGuiCond_Always);
  ImGui::SetNextWindowSize({f.w, f.h}, ImGuiCond_Always);
  ImGui::Begin(name, nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus | extra);
}

// The last item's meaning, on hover.
void tip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

void focus_on_near_click(const char* label) {
  // The click focuses the panel's window at the end of its frame, which drops a focus request made
  // in that frame: the request waits for the next one, kept in the window's ImGui storage.
  ImGuiStorage& kept = *ImGui::GetStateStorage();
  ImGui::PushID(label);
  const ImGuiID key = ImGui::GetID("near click");
  ImGui::PopID();
  if (kept.GetBool(key)) {
    kept.SetBool(key, false);
    ImGui::SetKeyboardFocusHere(-1);
    return;
  }
  if (!ImGui::IsMouseClicked(ImGuiMouseButton_Left) || ImGui::IsItemActive() || !ImGui::IsWindowHovered()) return;
  if (ImGui::IsAnyItemHovered() && !ImGui::IsItemHovered()) return;  // a button beside it takes its own click
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::IsMouseHoveringRect(min, {std::max(right, max.x), max.y})) kept.SetBool(key, true);
}

void wrapped(const ImVec4& color, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

// A field's value was not taken as typed: say why, beside it, until the next change.
void message_line(const Messages& messages, Topic topic) {
  const Message& m = messages[topic];
  if (m.empty()) return;
  if (m.level == Level::Info)
    ImGui::TextWrapped("%s", m.text.c_str());
  else
    wrapped(m.level == Level::Warning ? kAmber : kErrorRed, m.text);
}

void note(const std::string& text, std::string& kept, bool changed) {
  if (changed) kept = text;
  if (!kept.empty()) wrapped(kAmber, kept);
}

void image(unsigned texture, const Area& view) {
  ImGui::SetCursorScreenPos({view.x, view.y});
  if (texture)
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(texture)), {view.w, view.h}, {0, 1}, {1, 0});
  else
    ImGui::Dummy({view.w, view.h});
}

int show_kept_trace(AppState& s, const core::Trace& t) {
  const int keep = s.trace && s.trace->algorithm == t.algorithm ? s.player.stage() : 0;
  s.trace = t;
  s.compare_trace.reset();  // compare mode runs two kernels; a kept trace is one run
  s.messages.clear(Topic::Run);
  s.floats.request.reset();  // the Float tab follows whole-input runs; a kept trace holds one block's inputs
  s.floats.report.reset();
  s.player.reset(int(t.stages.size()));
  s.player.seek(keep);
  return keep;
}

}  // namespace rl::ui
