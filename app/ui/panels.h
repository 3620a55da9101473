// The window's panels. Each draws from AppState and changes it through the user's input.
#pragma once
#include "app_state.h"

namespace rl::ui {

struct Frame {
  float x, y, w, h;  // in ImGui coordinates
};

void algorithm_panel(AppState& state, const Frame& f);
// Returns where the memory view image goes, in ImGui coordinates (the caller renders it).
Frame stage_panel(AppState& state, const Frame& f, unsigned view_texture);
void source_panel(AppState& state, const Frame& f);
void status_bar(const AppState& state, const Frame& f);
void handle_keys(AppState& state);

}  // namespace rl::ui
