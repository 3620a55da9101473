// A racy pitfall's race as a GPU had it: the Run panel's Race section (runs N, a run on the GPU,
// a recording shipped with the program or opened from a file), the summary under the view, the
// stale-read pager, and the fix beside it in compare mode.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "app_state.h"

namespace rl::ui {

// --race-file: opens a `trace --runs N --format json` recording and shows it. A file that cannot
// be opened is said in the Race section; the window goes on.
void open_race_file(AppState& state, const std::string& path);
// record_trace's first step: while a recording is shown and the run's fields are those it was
// shown under, the views show it (compare mode: the fix, or another algorithm, beside it).
// False, and the recording put aside, once a field changed.
bool show_recording(AppState& state);
// Takes finished GPU runs (once a frame) and shows them.
void poll_race(AppState& state);
// The Run panel's Race section; only algorithms whose catalog row names a fix have one.
void race_section(AppState& state);
// Under the view: what the recording on screen shows, run by run, and where it came from.
void race_summary(AppState& state);
// The memory view's stale reads, one at a time: which one the caption describes, and the warp
// enlarged moved to its reader. Beside the view buttons.
void stale_pager(AppState& state);
// F and "Show the fix": compare mode with the pitfall's fix on the same input, or back.
void toggle_fix(AppState& state);
// R: a racy pitfall's N runs on the GPU (as the Race section's button); without a GPU, says why not.
void race_key(AppState& state);
// What the race parts said this frame, by name, for the frame report (the tests read it).
std::vector<std::pair<std::string, std::string>> race_words(const AppState& state);

}  // namespace rl::ui
