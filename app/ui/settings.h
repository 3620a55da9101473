// Where the app keeps what the user made: the user's config folder, never the working directory.
#pragma once
#include <ostream>
#include <string>

#include "app_state.h"

namespace rl::ui {

// $XDG_CONFIG_HOME/reduction-lab or ~/.config/reduction-lab, created on demand; empty if
// neither can be found or made (then nothing is saved, and the app still runs).
std::string config_dir();

// The settings file in config_dir(); empty when there is none.
std::string settings_path();
// What the user chose last time, into state. A broken file is reported in the window
// (state.notice), not fatal; an empty path leaves state as it is.
void load_settings(AppState& state, const std::string& path);
// What the user chose, for next time; a failure is a warning on err, not an error.
void save_settings(const AppState& state, const std::string& path, std::ostream& err);

}  // namespace rl::ui
