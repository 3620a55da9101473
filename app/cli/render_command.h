#pragma once
#include <ostream>
#include <string>

#include "../core/bench.h"
#include "../core/trace.h"
#include "../render/warp_views.h"

namespace rl::cli {

// What to draw and where: the view, and whether to draw in the caller's current OpenGL
// context (the window exporting) instead of making a headless one.
struct Look {
  render::View view = render::View::Memory;
  bool current_context = false;
};

// Draws one of the GUI's stage views (the memory view by default) of one stage headless (EGL) into a PNG. Returns an exit code
// and says what went wrong on err.
int render_stage_png(const core::Trace& trace, int stage, int width, int height,
                     const std::string& path, std::ostream& err, const Look& look = {});
// One PNG per stage: PREFIX-stage00.png, PREFIX-stage01.png, ...
int render_all_stages(const core::Trace& trace, int width, int height, const std::string& prefix, std::ostream& err,
                      const Look& look = {});
// A whole run as a video (.mp4) or animated GIF (.gif) through ffmpeg: each stage held, then
// faded into the next, as the window plays it.
int render_video(const core::Trace& trace, int width, int height, const std::string& path, std::ostream& err,
                 const Look& look = {});

// Draws the window's bandwidth chart for a results file's rows of one type and operator.
int render_chart_png(const core::BenchReport& report, const std::string& type, const std::string& op, int width,
                     int height, const std::string& path, std::ostream& err);

}  // namespace rl::cli
