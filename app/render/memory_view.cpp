#include "memory_view.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../../kernels/stage_tags.h"
#include "../core/facts.h"
#include "matrix_view.h"
#include "memory_parts.h"
#include "view_parts.h"

namespace rl::render {
namespace {

namespace parts = memory_parts;  // an alias, not a using-directive: a unity build puts later files here

constexpr std::size_t kMaxArrows = 96;  // more would hide the cells they point at

// What every piece of one frame shares: the view's context, the stage, its array and the cells.
struct MemoryFrame : ViewContext {
  const core::Stage& s;
  const parts::Shown& shown;
  int total = 0;  // cells in the array
  int count = 0;  // cells in the picture (the whole block, or its strip)
  int real = 0;   // cells before the padding
  bool marks = false;                // reads and writes are shared (or global) cells
  int lo = 0, hi = 0;                // the cells drawn large: all, or one warp's
  const core::Race* race = nullptr;  // a race recording whose replay fits this stage's cells
  int stale = 0;                     // the stale read the race caption describes
  bool zoomed() const { return hi - lo < count; }
};

// The cells active threads read and wrote, and the threads that worked.
struct CellMarks {
  std::vector<char> read, written, working;
};

// A race recording's marks on a cell: the run's value against what the code meant.
struct CellRace {
  bool wrong = false, stale = false, path = false;
  double meant = 0, seen = 0;
};

std::vector<CellRace> race_cells(const MemoryFrame& f) {
  std::vector<CellRace> out(std::size_t(f.count));
  if (!f.race) return out;
  const core::Race& r = *f.race;
  const auto k = std::size_t(f.stage);
  for (int c : r.wrong[k])
    if (c < f.count) out[std::size_t(c)].wrong = true, out[std::size_t(c)].meant = r.meant[k][std::size_t(c)];
  for (const auto& x : core::stale_in(r, f.stage))
    if (x.cell < f.count && !out[std::size_t(x.cell)].stale) out[std::size_t(x.cell)].stale = true, out[std::size_t(x.cell)].seen = x.seen;
  for (const auto& p : r.path)
    if (p.stage == f.stage && p.cell < f.count) out[std::size_t(p.cell)].path = true;
  return out;
}

// The stale read the caption describes, or null when the stage has none.
std::optional<core::StaleRead> described(const MemoryFrame& f) {
  if (!f.race) return std::nullopt;
  const auto here = core::stale_in(*f.race, f.stage);
  if (here.empty()) return std::nullopt;
  return here[std::size_t(std::clamp(f.stale, 0, int(here.size()) - 1))];
}

// The next stage's values, when animating towards it and it shows the same array.
struct Blend {
  const std::vector<double>* values = nullptr;
  Scale scale;
  float k = 0;
};

// "warp 3 of 8 (threads 96-127)", or for an array that is not per thread "cells 96-127 of 256".
std::string zoom_note(const MemoryFrame& f) {
  const std::string range = std::to_string(f.lo) + "-" + std::to_string(f.hi - 1);
  if (!f.shown.per_thread) return "cells " + range + " of " + std::to_string(f.count);
  return "warp " + std::to_string(f.lo / 32) + " of " + std::to_string((f.count + 31) / 32) + " (threads " + range + ")";
}

// `caption`: the stage's caption line; false when a two-line race caption takes its row.
void draw_header(const MemoryFrame& f, int stage, bool caption = true) {
  draw_stage_title(f.c, f.t, stage, nullptr, f.L, f.pal, f.min_px);
  if (!caption) return;
  std::string text = core::stage_caption(f.t, stage);
  if (f.shown.values)
    text = f.shown.what +
           (f.total > f.count ? " (first " + std::to_string(f.count) + " of " + std::to_string(f.total) + ")" : "") +
           "  |  " + text;
  if (f.zoomed()) text = zoom_note(f) + ", enlarged  |  " + text;  // first: it survives a cut
  fitted_text(f.c, f.L.caption.x, f.L.caption.cy(), text, f.L.label_px, f.min_px, f.L.caption.w, f.pal.muted);
}

// The race caption in lines that fit `width` at px, broken at spaces: at most three (a half view
// in presenter mode needs them), the last cut where even that is not enough.
std::vector<std::string> race_lines(Canvas& c, std::string text, float px, float width) {
  std::vector<std::string> lines;
  // Where it takes two lines or more, which read comes first its own line: "1 of 22 stale reads in this stage:".
  const std::size_t lead = text.find("in this stage: ");
  if (c.text_width(text, px) > width && lead != std::string::npos) {
    lines.push_back(text.substr(0, lead + 14));
    text = text.substr(lead + 15);
  }
  while (lines.size() < 2 && c.text_width(text, px) > width) {
    std::size_t cut = text.rfind(' ');
    while (cut != std::string::npos && cut > 0 && c.text_width(text.substr(0, cut), px) > width) cut = text.rfind(' ', cut - 1);
    if (cut == std::string::npos || cut == 0) break;
    lines.push_back(text.substr(0, cut));
    text = text.substr(cut + 1);
  }
  lines.push_back(text);
  return lines;
}

// Under the caption, what the described stale read was (or that the stage has none); a caption
// of two lines starts on the stage caption's row, which then gives way (the window prints it
// under the view too).
void draw_race_caption(const MemoryFrame& f, const std::vector<std::string>& lines) {
  const bool any = described(f).has_value();
  float cy = lines.size() > 1 ? f.L.caption.cy() : f.L.caption.y + f.L.caption.h + f.L.label_px * 0.75f;
  for (const auto& line : lines) {
    // Whole pixel sizes, as race_lines measured them: a line that fits at the minimum is not cut.
    float px = std::floor(f.L.label_px);
    while (px > f.min_px && f.c.text_width(line, px) > f.L.caption.w) --px;
    fitted_text(f.c, f.L.caption.x, cy, line, std::max(px, f.min_px), f.min_px, f.L.caption.w, any ? f.pal.stale : f.pal.muted);
    cy += f.L.label_px * 1.5f;
  }
}

CellMarks mark_cells(const MemoryFrame& f) {
  CellMarks m{std::vector<char>(f.count, 0), std::vector<char>(f.count, 0), std::vector<char>(f.count, 0)};
  for (int th : f.s.active)
    if (th >= 0 && th < f.count) m.working[th] = 1;
  if (f.marks)
    for (const auto& a : f.s.accesses) {
      for (std::size_t k = 0; k < a.reads.size(); ++k)
        for (int c = a.reads[k]; c >= 0 && c < f.count && c < a.reads[k] + a.read_width(k); ++c) m.read[c] = 1;
      for (std::size_t k = 0; k < a.writes.size(); ++k)
        for (int c = a.writes[k]; c >= 0 && c < f.count && c < a.writes[k] + a.write_width(k); ++c) m.written[c] = 1;
    }
  return m;
}

Blend blend_target(const MemoryFrame& f, int stage, std::size_t scaled, const Scale& scale, float blend) {
  Blend b{nullptr, scale, std::clamp(blend, 0.0f, 1.0f)};
  if (blend > 0 && stage + 1 < int(f.t.stages.size())) {
    const parts::Shown next = parts::shown_array(f.t, f.t.stages[stage + 1]);
    if (next.values && next.values->size() == f.shown.values->size() && next.what == f.shown.what) {
      b.values = next.values;
      b.scale = value_scale(b.values, scaled);
    }
  }
  return b;
}

// Each warp's first row is labelled with its number; part of a warp enlarged has each row's
// first lane at its left.
void draw_warp_labels(const MemoryFrame& f) {
  if (!f.shown.per_thread) return;
  const bool part = f.L.span < 32 && f.zoomed();  // the caption names the warp and its threads
  for (int r = 0; r < f.L.rows; ++r) {
    const Rect lab = f.L.row_label(r);
    if (part)
      f.c.text(lab.x, lab.cy(), "lane " + std::to_string((f.lo + r * f.L.cols) % 32), f.L.label_px, f.pal.muted);
    else if (f.L.starts_warp(r))
      f.c.text(lab.x, lab.cy(), "warp " + std::to_string(f.L.warp_of_row(r)), f.L.label_px, f.pal.muted);
  }
}

// Cells past the end of the array hold the operator's identity: shown, but greyed.
Color cell_fill(const MemoryFrame& f, int i, const Scale& scale, const Blend& next) {
  const double v = f.shown.values ? (*f.shown.values)[i] : 0.0;
  const bool pad = i >= f.real;
  Color fill = pad || !f.shown.values ? f.pal.padding : value_color(scale.at(v));
  if (next.values && !pad && i < int(next.values->size()) && (*next.values)[i] != v) {
    const Color to = value_color(next.scale.at((*next.values)[i]));
    const float k = next.k;
    fill = {fill.r + (to.r - fill.r) * k, fill.g + (to.g - fill.g) * k, fill.b + (to.b - fill.b) * k, 1};
  }
  return fill;
}

float badge_px(const MemoryFrame& f) { return std::max(f.min_px, std::min(f.L.cell_h * 0.3f, f.L.label_px)); }

// Whether every badge of the cells drawn large has room for its word ("meant 47", "saw 12"):
// the badges of a view either all carry it or all show the value alone.
bool badge_words_fit(const MemoryFrame& f, const std::vector<CellRace>& race) {
  const float px = badge_px(f);
  for (int i = f.lo; i < f.hi; ++i) {
    const CellRace& r = race[std::size_t(i)];
    if (r.wrong && f.c.text_width("meant " + short_value(r.meant, core::value_type(f.t)), px) + px * 0.4f > f.L.cell_w)
      return false;
    if (r.stale && f.c.text_width("saw " + short_value(r.seen, core::value_type(f.t)), px) + px * 0.4f > f.L.cell_w)
      return false;
  }
  return true;
}

// A race badge in a cell's top (meant value) or bottom (value seen) right corner, with its word
// or without; its height, 0 where it does not fit at the minimum size.
float race_badge(const MemoryFrame& f, const Rect& cell, const std::string& word, double v, Color color, bool top) {
  const float px = badge_px(f);
  const std::string label =
      word.empty() ? short_value(v, core::value_type(f.t)) : word + " " + short_value(v, core::value_type(f.t));
  const float bw = f.c.text_width(label, px) + px * 0.4f, bh = px * 1.2f;
  if (bw > cell.w || bh * 2 > cell.h) return 0;
  const float y = top ? cell.y : cell.y + cell.h - bh;
  f.c.rect({cell.x + cell.w - bw, y, bw, bh}, color);
  f.c.text(cell.x + cell.w - bw / 2, y + bh / 2, label, px, text_on(color), Align::Center);
  return bh;
}

// The cell's border: a race's marks first, then the stage's write or read.
Color border_of(const MemoryFrame& f, const CellMarks& m, const CellRace& r, int i, Color fill) {
  if (r.stale) return f.pal.stale;
  if (r.wrong) return f.pal.wrong;
  return m.written[i] ? f.pal.written : m.read[i] ? f.pal.read : fill;
}

// Values are drawn only at the minimum text size or larger; a race's badges take their part
// of the cell, and the value the rest. Returns whether every badge wanted found room.
bool draw_cells(const MemoryFrame& f, const CellMarks& m, const Scale& scale, const Blend& next, float mark,
                const parts::CellTexts& text) {
  bool badges = true;
  const auto race = race_cells(f);
  const bool words = badge_words_fit(f, race);
  for (int i = f.lo; i < f.hi; ++i) {
    const Rect cell = f.L.cell(i);
    const Color fill = cell_fill(f, i, scale, next);
    const CellRace& r = race[std::size_t(i)];
    const bool marked = m.written[i] || m.read[i] || r.stale || r.wrong;
    f.c.rect(cell, fill, border_of(f, m, r, i, fill), marked ? mark : 0);
    if (f.shown.per_thread && !core::own_kernel(f.t))  // cell i is thread i's in our kernels alone
      f.c.rect(f.L.thread_band(i), thread_band_color(f.t, i, m.working[i], f.pal));
    const float top = r.wrong ? race_badge(f, cell, words ? "meant" : "", r.meant, f.pal.wrong, true) : 0;
    const float bottom = r.stale ? race_badge(f, cell, words ? "saw" : "", r.seen, f.pal.stale, false) : 0;
    badges = badges && (top > 0 || !r.wrong) && (bottom > 0 || !r.stale);
    const float room = cell.h - top - bottom, px = std::min(text.px, top + bottom > 0 ? room * 0.8f : text.px);
    if (f.shown.values && px >= f.min_px)
      f.c.text(cell.cx(), cell.y + top + room / 2, text.texts[std::size_t(i - f.lo)], px,
               i >= f.real ? f.pal.muted : text_on(fill), Align::Center);
  }
  // The path's rings go round the cells, over their neighbours' edges: drawn after them all.
  for (int i = f.lo; i < f.hi; ++i) {
    if (!race[std::size_t(i)].path) continue;
    const Rect cell = f.L.cell(i);
    const float g = std::max(2.0f, mark * 0.7f);
    f.c.rect({cell.x - g, cell.y - g, cell.w + 2 * g, cell.h + 2 * g}, {0, 0, 0, 0}, f.pal.path, g);
  }
  return badges;
}

// The described stale read: an arrow from the cell read to the thread that read it, where both
// are drawn large (an enlarged warp shows the rest on its strip).
void draw_stale_arrow(const MemoryFrame& f) {
  const auto x = described(f);
  if (!x || !f.shown.per_thread || !(x->cell >= f.lo && x->cell < f.hi) || !(x->thread >= f.lo && x->thread < f.hi)) return;
  const Rect from = f.L.cell(x->cell), to = f.L.thread_band(x->thread);
  const float side = std::min(f.L.cell_w, f.L.cell_h);
  arrow(f.c, from.cx() - from.w * 0.2f, from.y + from.h * 0.5f, to.cx() - to.w * 0.2f, to.cy(), std::max(2.0f, side * 0.07f),
        side * 0.3f, f.pal.stale);
}

// An enlarged warp's place in its block: every cell as a sliver of colour, the warp framed.
void draw_overview(const MemoryFrame& f, const Scale& scale, const Blend& next) {
  const Rect& o = f.L.overview;
  const float w = o.w / float(f.count);
  for (int i = 0; i < f.count; ++i) f.c.rect({o.x + i * w, o.y, std::max(w, 1.0f), o.h}, cell_fill(f, i, scale, next));
  const float line = std::max(2.0f, o.h * 0.12f);
  f.c.rect({o.x + f.lo * w - line, o.y - line, (f.hi - f.lo) * w + 2 * line, o.h + 2 * line}, {0, 0, 0, 0}, f.pal.written,
           line);
  f.c.text(f.L.title.x, o.cy(), "block", f.L.label_px, f.pal.muted);
}

// On an enlarged warp's strip: ticks under every cell the code did not mean, the cell the
// described stale read took its value from framed, and an arrow from it to the thread that read
// it (down to its strip in the grid when that thread's warp is the one enlarged).
void draw_race_strip(const MemoryFrame& f) {
  if (!f.race) return;
  const Rect& o = f.L.overview;
  const float w = o.w / float(f.count), tick = std::max(2.0f, o.h * 0.15f);
  for (int c : f.race->wrong[std::size_t(f.stage)])
    if (c < f.count) f.c.rect({o.x + c * w, o.y + o.h, std::max(w, 2.0f), tick}, f.pal.wrong);
  const auto x = described(f);
  // A cell read inside the enlarged warp is marked there, its arrow drawn in the grid.
  if (!x || x->cell >= f.count || x->thread >= f.count || (x->cell >= f.lo && x->cell < f.hi)) return;
  const float line = std::max(2.0f, o.h * 0.12f), cx = o.x + (x->cell + 0.5f) * w;
  const float frame_w = std::max(w, 3.0f) + 2 * line;
  f.c.rect({cx - frame_w / 2, o.y - line, frame_w, o.h + 2 * line}, {0, 0, 0, 0}, f.pal.stale, line);
  // Its name beside the frame, on the strip: right of it where there is room, else left.
  const std::string name = "cell " + std::to_string(x->cell);
  const float px = f.L.label_px, nw = f.c.text_width(name, px) + px * 0.4f;
  const float nx = cx + frame_w / 2 + nw <= o.x + o.w ? cx + frame_w / 2 : cx - frame_w / 2 - nw;
  f.c.rect({nx, o.y, nw, o.h}, f.pal.stale);
  f.c.text(nx + nw / 2, o.cy(), name, px, text_on(f.pal.stale), Align::Center);
  const float head = o.h * 0.5f;
  if (x->thread >= f.lo && x->thread < f.hi) {
    const Rect to = f.L.thread_band(x->thread);
    arrow(f.c, cx, o.y + o.h + line, to.cx() - to.w * 0.2f, to.cy(), line, head, f.pal.stale);
  } else {
    const float y = o.y + o.h + tick + line;
    arrow(f.c, cx, y, o.x + (x->thread + 0.5f) * w, y, line, head, f.pal.stale);
  }
}

// The bank overlay: cells whose warp-wide access conflicted get a badge with the degree.
bool draw_conflicts(const MemoryFrame& f) {
  if (!f.marks || f.t.memory == core::Memory::Global) return false;
  bool any = false;
  const auto degree = core::cell_conflicts(f.s, f.count, core::shared_cell_bytes(f.t));
  const float badge_px = std::max(f.min_px, std::min(f.L.cell_h * 0.3f, f.L.cell_w * 0.28f));
  for (int i = f.lo; i < f.hi; ++i) {
    if (degree[i] < 2) continue;
    any = true;
    const Rect cell = f.L.cell(i);
    const std::string label = std::to_string(degree[i]) + "x";
    const float bw = f.c.text_width(label, badge_px) + badge_px * 0.4f, bh = badge_px * 1.2f;
    f.c.rect({cell.x + cell.w - bw, cell.y, bw, bh}, f.pal.conflict);
    f.c.text(cell.x + cell.w - bw / 2, cell.y + bh / 2, label, badge_px, {1, 1, 1, 1}, Align::Center);
  }
  return any;
}

bool drawn(const MemoryFrame& f, int i) { return i >= f.lo && i < f.hi; }

// Arrows from the cells each thread read to the cell it wrote (up to a legible number); an
// enlarged warp shows those between its own cells.
void draw_access_arrows(const MemoryFrame& f, const parts::Lanes& lanes) {
  if (!f.marks || f.s.accesses.size() > kMaxArrows * (f.zoomed() ? f.count / 32 : 1)) return;
  Color tint = f.pal.read;
  tint.a = 0.85f;
  const float w = parts::arrow_line(f.L);
  for (const auto& a : f.s.accesses) {
    const auto written = std::find_if(a.writes.begin(), a.writes.end(), [](int c) { return c >= 0; });
    if (written == a.writes.end() || !drawn(f, *written)) continue;  // -1: a slot the thread took no part in
    const Rect to = f.L.cell(*written);
    for (int r : a.reads) {
      if (r == *written || !drawn(f, r)) continue;
      const Rect from = f.L.cell(r);
      arrow(f.c, from.x + lanes.left, from.y + lanes.top, to.x + lanes.left, to.y + lanes.top, w, lanes.head, tint);
    }
  }
}

bool has_sources(const core::Stage& s) {
  return std::any_of(s.accesses.begin(), s.accesses.end(), [](const core::Access& a) { return !a.sources.empty(); });
}
// The size of a remote read's mark ("b2") in a cell's top margin.
float source_px(const MemoryLayout& L, float min_px) {
  return std::max(min_px, std::min(L.cell_h * 0.22f, L.cell_w * 0.3f));
}

// Values drawn small enough to leave a cell's top margin to its remote read's mark, where they
// stay readable at that size.
parts::CellTexts leave_room_for_sources(parts::CellTexts text, const core::Stage& s, const MemoryLayout& L,
                                        float min_px) {
  if (!has_sources(s)) return text;
  const float fits = (L.cell_h - 2.4f * source_px(L, min_px)) / 0.8f;  // digits: about 0.8 of the size tall
  if (fits >= min_px && fits < text.px) text.widest *= fits / text.px, text.px = fits;
  return text;
}

// Distributed shared memory: over each register a read filled, the block of the cluster it came
// from ("b2"), in the cell's top margin where the value leaves room. Returns whether any was drawn.
bool draw_remote_sources(const MemoryFrame& f, const parts::CellTexts& text) {
  if (!f.shown.per_thread || f.marks) return false;
  bool any = false;
  const float px = source_px(f.L, f.min_px);
  const float above = (f.L.cell_h - text.px * 0.8f) / 2;
  for (const auto& a : f.s.accesses) {
    if (a.sources.empty() || !drawn(f, a.thread)) continue;
    const Rect cell = f.L.cell(a.thread);
    const std::string label = "b" + std::to_string(a.sources[0]);
    if (px * 0.9f > above || f.c.text_width(label, px) > cell.w * 0.9f) continue;  // no room: no mark, no legend entry
    any = true;
    // On a patch of the background: readable on any value's colour.
    const float x = cell.x + cell.w * 0.06f, cy = cell.y + above / 2 + px * 0.1f, w = f.c.text_width(label, px);
    f.c.rect({x - px * 0.15f, cy - px * 0.6f, w + px * 0.3f, px * 1.2f}, f.pal.background);
    f.c.text(x, cy, label, px, f.pal.text);
  }
  return any;
}

bool is_shuffle_stage(const MemoryFrame& f) {
  return core::is_shuffle(f.s.tag) && f.s.lanes && f.shown.per_thread && f.s.param > 0;
}

// Shuffle stages: each lane's operand came from the lane `offset` above it; a lane past the
// warp's end got its own value back (a square on its cell). Returns whether any did.
bool draw_shuffle(const MemoryFrame& f, const parts::Lanes& lanes) {
  bool own_values = false;
  Color tint = f.pal.read;
  tint.a = 0.85f;
  const float side = std::min(f.L.cell_w, f.L.cell_h);
  const float w = std::max(1.5f, side * 0.05f);
  // A whole big block: warp 0's arrows only, as more would hide the cells.
  const int end = !f.zoomed() && f.count > int(kMaxArrows) ? 32 : f.hi;
  for (int lane : f.s.active) {
    if (lane < f.lo || lane >= end) continue;
    const Rect to = f.L.cell(lane);
    if (const int source = core::shuffle_source(f.t, lane, f.s.param); source >= 0 && source < f.count) {
      if (!drawn(f, source)) continue;  // part of a warp: the source is off the enlarged part
      const Rect from = f.L.cell(source);
      // One row down and to the left (the offset wraps the row): from the source's top edge to
      // the target's bottom edge, across the strip between the rows, clear of both rows' values.
      const bool wraps = from.y > to.y && from.x < to.x;
      arrow(f.c, from.x + lanes.right, wraps ? from.y : from.y + lanes.bottom, to.x + lanes.right,
            wraps ? to.y + to.h : to.y + lanes.bottom, w, side * 0.25f, tint);
    } else {
      own_values = true;
      const float r = side * 0.16f;
      // In the left lane: the right one carries the arrows that pass this cell.
      f.c.rect({to.x + lanes.left - r, to.y + lanes.bottom - r, 2 * r, 2 * r}, {0, 0, 0, 0}, f.pal.read, w);
    }
  }
  return own_values;
}

// Footer: the legend, then where the data came from.
// `badges`: every race mark drawn large carries its badge (none had to be left out).
void draw_footer(const MemoryFrame& f, bool any_conflict, bool shuffle, bool own_values,
                 std::vector<LegendEntry> legend, bool badges) {
  const Palette& pal = f.pal;
  if (f.marks) {
    legend.push_back({pal.written, "written", true});
    legend.push_back({pal.read, "read", true});
  }
  if (f.shown.per_thread && !core::own_kernel(f.t)) {
    legend.push_back({pal.active, "thread worked"});
    legend.push_back({pal.inactive, "thread idle"});
    const std::string darker = "darker: odd rows' " + std::to_string(f.t.geometry.segment_lanes) + " lanes";
    const bool said = std::any_of(legend.begin(), legend.end(), [&](const LegendEntry& e) { return e.name == darker; });
    if (const int k = f.t.geometry.segment_lanes; k > 0 && k < 32 && !said)
      legend.push_back({segment_shade(pal.active), darker});
  }
  if (f.real < f.count) legend.push_back({pal.padding, "past the array's end (identity)"});
  if (any_conflict) legend.push_back({pal.conflict, "Nx: N-way bank conflict"});
  if (f.race) {  // the marks drawn: on the cells drawn large, or on an enlarged warp's strip
    const auto cells = race_cells(f);
    const auto drawn_large = [&](bool CellRace::*mark) {
      return std::any_of(cells.begin() + f.lo, cells.begin() + f.hi, [&](const CellRace& r) { return r.*mark; });
    };
    const bool strip = f.zoomed();
    if (drawn_large(&CellRace::stale) || (strip && described(f)))
      legend.push_back({pal.stale, badges ? "read stale (badge: the value seen)" : "read stale", true});
    if (drawn_large(&CellRace::wrong) || (strip && !f.race->wrong[std::size_t(f.stage)].empty()))
      legend.push_back({pal.wrong, badges ? "not what the code meant (badge: meant)" : "not what the code meant", true});
    if (drawn_large(&CellRace::path)) legend.push_back({pal.path, "the wrong value's path to the result", true});
  }
  if (shuffle)
    legend.push_back({pal.read, own_values ? "arrow: lane the value came from; square: its own value" : "arrow: lane the value came from",
                      true});
  draw_legend(f.c, f.L.legend, legend, f.L.label_px, f.min_px, pal);
  fitted_text(f.c, f.L.source.x, f.L.source.cy(), source_line(f.t), f.L.label_px, f.min_px, f.L.source.w, pal.text);
}

// A race recording whose replay covers this stage's shared memory cell for cell.
bool race_fits(const core::Trace& t, const core::Stage& s) {
  if (!t.race || !s.shared || t.race->meant.size() != t.stages.size() || t.race->wrong.size() != t.stages.size()) return false;
  return std::all_of(t.race->meant.begin(), t.race->meant.end(),
                     [&](const auto& m) { return m.size() == s.shared->size(); }) &&
         int(s.shared->size()) <= parts::kMaxCells;
}

MatrixLayout matrix_in(Canvas& c, const core::Trace& t, const MemoryLayout& L, float reserve, float min_px) {
  const float top = L.caption.y + L.caption.h + L.label_px * 0.3f;
  return layout_matrix(c, t, {L.title.x, top, L.title.w, reserve}, L.label_px, min_px);
}

// The matrix above the shared cells, with the heading of what lies below; its legend entries.
std::vector<LegendEntry> draw_matrix_part(const MemoryFrame& f, float reserve) {
  if (reserve <= 0) return {};
  const MatrixLayout M = matrix_in(f.c, f.t, f.L, reserve, f.min_px);
  auto legend = draw_matrix(f, M);
  const std::string below = f.s.shared ? "'s shared memory after this stage" : "'s registers after this stage, one per thread";
  fitted_text(f.c, M.shared_heading.x, M.shared_heading.cy(), "block " + std::to_string(f.t.trace_block) + below,
              f.L.label_px, f.min_px, M.shared_heading.w, f.pal.text);
  return legend;
}

}  // namespace

float min_text_px(bool presenter, float scale) { return (presenter ? 18.0f : kMinTextPx) * scale; }

std::optional<MatrixLayout> matrix_view_layout(Canvas& c, const core::Trace& t, int stage, int width, int height,
                                               const ViewOptions& options) {
  if (t.stages.empty()) return std::nullopt;
  const parts::Shown shown =
      parts::shown_array(t, t.stages[std::size_t(std::clamp(stage, 0, int(t.stages.size()) - 1))]);
  const float reserve = parts::matrix_space(c, t, shown, parts::shown_count(shown), width, height, options);
  if (reserve <= 0) return std::nullopt;
  return matrix_in(c, t, layout_memory(1, width, height, options.text_scale, options.min_text_px), reserve, options.min_text_px);
}

ViewDrawn draw_memory_view(Canvas& c, const core::Trace& t, int stage, int width, int height,
                           const ViewOptions& options) {
  const Palette pal = options.high_contrast ? high_contrast_palette() : standard_palette();
  c.begin(width, height, pal.background);
  stage = std::clamp(stage, 0, std::max(0, int(t.stages.size()) - 1));
  if (t.stages.empty()) {
    const MemoryLayout L = layout_memory(1, width, height, options.text_scale, options.min_text_px);
    c.text(width / 2.0f, height / 2.0f, "no stages to show", L.title_px, pal.muted, Align::Center);
    c.end();
    return {};
  }
  const core::Stage& s = t.stages[stage];
  const parts::Shown shown = parts::shown_array(t, s);
  const int total = shown.values ? int(shown.values->size()) : 0;
  const int count = std::max(1, std::min(total, parts::kMaxCells));
  const core::Race* race = race_fits(t, s) ? &*t.race : nullptr;
  std::vector<std::string> lines;
  const float matrix = parts::matrix_space(c, t, shown, count, width, height, options);
  float reserve = matrix;  // under the caption: the matrix's window, or the race caption's lines
  if (race) {
    const MemoryLayout text = layout_memory(1, width, height, options.text_scale, options.min_text_px);
    lines = race_lines(c, core::stale_caption(*race, stage, options.stale), options.min_text_px, text.caption.w);
    // One row; of two or three lines, the first takes the stage caption's row.
    reserve += float(std::max<std::size_t>(1, lines.size() - 1)) * text.label_px * 1.5f;
  }
  const MemoryLayout L = parts::choose_layout(c, shown, core::value_type(t), count, width, height, options, reserve);
  // Per-thread arrays of a shared-memory kernel are padded past the input's end.
  // A matrix kernel's cell i is thread i's, not element i: nothing there is past an end.
  // A kernel of your own reads the input its own way: which cells lie past it is not known.
  const bool padded = shown.per_thread && t.memory != core::Memory::Global && t.rows == 0 && !core::own_kernel(t);
  const MemoryFrame f{
      {c, t, stage, L, pal, options, options.min_text_px},
      s,
      shown,
      total,
      count,
      padded ? int(t.input.size()) : count,
      s.shared.has_value() && core::records_work(t),  // a GPU run of a kernel of your own records no accesses
      L.first,
      L.first + L.block,
      race,
      options.stale};

  draw_header(f, stage, lines.size() < 2);
  if (race) draw_race_caption(f, lines);
  const CellMarks marks = mark_cells(f);
  const std::size_t scaled = padded ? t.input.size() : std::size_t(total);
  const Scale scale = value_scale(shown.values, scaled);
  const Blend next = blend_target(f, stage, scaled, scale, options.blend);
  const float mark = std::max(1.5f, std::min(L.cell_w, L.cell_h) * 0.09f);
  if (f.zoomed()) draw_overview(f, scale, next);
  draw_warp_labels(f);
  // Values leave the arrows a lane each side where they stay readable so; else they keep the
  // cell (drawn, never dropped) and the arrows take the gaps between the columns.
  parts::CellTexts fitted = parts::cell_texts(c, L, shown, core::value_type(t), f.lo, f.hi, f.min_px, true);
  if (fitted.px < f.min_px) fitted = parts::cell_texts(c, L, shown, core::value_type(t), f.lo, f.hi, f.min_px, false);
  const parts::CellTexts text =
      parts::leave_room_for_arrows(leave_room_for_sources(std::move(fitted), s, L, f.min_px), L, f.min_px, mark);
  const parts::Lanes lanes = parts::arrow_lanes(L, text, shown.values != nullptr, f.min_px, mark);
  const bool badges = draw_cells(f, marks, scale, next, mark, text);
  const bool any_conflict = draw_conflicts(f);
  draw_access_arrows(f, lanes);
  draw_stale_arrow(f);
  if (f.zoomed()) draw_race_strip(f);
  const bool shuffle = is_shuffle_stage(f);
  const bool own_values = shuffle && draw_shuffle(f, lanes);
  std::vector<LegendEntry> legend = draw_matrix_part(f, matrix);
  if (draw_remote_sources(f, text)) legend.push_back({pal.text, "bN: read from block N of the cluster (DSMEM)", false});
  draw_footer(f, any_conflict, shuffle, own_values, std::move(legend), badges);
  c.end();
  if (!f.zoomed()) return ViewDrawn{0, 0, L.cols};
  return ViewDrawn{(count + 31) / 32, f.lo / 32, L.cols, warp_parts(count, f.lo / 32, L.span), (f.lo % 32) / L.span};
}

}  // namespace rl::render
