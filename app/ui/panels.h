// The window's panels. Each draws from AppState and changes it through the user's input.
#pragma once
#include <ostream>
#include <vector>

#include "../platform/window.h"
#include "../render/plot.h"
#include "app_state.h"

namespace rl::ui {

struct Area {
  float x, y, w, h;  // in ImGui coordinates
};

void algorithm_panel(AppState& state, const Area& f);
// The centre: a Stages tab (the memory view and the player) and a Bandwidth tab (benchmark
// controls, the chart, the table). Returns where the view or chart image goes, in ImGui
// coordinates; the caller renders it into the texture shown there next frame.
Area center_panel(AppState& state, const Area& f, unsigned view_texture, unsigned compare_texture,
                  unsigned chart_texture);
// The report the Bandwidth tab shows: its source's (a shipped GPU run's, or this machine's
// run), of the tab's type and operator for a shipped run.
core::BenchReport shown_report(const BenchUi& bench);
// Whose timings the Bandwidth tab shows: a shipped GPU run's (true), or the run here.
bool shows_shipped(const BenchUi& bench);
// Until the Bandwidth tab first opens its source is unset; it then opens on this machine's run
// with a GPU, else on the first shipped GPU run. Compare mode settles it the same way, so its
// times are the ones that tab shows.
void settle_source(AppState& state);
// Each time the algorithm on the left changes, its line is shown whatever the legend's default;
// and while the Bandwidth tab shows a shipped run, the tab takes its family (arrays or matrices),
// ints for an algorithm of ints alone (floats again after it), and where that run did not measure
// it, the first shipped run that did. The tab's choosers override these until the next change.
// The tab and compare mode call it: both show that run's times.
void follow_algorithm(AppState& state);
// The Bandwidth tab's chart of a report as shown: its type and operator, without the series
// hidden in the legend, titled with whose timings they are (drawn in the window, and exported).
render::PlotSpec shown_chart(const BenchUi& bench, const core::BenchReport& report);
void source_panel(AppState& state, const Area& f);
// Presenter mode's column: algorithm picker, short lesson, the stage's source lines.
void presenter_panel(AppState& state, const Area& f);
void status_bar(const AppState& state, const Area& f);
// The key presses since the last frame, in order (platform::Window::take_keys).
void handle_keys(AppState& state, const std::vector<platform::Window::KeyPress>& keys);
// The keys and what they do (? or F1).
void help_window(AppState& state);
// Starts the Bandwidth tab's benchmark with its current settings (Run, --run-bench, the soak).
void start_bench(AppState& state);
// With --export-gif: waits for that export and says on err how it ended; the exit code it makes.
int finish_requested_export(AppState& state, std::ostream& err);

}  // namespace rl::ui
