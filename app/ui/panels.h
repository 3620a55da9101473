// The window's panels. Each draws from AppState and changes it through the user's input.
#pragma once
#include "../render/plot.h"
#include "app_state.h"

namespace rl::ui {

struct Frame {
  float x, y, w, h;  // in ImGui coordinates
};

void algorithm_panel(AppState& state, const Frame& f);
// The centre: a Stages tab (the memory view and the player) and a Bandwidth tab (benchmark
// controls, the chart, the table). Returns where the view or chart image goes, in ImGui
// coordinates; the caller renders it into the texture shown there next frame.
Frame center_panel(AppState& state, const Frame& f, unsigned view_texture, unsigned compare_texture,
                   unsigned chart_texture);
// The Bandwidth tab's chart of a report as shown: its type and operator, without the series
// hidden in the legend (drawn in the window, and exported).
render::PlotSpec shown_chart(const BenchUi& bench, const core::BenchReport& report);
void source_panel(AppState& state, const Frame& f);
void status_bar(const AppState& state, const Frame& f);
void handle_keys(AppState& state);
// Starts the Bandwidth tab's benchmark with its current settings (Run, --run-bench, the soak).
void start_bench(AppState& state);

}  // namespace rl::ui
