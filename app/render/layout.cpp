#include "layout.h"

#include <algorithm>
#include <limits>

namespace rl::render {

float MemoryLayout::row_y(int row) const {
  const int warps_before = (row * cols) / 32;  // warp boundaries above this row (first is a warp's start)
  return grid.y + row * (cell_h + band_h + row_gap) + warps_before * warp_gap;
}

Rect MemoryLayout::cell(int i) const {
  i -= first;
  const int r = i / cols, c = i % cols;
  return {grid.x + label_w + c * (cell_w + gap), row_y(r), cell_w, cell_h};
}

Rect MemoryLayout::thread_band(int i) const {
  const Rect c = cell(i);
  return {c.x, c.y + c.h + band_h * 0.2f, c.w, band_h * 0.8f};
}

Rect MemoryLayout::row_label(int row) const { return {grid.x, row_y(row), label_w, cell_h}; }

namespace {

// The grid of `block` cells below `reserve` pixels kept free under the caption; `only_cols`
// cells a row, or (0) the row width that gives the largest cells.
MemoryLayout layout_cells(int block, int width, int height, float text_scale, float min_px, float reserve, int only_cols) {
  MemoryLayout L;
  L.block = std::max(block, 1);
  const float w = float(width), h = float(height);
  const float margin = std::max(4.0f, 0.02f * std::min(w, h));
  L.title_px = std::max(std::clamp(std::min(h * 0.045f, w * 0.024f), 9.0f, 44.0f) * text_scale, min_px * 1.2f);
  L.label_px = std::max(std::clamp(std::min(h * 0.028f, w * 0.015f), 8.0f, 28.0f) * text_scale, min_px);
  L.title = {margin, margin, w - 2 * margin, L.title_px * 1.3f};
  L.caption = {margin, L.title.y + L.title.h, w - 2 * margin, L.label_px * 1.5f};
  const float line = L.label_px * 1.6f;
  L.source = {margin, h - margin - line, w - 2 * margin, line};
  L.legend = {margin, L.source.y - 2 * line, w - 2 * margin, 2 * line};
  const float top = L.caption.y + L.caption.h + margin * 0.5f + reserve;
  const float avail_h = std::max(L.legend.y - margin * 0.5f - top, 1.0f);
  L.label_w = L.label_px * 4.6f;  // "warp 31" at label_px
  L.gap = std::max(1.0f, w * 0.002f);
  const float grid_w = w - 2 * margin - L.label_w;

  // Pick the row width that gives the largest cells; a warp is one row or several.
  float best = -std::numeric_limits<float>::infinity();  // a tiny view still gets a row width
  for (int cols : {32, 16, 8, 4}) {
    if (only_cols ? cols != only_cols : (cols > L.block && cols != 8) || cols == 4) continue;
    const int c = std::min(cols, L.block);
    const int rows = (L.block + c - 1) / c;
    const float cw = (grid_w - (c - 1) * L.gap) / c;
    const float rh = std::min(avail_h / rows, cw * 2.2f);
    const float score = std::min(cw, rh * 0.65f);
    if (score > best + 0.5f) {
      best = score;
      L.cols = c;
      L.rows = rows;
    }
  }
  L.cell_w = std::max(1.0f, (grid_w - (L.cols - 1) * L.gap) / L.cols);
  const int warps = (L.rows * L.cols + 31) / 32;
  // Row = cell + thread strip + gap; warps get extra space between them so they stand apart.
  float row_h = std::min(avail_h / (L.rows + 0.3f * (warps - 1)), L.cell_w * 2.2f);
  L.row_gap = row_h * 0.1f;
  L.warp_gap = warps > 1 && L.cols < 32 ? row_h * 0.3f : 0.0f;
  L.band_h = row_h * 0.2f;
  L.cell_h = row_h - L.row_gap - L.band_h;
  const float used = L.rows * row_h - L.row_gap + (warps - 1) * L.warp_gap;
  L.grid = {margin, top + std::max(0.0f, (avail_h - used) / 2), w - 2 * margin, used};
  return L;
}

}  // namespace

MemoryLayout layout_memory(int block, int width, int height, float text_scale, float min_px, float reserve, int cols) {
  return layout_cells(block, width, height, text_scale, min_px, reserve, cols);
}

Rect free_area(const MemoryLayout& L) {
  const float top = L.caption.y + L.caption.h + L.label_px * 0.5f;
  return {L.title.x, top, L.title.w, std::max(1.0f, L.legend.y - top - L.label_px * 0.3f)};
}

int warp_parts(int count, int warp, int span) {
  const int lanes = std::clamp(count - warp * 32, 1, 32);
  return (lanes + span - 1) / span;
}

MemoryLayout layout_warp(int count, int warp, int width, int height, float text_scale, float min_px, int cols,
                         float reserve, int span, int part) {
  const float strip = layout_memory(1, width, height, text_scale, min_px).label_px * 1.6f;  // the text size alone
  warp = std::clamp(warp, 0, std::max(0, (count - 1) / 32));
  span = std::clamp(span, 1, 32);
  part = std::clamp(part, 0, warp_parts(count, warp, span) - 1);
  const int first = warp * 32 + part * span;
  MemoryLayout L =
      layout_cells(std::min(span, count - first), width, height, text_scale, min_px, reserve + strip * 1.5f, cols);
  L.first = first;
  L.span = span;
  const float top = L.caption.y + L.caption.h + L.label_px * 0.3f + reserve;
  L.overview = {L.title.x + L.label_w, top, L.title.w - L.label_w, strip};
  return L;
}

}  // namespace rl::render
