// Pieces every stage view draws with: value text, the colour scale, arrows.
#pragma once
#include <string>
#include <vector>

#include "../core/trace.h"
#include "canvas.h"

namespace rl::render {

// Cells are narrow: floats get three significant digits (or `digits`), ints their digits.
std::string short_value(double v, core::DType type, int digits = 3);

// Whether thread `thread` of the traced block worked in the stage.
bool is_active(const core::Stage& s, int thread);

// The colour scale spans the shown stage's values: sums grow stage by stage, and a scale
// fixed to the final total would paint the early stages in one colour.
struct Scale {
  double lo = 0, hi = 1;
  float at(double v) const { return hi > lo ? float((v - lo) / (hi - lo)) : 0.5f; }
};
// The finite values among the first `real` (padding past the array is left out).
Scale value_scale(const std::vector<double>* values, std::size_t real);

// A line from (x0, y0) to (x1, y1) with a head of two short strokes at its end.
void arrow(Canvas& c, float x0, float y0, float x1, float y1, float width, float head, Color color);

// The text size at which `text` fits `width`: px, or smaller for long titles and captions
// (a projector's window is often narrow), but never below min_px.
float fit_px(Canvas& c, const std::string& text, float px, float width, float min_px = 0);
// Draws `text` left-aligned at (x, cy) in `width`: at px, smaller to fit, never below min_px;
// what still does not fit is cut, with "..." at the end (so the text's start is what is read).
void fitted_text(Canvas& c, float x, float cy, const std::string& text, float px, float min_px, float width, Color color);
// Rows (1 or 2) a line of the hardware's counts takes at px in width: what view_area keeps for it.
int wrapped_rows(const std::string& text, float px, float width);

// A view's legend: a swatch and a name per entry, left to right in `area`, at `px`; where the
// entries do not fit one line they shrink (not below min_px) and then take a second line.
struct LegendEntry {
  Color color;
  std::string name;
  bool outline = false;
};
void draw_legend(Canvas& c, const Rect& area, const std::vector<LegendEntry>& entries, float px, float min_px,
                 const Palette& pal);

// "warp-shuffle  -  stage 3 of 12: shuffle down by 4  (lanes)" at the title's size: parts left
// out (the view's name, then the algorithm's) before any is cut. view may be null.
void draw_stage_title(Canvas& c, const core::Trace& t, int stage, const char* view, const MemoryLayout& L,
                      const Palette& pal, float min_px);
// A stage view's title ("... (banks)"), caption (`note` first), source line and, where the
// algorithm was measured, the hardware's counts for the view above the legend; returns the free
// area between them (view_area).
Rect view_frame(Canvas& c, const core::Trace& t, int stage, const char* view, const MemoryLayout& L, const Palette& pal,
                const std::string& note, float min_px);
// The area a stage view of `algorithm` draws in: free_area, less two lines where the hardware's
// counts for `view` are shown under it.
Rect view_area(const MemoryLayout& L, std::string_view algorithm, const char* view, float min_px);
float counted_px(const MemoryLayout& L, float min_px);  // the size of those two lines
// A line of text centred in `area`: what a view says when it has nothing to draw.
void view_message(Canvas& c, const Rect& area, const std::string& text, float px, const Palette& pal);

struct ViewOptions {
  bool high_contrast = false;
  // While playing, how far the animation is towards the next stage (0..1): cells that change
  // fade from their colour now to their colour then.
  float blend = 0;
  // Text size against the default (presenter mode: larger, for the back of the room).
  float text_scale = 1;
  // The banks view shows kBankRowsShown warp-wide accesses from this one on, the coalescing view
  // kLoadRowsShown warp-wide loads (the window pages).
  int first_bank_row = 0;
  // No text is drawn smaller than this (pixels). A block whose cell values would be smaller is
  // shown one warp at a time, enlarged (`warp`), under a strip of the whole block.
  float min_text_px = kMinTextPx;
  int warp = 0;
  // A race recording: which of the stage's stale reads the caption describes and the arrow shows.
  int stale = 0;
  // Where even one warp's values would be too small, the memory view enlarges part of it (16 or
  // 8 cells): this one (0-based).
  int part = 0;
};
constexpr int kBankRowsShown = 16;

// What every stage view draws with, passed as one: the canvas, the run and the stage on screen,
// the layout, the colours, the options and the smallest text. The grid, matrix and memory views
// extend it with their own geometry (GridBoxes, MatrixPaint, MemoryFrame).
struct ViewContext {
  Canvas& c;
  const core::Trace& t;
  int stage;
  const MemoryLayout& L;
  const Palette& pal;
  const ViewOptions& options;
  float min_px;  // no text smaller
};

// Where the data came from: "GPU run: NVIDIA H200", or the CPU model, said plainly.
std::string source_line(const core::Trace& t);

// A thread's strip: the palette's worked or idle colour; where rows own segments of fewer than
// 32 lanes (Geometry::segment_lanes), every other row's segment a shade darker, so a row's lanes
// read as one.
Color thread_band_color(const core::Trace& trace, int thread, bool worked, const Palette& pal);
// The darker shade of every other row's segment.
Color segment_shade(Color c);

}  // namespace rl::render
