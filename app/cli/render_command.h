#pragma once
#include <ostream>
#include <string>

#include "../core/trace.h"

namespace rl::cli {

// Draws the GUI's memory view of one stage headless (EGL) into a PNG. Returns an exit code
// and says what went wrong on err.
int render_stage_png(const core::Trace& trace, int stage, int width, int height,
                     const std::string& path, std::ostream& err);

}  // namespace rl::cli
