// Where the memory view puts things, in pixels (top-left origin). Pure arithmetic, no GL,
// so tests can find a cell's pixels in a rendered image.
#pragma once

namespace rl::render {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float cx() const { return x + w / 2; }
  float cy() const { return y + h / 2; }
};

// The views' smallest text by default (pixels): the window's normal layout at 1600x900, and
// every export and `render` image.
constexpr float kMinTextPx = 14;

struct MemoryLayout {
  int block = 0;
  int span = 32;  // layout_warp: the cells of the warp enlarged (32, or a part of 16 or 8)
  int cols = 0;  // 32, 16 or 8 cells a row, whichever gives the larger cells
  int rows = 0;
  float title_px = 0;  // text size of the title
  float label_px = 0;  // text size of captions, warp labels and the legend
  Rect title, caption, legend, source, grid;
  float label_w = 0;  // column left of the grid with "warp k"
  float cell_w = 0, cell_h = 0, gap = 0;
  float row_gap = 0;   // between rows of one warp
  float warp_gap = 0;  // extra space where a new warp starts
  float band_h = 0;    // thread strip under each cell
  int first = 0;       // the shared index of the first cell laid out (an enlarged warp's first)
  Rect overview;       // an enlarged warp's strip of the whole block, above the grid (else empty)

  float row_y(int row) const;
  Rect cell(int i) const;         // the value cell of shared index i (first <= i < first + block)
  Rect thread_band(int i) const;  // the strip of thread i (under its own cell)
  Rect row_label(int row) const;
  bool starts_warp(int row) const { return (first + row * cols) % 32 == 0; }
  int warp_of_row(int row) const { return (first + row * cols) / 32; }
};

// text_scale enlarges the title, captions and labels (presenter mode); no text is laid out
// smaller than min_px. Cells fill what is left below `reserve` pixels kept free under the
// caption (a matrix trace's window of the matrix); the legend has two lines. `cols` cells a row
// (32, 16, 8 or 4), or (0) the row width that gives the largest cells.
MemoryLayout layout_memory(int block, int width, int height, float text_scale = 1, float min_px = kMinTextPx,
                           float reserve = 0, int cols = 0);
// One warp of a block of `count` cells, enlarged: its 32 cells (fewer for a last, partial
// warp) where the block's grid would go, under an overview strip of the whole block; `cols`
// cells a row (32, 16, 8 or 4), or (0) the row width that gives the largest cells. A `span` of
// 16 or 8 enlarges only that many of the warp's cells, its part `part` (0-based).
MemoryLayout layout_warp(int count, int warp, int width, int height, float text_scale = 1, float min_px = kMinTextPx,
                         int cols = 0, float reserve = 0, int span = 32, int part = 0);
// The parts of `span` cells that warp `warp` of a block of `count` cells has (1 for 32).
int warp_parts(int count, int warp, int span);
// The pixels between the caption and the legend: what a view has for its picture.
Rect free_area(const MemoryLayout& L);

}  // namespace rl::render
