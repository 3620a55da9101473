#include "layout.h"

#include <algorithm>

namespace rl::render {

Rect MemoryLayout::cell(int i) const {
  const int r = i / cols, c = i % cols;
  return {grid.x + label_w + c * (cell_w + gap), grid.y + r * (cell_h + band_h + row_gap), cell_w,
          cell_h};
}

Rect MemoryLayout::thread_band(int i) const {
  const Rect c = cell(i);
  return {c.x, c.y + c.h + band_h * 0.2f, c.w, band_h * 0.8f};
}

Rect MemoryLayout::row_label(int row) const {
  return {grid.x, grid.y + row * (cell_h + band_h + row_gap), label_w, cell_h};
}

MemoryLayout layout_memory(int block, int width, int height) {
  MemoryLayout L;
  L.block = std::max(block, 1);
  L.cols = std::min(L.block, 32);
  L.rows = (L.block + L.cols - 1) / L.cols;
  const float w = float(width), h = float(height);
  const float margin = std::max(4.0f, 0.02f * std::min(w, h));
  L.title_px = std::clamp(h * 0.045f, 10.0f, 44.0f);
  L.label_px = std::clamp(h * 0.028f, 8.0f, 28.0f);
  L.title = {margin, margin, w - 2 * margin, L.title_px * 1.3f};
  L.caption = {margin, L.title.y + L.title.h, w - 2 * margin, L.label_px * 1.5f};
  L.footer = {margin, h - margin - L.label_px * 1.6f, w - 2 * margin, L.label_px * 1.6f};
  const float top = L.caption.y + L.caption.h + margin * 0.5f;
  const float bottom = L.footer.y - margin * 0.5f;
  L.label_w = L.label_px * 4.2f;
  L.gap = std::max(1.0f, w * 0.002f);
  const float grid_w = w - 2 * margin - L.label_w;
  L.cell_w = (grid_w - (L.cols - 1) * L.gap) / L.cols;
  const float avail_h = std::max(bottom - top, 1.0f);
  // A row is a cell plus its thread strip; rows get a wider gap so warps stand apart.
  float row_h = avail_h / L.rows;
  row_h = std::min(row_h, L.cell_w * 2.2f);
  L.row_gap = row_h * 0.12f;
  L.band_h = row_h * 0.2f;
  L.cell_h = row_h - L.row_gap - L.band_h;
  const float used = L.rows * row_h - L.row_gap;
  L.grid = {margin, top + std::max(0.0f, (avail_h - used) / 2), w - 2 * margin, used};
  return L;
}

}  // namespace rl::render
