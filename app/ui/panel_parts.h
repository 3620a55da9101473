// What the panels share: window placement, small widgets, and the pieces one panel draws
// inside another (the lesson pane in the algorithm panel, the Bandwidth tab in the centre).
// Each panel is its own file, as in Tracy's TracyView_*.cpp and ImHex's view_*.cpp.
#pragma once
#include <imgui.h>

#include <string>

#include "app_state.h"
#include "panels.h"

namespace rl::ui {

// A fixed window at f: the panels tile the screen and are not moved by hand.
void place(const Area& f, const char* name, ImGuiWindowFlags extra = 0);

template <class E>
bool combo(const char* label, E& value, const char* const* names, int count) {
  int i = static_cast<int>(value);
  if (!ImGui::Combo(label, &i, names, count)) return false;
  value = static_cast<E>(i);
  return true;
}

// Text wrapped at the window's edge, in a colour (amber: a note; red: an error).
void wrapped(const ImVec4& color, const std::string& text);
// The status bar's result: "sum of 1000 elements = 500500" ("sum of 3000 half elements, added in
// float = 3000"; a kernel of your own found wrong: "...: the kernel left 7, which is wrong (see its
// findings)"); a matrix algorithm that leaves a result per row or column says how many ("33 x 257
// matrix: 257 column sums").
std::string result_text(const core::Trace& trace);
// The last item's meaning, on hover.
void tip(const char* text);
// Call after a text field (InputText, or InputInt without step buttons) with its label: a click
// on the label, or beside the field on its row where no other item is, puts the cursor in it, so
// that typing after a near miss goes into the field and not to the window's one-key shortcuts.
void focus_on_near_click(const char* label);
// A topic's message, wrapped, in its level's colour (info: the text's own, warning: amber,
// error: red); nothing when it has none.
void message_line(const Messages& messages, Topic topic);
// A field's value was not taken as typed: say why, beside it, until the next change.
void note(const std::string& text, std::string& kept, bool changed);
// Puts a run read from somewhere other than a live run (an opened trace, a race recording) on
// screen in place of the live one; returns the stage to keep (the one shown, when the algorithm
// stays), after resetting the player to the trace's stages.
int show_kept_trace(AppState& s, const core::Trace& t);
// A GL texture filling view, placed at its corner (flipped: GL's rows run bottom up); an empty
// box when there is none.
void image(unsigned texture, const Area& view);

// lesson_pane.cpp: the lesson's text (its brief, pointer and, with more, its detail), and the
// pane with the lesson, work, float and glossary tabs.
void lesson_text(AppState& s, bool more = true);
void lesson_pane(AppState& s, float height);
// algorithm_panel.cpp: the plan's next (+1) or previous (-1) scene; at either end, a note.
void step_scene(AppState& s, int by);
// algorithm_panel.cpp: an algorithm picked by hand (the list, presenter mode's picker, keys 1-9);
// it leaves an open plan, with a note.
void pick_algorithm(AppState& s, const std::string& id);
// stages_tab.cpp: the Stages tab; returns where its view image goes.
Area stage_body(AppState& s, unsigned view_texture, unsigned compare_texture);
// stages_tab.cpp: the next (+1) or previous (-1) enlarged warp.
void step_warp(AppState& s, int by);
// bandwidth_tab.cpp: the Bandwidth tab; *chart gets where its chart image goes.
void bench_tab(AppState& s, unsigned chart_texture, Area* chart);

// stage_export.cpp: the Stages tab's exports, drawn in this window's context at 1600 x 900:
// the view as it is, a PNG per stage, or the whole run as a GIF or MP4 (ffmpeg).
enum class StageExport { Png, AllStages, Gif, Mp4 };
void export_stages(AppState& s, StageExport what);
// A running video export's progress bar and its Cancel button.
void export_status(AppState& s);
std::string default_export_dir();   // ~/reduction-lab-exports
std::string default_export_base();  // the Bandwidth tab's: default_export_dir()/bandwidth

}  // namespace rl::ui
