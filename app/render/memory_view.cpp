#include "memory_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "../core/facts.h"
#include "view_parts.h"

namespace rl::render {
namespace {

// What a stage shows: its shared (or global) array, or else the threads' registers.
struct Shown {
  const std::vector<double>* values = nullptr;
  std::string what;
  bool per_thread = false;  // cell i is thread i's (bands and padding apply)
};

Shown shown_array(const core::Trace& t, const core::Stage& s) {
  if (s.shared) {
    const bool global = t.memory == core::Memory::Global;
    return {&*s.shared, global ? "global array (live part)" : "shared memory",
            global || int(s.shared->size()) == t.block};
  }
  if (s.lanes) return {&*s.lanes, "registers, one per thread", true};
  return {};
}

constexpr int kMaxCells = 1024;  // larger arrays (global-halving) show their start
constexpr std::size_t kMaxArrows = 96;  // more would hide the cells they point at

}  // namespace

void draw_memory_view(Canvas& c, const core::Trace& t, int stage, int width, int height,
                      const ViewOptions& options) {
  const Palette pal = options.high_contrast ? high_contrast_palette() : standard_palette();
  c.begin(width, height, pal.background);
  stage = std::clamp(stage, 0, std::max(0, int(t.stages.size()) - 1));
  if (t.stages.empty()) {
    const MemoryLayout L = layout_memory(1, width, height, options.text_scale);
    c.text(width / 2.0f, height / 2.0f, "no stages to show", L.title_px, pal.muted, Align::Center);
    c.end();
    return;
  }
  const core::Stage& s = t.stages[stage];
  const Shown shown = shown_array(t, s);
  const int total = shown.values ? int(shown.values->size()) : 0;
  const int count = std::max(1, std::min(total, kMaxCells));
  const MemoryLayout L = layout_memory(count, width, height, options.text_scale);

  const std::string title =
      t.algorithm + "  -  stage " + std::to_string(stage) + " of " + std::to_string(t.stages.size() - 1) + ": " + s.label;
  c.text(L.title.x, L.title.cy(), title, fit_px(c, title, L.title_px, L.title.w), pal.text);
  std::string caption = core::stage_caption(t, stage);
  if (shown.values) caption = shown.what + (total > count ? " (first " + std::to_string(count) + " of " + std::to_string(total) + ")" : "") + "  |  " + caption;
  c.text(L.caption.x, L.caption.cy(), caption, fit_px(c, caption, L.label_px, L.caption.w), pal.muted);

  std::vector<char> read(count, 0), written(count, 0), working(count, 0);
  const bool marks = s.shared.has_value();  // reads and writes are shared (or global) cells
  for (int th : s.active)
    if (th >= 0 && th < count) working[th] = 1;
  if (marks)
    for (const auto& a : s.accesses) {
      for (int r : a.reads)
        if (r >= 0 && r < count) read[r] = 1;
      for (int w : a.writes)
        if (w >= 0 && w < count) written[w] = 1;
    }

  const std::size_t scaled = shown.per_thread && t.memory != core::Memory::Global ? t.input.size() : std::size_t(total);
  const Scale scale = value_scale(shown.values, scaled);
  // The next stage's values, when animating towards it and it shows the same array.
  const std::vector<double>* next_values = nullptr;
  Scale next_scale = scale;
  if (options.blend > 0 && stage + 1 < int(t.stages.size())) {
    const Shown next = shown_array(t, t.stages[stage + 1]);
    if (next.values && next.values->size() == shown.values->size() && next.what == shown.what) {
      next_values = next.values;
      next_scale = value_scale(next_values, scaled);
    }
  }
  const float mark = std::max(1.5f, std::min(L.cell_w, L.cell_h) * 0.09f);
  for (int r = 0; r < L.rows; ++r) {
    if (!L.starts_warp(r) || !shown.per_thread) continue;
    const Rect lab = L.row_label(r);
    c.text(lab.x, lab.cy(), "warp " + std::to_string(r * L.cols / 32), L.label_px * 0.8f, pal.muted);
  }
  // Cells past the end of the array hold the operator's identity: shown, but greyed.
  const int real = shown.per_thread && t.memory != core::Memory::Global ? int(t.input.size()) : count;
  std::vector<std::string> texts(count);
  float widest = 0;
  const float probe_px = 20;
  for (int i = 0; i < count && shown.values; ++i) {
    texts[i] = short_value((*shown.values)[i], t.type);
    widest = std::max(widest, c.text_width(texts[i], probe_px));
  }
  // One text size for every cell: the largest at which the widest value fits.
  float value_px = std::min(L.cell_h * 0.5f, L.cell_w * 0.45f);
  if (widest > 0) value_px = std::min(value_px, probe_px * (L.cell_w - 3 * mark) / widest);
  for (int i = 0; i < count; ++i) {
    const Rect cell = L.cell(i);
    const double v = shown.values ? (*shown.values)[i] : 0.0;
    const bool pad = i >= real;
    Color fill = pad || !shown.values ? pal.padding : value_color(scale.at(v));
    if (next_values && !pad && i < int(next_values->size()) && (*next_values)[i] != v) {
      const Color to = value_color(next_scale.at((*next_values)[i]));
      const float k = std::clamp(options.blend, 0.0f, 1.0f);
      fill = {fill.r + (to.r - fill.r) * k, fill.g + (to.g - fill.g) * k, fill.b + (to.b - fill.b) * k, 1};
    }
    const Color border = written[i] ? pal.written : read[i] ? pal.read : fill;
    c.rect(cell, fill, border, (written[i] || read[i]) ? mark : 0);
    if (shown.per_thread) c.rect(L.thread_band(i), working[i] ? pal.active : pal.inactive);
    if (shown.values && value_px >= 6)
      c.text(cell.cx(), cell.cy(), texts[i], value_px, pad ? pal.muted : text_on(fill), Align::Center);
  }

  // The bank overlay: cells whose warp-wide access conflicted get a badge with the degree.
  bool any_conflict = false;
  if (marks && t.memory != core::Memory::Global) {
    const auto degree = core::cell_conflicts(s, count, t.type == core::DType::Double ? 8 : 4);
    const float badge_px = std::max(7.0f, std::min(L.cell_h * 0.3f, L.cell_w * 0.28f));
    for (int i = 0; i < count; ++i) {
      if (degree[i] < 2) continue;
      any_conflict = true;
      const Rect cell = L.cell(i);
      const std::string label = std::to_string(degree[i]) + "x";
      const float bw = c.text_width(label, badge_px) + badge_px * 0.4f, bh = badge_px * 1.2f;
      c.rect({cell.x + cell.w - bw, cell.y, bw, bh}, pal.conflict);
      c.text(cell.x + cell.w - bw / 2, cell.y + bh / 2, label, badge_px, {1, 1, 1, 1}, Align::Center);
    }
  }

  // Arrows from the cells each thread read to the cell it wrote (up to a legible number).
  if (marks && s.accesses.size() <= kMaxArrows) {
    Color tint = pal.read;
    tint.a = 0.85f;
    const float w = std::max(1.5f, std::min(L.cell_w, L.cell_h) * 0.06f);
    for (const auto& a : s.accesses) {
      if (a.writes.empty() || a.writes[0] >= count) continue;
      const Rect to = L.cell(a.writes[0]);
      for (int r : a.reads) {
        if (r == a.writes[0] || r < 0 || r >= count) continue;
        const Rect from = L.cell(r);
        arrow(c, from.cx(), from.y + from.h * 0.2f, to.cx(), to.y + to.h * 0.2f, w,
              std::min(L.cell_w, L.cell_h) * 0.3f, tint);
      }
    }
  }

  // Shuffle stages: each lane's operand came from the lane `offset` above it; a lane past the
  // warp's end got its own value back (a square on its cell).
  bool own_values = false;
  const bool shuffle = core::is_shuffle(s.tag) && s.lanes && shown.per_thread && s.param > 0;
  if (shuffle) {
    Color tint = pal.read;
    tint.a = 0.85f;
    const float w = std::max(1.5f, std::min(L.cell_w, L.cell_h) * 0.05f);
    const int lanes_drawn = std::min(count, count > int(kMaxArrows) ? 32 : count);  // big blocks: warp 0
    for (int lane : s.active) {
      if (lane >= lanes_drawn) continue;
      const Rect to = L.cell(lane);
      if (lane % 32 + s.param < 32 && lane + s.param < count) {
        const Rect from = L.cell(lane + s.param);
        arrow(c, from.cx(), from.y + from.h * 0.8f, to.cx(), to.y + to.h * 0.8f, w,
              std::min(L.cell_w, L.cell_h) * 0.25f, tint);
      } else {
        own_values = true;
        const float r = std::min(L.cell_w, L.cell_h) * 0.16f;
        c.rect({to.cx() - r, to.y + to.h * 0.8f - r, 2 * r, 2 * r}, {0, 0, 0, 0}, pal.read, w);
      }
    }
  }

  // Footer: the legend, then where the data came from.
  float x = L.legend.x;
  const float sw = L.label_px;
  const auto legend = [&](Color col, const char* name, bool outline) {
    const Rect box{x, L.legend.cy() - sw / 2, sw, sw};
    c.rect(box, outline ? pal.background : col, col, outline ? std::max(1.5f, sw * 0.2f) : 0);
    x += sw * 1.4f;
    c.text(x, L.legend.cy(), name, L.label_px, pal.text);
    x += c.text_width(name, L.label_px) + sw * 1.5f;
  };
  if (marks) {
    legend(pal.written, "written", true);
    legend(pal.read, "read", true);
  }
  if (shown.per_thread) {
    legend(pal.active, "thread worked", false);
    legend(pal.inactive, "thread idle", false);
  }
  if (real < count) legend(pal.padding, "past the array's end (identity)", false);
  if (any_conflict) legend(pal.conflict, "Nx: N-way bank conflict", false);
  if (shuffle) legend(pal.read, own_values ? "arrow: lane the value came from; square: its own value" : "arrow: lane the value came from", true);
  c.text(L.source.x, L.source.cy(), source_line(t), L.label_px, pal.text);
  c.end();
}

}  // namespace rl::render
