#pragma once
#include <ostream>
#include <string>

#include "../core/bench.h"
#include "../core/trace.h"

namespace rl::cli {

// Draws the GUI's memory view of one stage headless (EGL) into a PNG. Returns an exit code
// and says what went wrong on err.
int render_stage_png(const core::Trace& trace, int stage, int width, int height,
                     const std::string& path, std::ostream& err);
// Draws the window's bandwidth chart for a results file's rows of one type and operator.
int render_chart_png(const core::BenchReport& report, const std::string& type, const std::string& op, int width,
                     int height, const std::string& path, std::ostream& err);

}  // namespace rl::cli
