// Where the memory view puts things, in pixels (top-left origin). Pure arithmetic, no GL,
// so tests can find a cell's pixels in a rendered image.
#pragma once

namespace rl::render {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  float cx() const { return x + w / 2; }
  float cy() const { return y + h / 2; }
};

struct MemoryLayout {
  int block = 0;
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

  float row_y(int row) const;
  Rect cell(int i) const;         // the value cell of shared index i
  Rect thread_band(int i) const;  // the strip of thread i (under its own cell)
  Rect row_label(int row) const;
  bool starts_warp(int row) const { return (row * cols) % 32 == 0; }
};

// text_scale enlarges the title, captions and labels (presenter mode); cells fill what is left.
MemoryLayout layout_memory(int block, int width, int height, float text_scale = 1);

}  // namespace rl::render
