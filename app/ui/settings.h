// Where the app keeps what the user made: the user's config folder, never the working directory.
#pragma once
#include <string>

namespace rl::ui {

// $XDG_CONFIG_HOME/reduction-lab or ~/.config/reduction-lab, created on demand; empty if
// neither can be found or made (then nothing is saved, and the app still runs).
std::string config_dir();

}  // namespace rl::ui
