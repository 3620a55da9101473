#include "gpus_view.h"

#include <algorithm>
#include <string>
#include <vector>

namespace rl::render {
namespace {

// Where the GPUs' rows and the chunks' columns go in the view's area.
struct GpuGrid {
  Rect area;
  float label_w = 0, cell_w = 0, cell_h = 0, row_h = 0, gutter = 0, header_h = 0;
  Rect cell(int gpu, int chunk) const {
    return {area.x + label_w + float(chunk) * (cell_w + gutter), area.y + header_h + float(gpu) * row_h, cell_w,
            cell_h};
  }
};

GpuGrid layout_gpus(const ViewContext& v, const Rect& area) {
  const core::Collective& c = *v.t.collective;
  GpuGrid g;
  g.area = area;
  g.label_w = v.c.text_width("GPU 8", v.L.label_px) + v.L.label_px;
  g.header_h = v.L.label_px * 1.8f;
  const float chunks = float(c.chunks());
  // A gutter right of each column takes the arrows that skip rows, one lane a sender.
  g.gutter = std::min(v.L.label_px * 0.6f * float(c.gpus), (area.w - g.label_w) * 0.3f / chunks);
  g.cell_w = (area.w - g.label_w) / chunks - g.gutter;
  g.row_h = (area.h - g.header_h) / float(c.gpus);
  g.cell_h = g.row_h * 0.62f;  // the rest of a row: the arrows between GPUs
  return g;
}

// Chunk k's values on `gpu` as the stage left them, and whether there are more than are kept.
std::vector<double> chunk_values(const core::Collective& c, const core::GpuStage& s, int gpu, std::size_t k) {
  std::size_t first = 0;
  for (std::size_t j = 0; j < k; ++j) first += std::min(c.kept, c.chunk_begin[j + 1] - c.chunk_begin[j]);
  const std::size_t n = std::min(c.kept, c.chunk_begin[k + 1] - c.chunk_begin[k]);
  const auto& held = s.held[std::size_t(gpu)];
  return {held.begin() + std::ptrdiff_t(first), held.begin() + std::ptrdiff_t(first + n)};
}

// The transfer that reached (gpu, chunk) in the stage, if one did.
const core::Transfer* received(const core::GpuStage& s, int gpu, int chunk) {
  for (const auto& x : s.transfers)
    if (x.to == gpu && x.chunk == chunk) return &x;
  return nullptr;
}

void draw_headers(const ViewContext& v, const GpuGrid& g) {
  const core::Collective& c = *v.t.collective;
  for (std::size_t k = 0; k < c.chunks(); ++k) {
    const Rect cell = g.cell(0, int(k));
    // The chunk's elements where they fit beside its name, else its name alone.
    const std::string name = c.chunks() == 1 ? "the whole buffer" : "chunk " + std::to_string(k);
    const std::string range =
        "[" + std::to_string(c.chunk_begin[k]) + ", " + std::to_string(c.chunk_begin[k + 1]) + ")";
    const std::string whole = name + ": " + range;
    const bool fits = v.c.text_width(whole, v.L.label_px) <= cell.w;
    fitted_text(v.c, cell.x, g.area.y + g.header_h * 0.45f, fits ? whole : name, v.L.label_px, v.min_px, cell.w,
                v.pal.muted);
  }
}

void draw_cells(const ViewContext& v, const GpuGrid& g) {
  const core::Collective& c = *v.t.collective;
  const core::GpuStage& s = c.stages[std::size_t(v.stage)];
  const core::GpuStage& last = c.stages.back();
  const core::DType type = core::value_type(v.t);
  for (int gpu = 0; gpu < c.gpus; ++gpu) {
    const Rect row0 = g.cell(gpu, 0);
    v.c.text(g.area.x, row0.cy(), "GPU " + std::to_string(gpu), v.L.label_px, v.pal.text);
    for (std::size_t k = 0; k < c.chunks(); ++k) {
      const Rect cell = g.cell(gpu, int(k));
      const core::Transfer* in = received(s, gpu, int(k));
      const Color fill = !in ? v.pal.background : in->add ? v.pal.written : v.pal.read;
      const std::vector<double> values = chunk_values(c, s, gpu, k);
      const bool whole = values == chunk_values(c, last, gpu, k);  // the chunk's sum, as the run ends
      v.c.rect(cell, fill, whole ? v.pal.active : v.pal.grid_line, whole ? 3.0f : 1.0f);
      std::string text;
      for (double x : values) text += (text.empty() ? "" : "  ") + short_value(x, type);
      if (c.chunk_begin[k + 1] - c.chunk_begin[k] > values.size()) text += "  ...";
      const float pad = v.L.label_px * 0.4f;
      fitted_text(v.c, cell.x + pad, cell.cy(), text, v.L.label_px, v.min_px, cell.w - 2 * pad, text_on(fill));
    }
  }
}

// Every GPU reading every other's buffer (one-shot): N(N - 1) arrows would hide the cells, so a
// bus right of the column, a line from each GPU into it and an arrow from it into each.
void draw_bus(const ViewContext& v, const GpuGrid& g, const std::vector<core::Transfer>& transfers) {
  const core::Collective& c = *v.t.collective;
  const float lw = std::max(2.0f, v.L.label_px * 0.14f), head = v.L.label_px * 0.5f;
  const Color color = transfers[0].add ? v.pal.written : v.pal.read;
  const Rect top = g.cell(0, transfers[0].chunk), bottom = g.cell(c.gpus - 1, transfers[0].chunk);
  const float bus = top.x + top.w + g.gutter * 0.6f;
  v.c.line(bus, top.cy() - top.h * 0.25f, bus, bottom.cy() + bottom.h * 0.25f, lw, color);
  for (int gpu = 0; gpu < c.gpus; ++gpu) {
    const Rect cell = g.cell(gpu, transfers[0].chunk);
    v.c.line(cell.x + cell.w, cell.cy() - cell.h * 0.25f, bus, cell.cy() - cell.h * 0.25f, lw,
             color);  // its buffer out
    arrow(v.c, bus, cell.cy() + cell.h * 0.25f, cell.x + cell.w, cell.cy() + cell.h * 0.25f, lw, head,
          color);  // the others in
  }
}

// Between neighbouring rows an arrow runs straight down or up inside the column, at the sender's
// lane; past them (the ring's last GPU to the first) it runs through the column's gutter.
void draw_transfers(const ViewContext& v, const GpuGrid& g) {
  const core::Collective& c = *v.t.collective;
  const auto& transfers = c.stages[std::size_t(v.stage)].transfers;
  if (transfers.size() > std::size_t(c.gpus)) return draw_bus(v, g, transfers);  // more than one a receiver
  const float lw = std::max(2.0f, v.L.label_px * 0.14f), head = v.L.label_px * 0.5f;
  for (const core::Transfer& x : transfers) {
    const Rect from = g.cell(x.from, x.chunk), to = g.cell(x.to, x.chunk);
    const Color color = x.add ? v.pal.written : v.pal.read;
    const float lane = (float(x.from) + 1) / float(c.gpus + 1);
    if (std::abs(x.to - x.from) == 1) {
      const float ax = from.x + from.w * lane;
      const bool down = x.to > x.from;
      arrow(v.c, ax, down ? from.y + from.h : from.y, ax, down ? to.y : to.y + to.h, lw, head, color);
      continue;
    }
    const float gx = from.x + from.w + g.gutter * lane;
    const float y0 = from.cy() + (lane - 0.5f) * from.h * 0.5f, y1 = to.cy() + (lane - 0.5f) * to.h * 0.5f;
    v.c.line(from.x + from.w, y0, gx, y0, lw, color);
    v.c.line(gx, y0, gx, y1, lw, color);
    arrow(v.c, gx, y1, to.x + to.w, y1, lw, head, color);
  }
}

}  // namespace

void draw_gpus(const ViewContext& v) {
  const Rect area = view_frame(v.c, v.t, v.stage, "gpus", v.L, v.pal, "", v.min_px);
  const GpuGrid g = layout_gpus(v, area);
  draw_headers(v, g);
  draw_cells(v, g);
  draw_transfers(v, g);
  draw_legend(v.c, v.L.legend,
              {{v.pal.written, "received and added to its copy"},
               {v.pal.read, "received and copied over it"},
               {v.pal.active, "holds the chunk's whole sum", true}},
              v.L.label_px, v.min_px, v.pal);
}

}  // namespace rl::render
