// Keys and the help window that lists them.
#include "panel_parts.h"

#include "../core/views.h"

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
    {"V", "next view that applies: {views}"},
    {"1 - 9", "the first nine algorithms of the list"},
    {"E, A, G, M", "export the view as PNG, every stage as PNGs, a GIF, an MP4"},
    {"P or F11", "presenter mode on or off; Esc leaves it"},
    {"B or .", "black screen on or off (what a clicker's blank key sends); any other key ends it too"},
    {"? or F1", "this help; Esc closes it"},
    {"Ctrl+ / Ctrl- / Ctrl+0", "zoom the whole window in, out, back to 100 %"},
    {"Ctrl+Z", "undo a change of algorithm, compare, view, stage, tab, sizes, input, presenter mode or panel widths"},
    {"Ctrl+Shift+Z or Ctrl+Y", "redo what Ctrl+Z undid"},
    {"[ / ]", "previous or next warp, where a view shows one warp enlarged (a block too wide to read), or part of one"},
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
  // A blanked screen: B or . brings the class back; so does any other key, which then also acts.
  if (std::exchange(s.black, false) && (key == GLFW_KEY_B || key == GLFW_KEY_PERIOD)) return;
  if (!mods && (key == GLFW_KEY_B || key == GLFW_KEY_PERIOD)) {
    s.black = true;
    return;
  }
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
  if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9 && key - GLFW_KEY_1 < int(ids.size()))
    pick_algorithm(s, ids[key - GLFW_KEY_1]);
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
  // As wide as the screen allows (presenter mode's large type), its descriptions wrapped inside.
  const float width = std::min(size.x * 0.92f, ImGui::GetFontSize() * 52);
  ImGui::SetNextWindowPos({size.x * 0.5f, size.y * 0.5f}, ImGuiCond_Always, {0.5f, 0.5f});
  ImGui::SetNextWindowSizeConstraints({width, 0}, {width, size.y * 0.92f});
  ImGui::Begin("Keys (? or F1 to close)", &s.help, ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse);
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
    ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableSetupColumn("what", ImGuiTableColumnFlags_WidthStretch);
    for (const auto& k : kKeys) {
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(k.keys);
      ImGui::TableNextColumn();
      std::string what = k.what;
      if (const auto at = what.find("{views}"); at != std::string::npos) what.replace(at, 7, core::view_names(", "));
      ImGui::TextWrapped("%s", what.c_str());
    }
    ImGui::EndTable();
  }
  ImGui::TextDisabled("Hover an underlined word in a lesson for its meaning.");
  ImGui::End();
}

}  // namespace rl::ui
