#pragma once
#include <ostream>

#include "options.h"

namespace rl::ui {

// Opens the window and runs until it is closed. Returns an exit code; says on err why no
// window could be opened (no display) and which headless commands still work.
int run_gui(const GuiOptions& options, std::ostream& err);

}  // namespace rl::ui
