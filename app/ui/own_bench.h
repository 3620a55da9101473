// A kernel of your own in the Bandwidth tab: after the tab's run here on a GPU, the file open in
// "Your own kernel" is timed with the same harness (`bench --kernel`), in a process of its own so
// that a kernel that hangs ends that process, not the window; its rows (own:NAME) join the chart
// and the table beside ours.
#pragma once
#include "app_state.h"

namespace rl::ui {

// The tab's "with your kernel" box, where a kernel of your own is open and a GPU runs arrays.
void own_bench_option(AppState& state, bool gpu);
// Called as the tab's run starts: its rows are dropped, and it is timed when the run ends.
void own_bench_start(AppState& state, bool gpu);
// Once a frame: starts the timing when the tab's run has ended; takes its rows when it lands.
void own_bench_poll(AppState& state);
// Cancel: stops the timing's process.
void own_bench_cancel(AppState& state);
// What it is doing or why it failed, under the controls.
void own_bench_status(const AppState& state);

}  // namespace rl::ui
