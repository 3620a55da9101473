// "Your own kernel": a .cu file of the student's (docs/own-kernel.md) run on the GPU, or its PTX
// interpreted on the CPU, on a thread of its own; its trace is shown as an opened one (the views,
// the player, the source beside it), what the CPU path found listed under it. A file opened with
// --kernel, picked here or dropped on the window runs again whenever it is saved.
#pragma once
#include <string>

#include "app_state.h"

namespace rl::ui {

// Runs path now (the window's size, type, op and input; the file's block) and watches it.
void run_own(AppState& state, const std::string& path);
// Once a frame: takes a finished run onto the screen; reruns the watched file when it changed.
void poll_own(AppState& state);
// What the last run of the watched file said: its outcome, GPU = CPU, the findings (the lesson
// pane shows it above the lesson while that run is on screen).
void own_status(const AppState& state);
// The section in the left panel: the path field, Run, Rerun on save, and what the last run said.
void own_section(AppState& state);

}  // namespace rl::ui
