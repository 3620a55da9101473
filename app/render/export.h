// Exports: a stage's view as PNG, a PNG per stage, a whole run as GIF or MP4, a benchmark's
// chart as PNG and its results as CSV and JSON. The window and the command line both call
// these; each says what went wrong in words and leaves it to the caller how to show them.
#pragma once
#include <atomic>
#include <string>
#include <string_view>

#include "../core/bench.h"
#include "../core/trace.h"
#include "plot.h"
#include "warp_views.h"

namespace rl::render {

struct Exported {
  enum class Status { Ok, BadRequest, Failed };  // BadRequest: asked for what cannot be (a usage error)
  Status status = Status::Ok;
  std::string error;  // what went wrong, without a program name: the caller adds its own
  bool ok() const { return status == Status::Ok; }
};

// How far an export has got, for a window that runs it on a worker thread; `cancel` stops it
// between frames (the export then fails with "cancelled" and leaves no partial video).
struct Progress {
  std::atomic<int> done{0}, total{0};
  std::atomic<bool> cancel{false};
};

// What to draw and where: the view, and whether to draw in the caller's current OpenGL
// context (the window exporting) instead of making a headless one.
struct Look {
  View view = View::Memory;
  bool current_context = false;
  Progress* progress = nullptr;  // may be null
  int warp = 0;  // the warp a view enlarges where a block is too wide to read (ViewOptions::warp)
  int first_row = 0;  // the banks or coalescing view's first row, as the window pages (ViewOptions::first_bank_row)
  int stale = 0;      // a race recording's described stale read, as the window pages (ViewOptions::stale)
  bool presenter = false;  // drawn as presenter mode draws: larger text, high contrast, its minimum size
  int part = 0;            // the part of that warp a narrow view enlarges (ViewOptions::part)
};

// One stage's view as a PNG.
Exported export_stage_png(const core::Trace& trace, int stage, int width, int height, const std::string& path,
                          const Look& look = {});
// Compare mode's two views of a stage side by side in one PNG: `first` in the left half,
// `second` in the right (past its last stage a trace shows its last).
Exported export_compare_png(const core::Trace& first, const core::Trace& second, int stage, int width, int height,
                            const std::string& path, const Look& look = {});
// One PNG per stage: PREFIX-stage00.png, PREFIX-stage01.png, ... With `second` (compare mode)
// each is both views side by side, as export_compare_png draws them, for the longer run's stages.
Exported export_all_stages(const core::Trace& trace, int width, int height, const std::string& prefix,
                           const Look& look = {}, const core::Trace* second = nullptr);
// A whole run as a video (.mp4) or animated GIF (.gif) through ffmpeg: each stage held, then
// faded into the next, as the window plays it; with `second`, both side by side.
Exported export_video(const core::Trace& trace, int width, int height, const std::string& path, const Look& look = {},
                      const core::Trace* second = nullptr);

// Whether ffmpeg's output is a whole video: a GIF ends in its trailer byte (0x3B), an MP4 holds
// its index (the 'moov' box). ffmpeg exits 0 after "Error writing trailer ... File too large",
// leaving a file no player opens; such a file never replaces the user's.
bool video_whole(std::string_view bytes, bool gif);

// A chart (the bandwidth chart: render/bench_chart.h) as a PNG.
Exported export_chart_png(const PlotSpec& chart, int width, int height, const std::string& path,
                          bool current_context = false);
// A benchmark: BASE.csv and BASE.json (the results), BASE.png (the chart, 1600 x 900).
Exported export_bench(const core::BenchReport& report, const PlotSpec& chart, const std::string& base,
                      bool current_context = false);

}  // namespace rl::render
