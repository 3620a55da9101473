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
  int cols = 0;  // one row per warp: 32 cells, fewer only for blocks under 32
  int rows = 0;
  float title_px = 0;     // text size of the title
  float label_px = 0;     // text size of warp labels and the legend
  Rect title, caption, footer, grid;
  float label_w = 0;      // column left of the grid with "warp k"
  float cell_w = 0, cell_h = 0, gap = 0, row_gap = 0;
  float band_h = 0;       // thread strip under each cell

  Rect cell(int i) const;         // the value cell of shared index i
  Rect thread_band(int i) const;  // the strip of thread i (under its own cell)
  Rect row_label(int row) const;
};

MemoryLayout layout_memory(int block, int width, int height);

}  // namespace rl::render
