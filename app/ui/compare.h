// Compare mode in the Stages tab: the two views, each filling its half, and under them a table
// of what each algorithm did (counted from its trace) and how long it took (from the Bandwidth
// tab's results), with the speedup.
#pragma once
#include "app_state.h"
#include "panels.h"

namespace rl::ui {

// Two views sharing an area: one above the other, or side by side, whichever gives each the
// shape nearer 16:9, the shape the views are laid out for (a tall narrow half squeezes their
// rows and type).
struct ViewPair {
  Area first, second;
  bool stacked = false;
};
ViewPair split_views(const Area& area, float gap);

// Draws the two views and the table in `height` from the cursor down; returns the first
// view's frame (both views are rendered at its size). Sets the Bandwidth tab's source if that
// tab has not opened yet, as it would on opening, so the times are the ones it shows.
Area compare_views(AppState& state, float height, unsigned first_texture, unsigned second_texture);
// The line under the table: where the two record the same work, why; in presenter mode what the
// columns count; whose times, or why there are none.
std::string compare_note(const AppState& state);

}  // namespace rl::ui
