#include "view_parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "../core/counters.h"
#include "../core/facts.h"

namespace rl::render {

// Cells are narrow: floats get three significant digits, ints their digits.
std::string short_value(double v, core::DType type, int digits) {
  if (type == core::DType::Int || !std::isfinite(v)) return core::format_value(v, type);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

bool is_active(const core::Stage& s, int thread) {
  return std::find(s.active.begin(), s.active.end(), thread) != s.active.end();
}

// The colour scale spans the shown stage's values: sums grow stage by stage, and a scale
// fixed to the final total would paint the early stages in one colour.
Scale value_scale(const std::vector<double>* values, std::size_t real) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  if (values) {
    for (std::size_t i = 0; i < values->size() && i < real; ++i) {
      const double v = (*values)[i];
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo > hi) return {};
  return {lo, hi};
}

// A line from (x0, y0) to (x1, y1) with a head of two short strokes at its end.
void arrow(Canvas& c, float x0, float y0, float x1, float y1, float width, float head, Color color) {
  c.line(x0, y0, x1, y1, width, color);
  const float dx = x1 - x0, dy = y1 - y0, len = std::max(1.0f, std::sqrt(dx * dx + dy * dy));
  const float ux = dx / len, uy = dy / len;
  c.line(x1, y1, x1 - head * (ux - uy * 0.6f), y1 - head * (uy + ux * 0.6f), width, color);
  c.line(x1, y1, x1 - head * (ux + uy * 0.6f), y1 - head * (uy - ux * 0.6f), width, color);
}

float fit_px(Canvas& c, const std::string& text, float px, float width, float min_px) {
  const float w = c.text_width(text, px);
  return std::max(min_px, w > width ? px * width / w : px);
}

void fitted_text(Canvas& c, float x, float cy, const std::string& text, float px, float min_px, float width, Color color) {
  px = fit_px(c, text, px, width, min_px);
  std::string shown = text;
  while (shown.size() > 3 && c.text_width(shown, px) > width) shown = shown.substr(0, shown.size() - 4) + "...";
  c.text(x, cy, shown, px, color);
}

namespace {

float entry_width(Canvas& c, const LegendEntry& e, float px) { return px * 1.4f + c.text_width(e.name, px) + px * 1.5f; }

}  // namespace

void draw_legend(Canvas& c, const Rect& area, const std::vector<LegendEntry>& entries, float px, float min_px,
                 const Palette& pal) {
  const auto total_at = [&](float size) {
    float w = 0;
    for (const auto& e : entries) w += entry_width(c, e, size);
    return w;
  };
  const float wide = total_at(px);
  if (wide > area.w) px = std::max(min_px, px * area.w / wide);
  const bool two = total_at(px) > area.w;
  const float line = area.h / 2;
  // One line sits on the lower half, next to the source line; a second line starts on the upper.
  float x = area.x, cy = two ? area.y + line / 2 : area.y + line * 1.5f;
  for (const auto& e : entries) {
    if (two && x > area.x && x + entry_width(c, e, px) > area.x + area.w && cy < area.y + line) {
      x = area.x;
      cy += line;
    }
    c.rect({x, cy - px / 2, px, px}, e.outline ? pal.background : e.color, e.color, e.outline ? std::max(1.5f, px * 0.2f) : 0);
    fitted_text(c, x + px * 1.4f, cy, e.name, px, px, area.x + area.w - x - px * 1.4f, pal.text);  // cut if alone too long
    x += entry_width(c, e, px);
  }
}

void draw_stage_title(Canvas& c, const core::Trace& t, int stage, const char* view, const MemoryLayout& L,
                      const Palette& pal, float min_px) {
  const std::string& label = t.stages[std::size_t(stage)].label;
  const std::string at = "stage " + std::to_string(stage) + " of " + std::to_string(t.stages.size() - 1) + ": " + label;
  // Whole where it fits; else without the view's name (the buttons under the view say it), then
  // without the stage's number (the player shows it), then without the algorithm's (compare
  // mode's two titles need the names more): at one size, stage after stage.
  const std::string tries[] = {t.algorithm + "  -  " + at + (view ? std::string("  (") + view + ")" : ""),
                               t.algorithm + "  -  " + at, t.algorithm + "  -  " + label, at};
  for (const std::string& title : tries)
    if (c.text_width(title, L.title_px) <= L.title.w)
      return c.text(L.title.x, L.title.cy(), title, L.title_px, pal.text);
  fitted_text(c, L.title.x, L.title.cy(), tries[2], L.title_px, min_px, L.title.w, pal.text);
}

namespace {

// The hardware's lines under the view, where they leave the view at least half the height it
// has without them (presenter mode in an 800x600 window drew them over the legend); else none.
// Never the figures alone: without their context they would read as this run's.
core::CountedLines counted_kept(const MemoryLayout& L, std::string_view algorithm, const char* view, float min_px) {
  const core::CountedLines counted = core::shipped_counted_lines(algorithm, view);
  if (counted.empty()) return counted;
  const float px = counted_px(L, min_px);
  const int rows = wrapped_rows(counted.context, px, L.caption.w) + wrapped_rows(counted.figures, px, L.caption.w);
  return float(rows) * px * 1.3f <= free_area(L).h / 2 ? counted : core::CountedLines{};
}

}  // namespace

Rect view_frame(Canvas& c, const core::Trace& t, int stage, const char* view, const MemoryLayout& L, const Palette& pal,
                const std::string& note, float min_px) {
  draw_stage_title(c, t, stage, view, L, pal, min_px);
  std::string caption = core::stage_caption(t, stage);
  if (!note.empty()) caption = note + "  |  " + caption;
  fitted_text(c, L.caption.x, L.caption.cy(), caption, L.label_px, min_px, L.caption.w, pal.muted);
  fitted_text(c, L.source.x, L.source.cy(), source_line(t), L.label_px, min_px, L.source.w, pal.text);
  const Rect area = view_area(L, t.algorithm, view, min_px);
  // Beside the trace's one block, what the hardware counted over a whole launch, where it did.
  const core::CountedLines counted = counted_kept(L, t.algorithm, view, min_px);
  if (counted.empty()) return area;
  // Each of the two texts wrapped at words into the rows view_area kept for it (a compare view's
  // half of the screen takes two rows each, where "..." had cut the figures).
  const float px = counted_px(L, min_px), line = px * 1.3f;
  float y = area.y + area.h + line * 0.6f;
  for (const auto& [text, color] : {std::pair{&counted.context, pal.muted}, std::pair{&counted.figures, pal.text}}) {
    const int rows = wrapped_rows(*text, px, L.caption.w);
    std::string rest = *text;
    for (int r = 0; r < rows; ++r, y += line) {
      std::size_t cut = rest.size();  // the last space that leaves the row's words inside the width
      while (r + 1 < rows && cut != std::string::npos && cut > 0 && c.text_width(rest.substr(0, cut), px) > L.caption.w)
        cut = rest.rfind(' ', cut - 1);
      if (cut == std::string::npos || cut == 0) cut = rest.size();
      fitted_text(c, L.caption.x, y, rest.substr(0, cut), px, min_px, L.caption.w, color);
      rest = cut < rest.size() ? rest.substr(cut + 1) : "";
    }
  }
  return area;
}

float counted_px(const MemoryLayout& L, float min_px) { return std::max(min_px, L.label_px * 0.9f); }

int wrapped_rows(const std::string& text, float px, float width) { return measure_text(text, px) > width ? 2 : 1; }

Rect view_area(const MemoryLayout& L, std::string_view algorithm, const char* view, float min_px) {
  Rect area = free_area(L);
  const core::CountedLines counted = counted_kept(L, algorithm, view, min_px);
  if (counted.empty()) return area;
  const float px = counted_px(L, min_px);
  const int rows = wrapped_rows(counted.context, px, L.caption.w) + wrapped_rows(counted.figures, px, L.caption.w);
  area.h = std::max(1.0f, area.h - float(rows) * px * 1.3f);  // the lines of counts under it
  return area;
}

void view_message(Canvas& c, const Rect& area, const std::string& text, float px, const Palette& pal) {
  c.text(area.cx(), area.cy(), text, px, pal.muted, Align::Center);
}

std::string source_line(const core::Trace& t) {
  // A race recording may come from a file made elsewhere: its date says when it was run.
  if (t.backend == "cuda") return "GPU run: " + t.device + (t.race && !t.race->date.empty() ? ", recorded " + t.race->date : "");
  const bool says_so = t.device.find("not a GPU") != std::string::npos || t.device.find("never launched") != std::string::npos;
  return says_so ? t.device : t.device + " (not a GPU run)";
}

Color segment_shade(Color c) { return {c.r * 0.6f, c.g * 0.6f, c.b * 0.6f, c.a}; }

Color thread_band_color(const core::Trace& trace, int thread, bool worked, const Palette& pal) {
  const Color c = worked ? pal.active : pal.inactive;
  const int k = trace.geometry.segment_lanes;
  return k > 0 && k < 32 && (thread / k) % 2 == 1 ? segment_shade(c) : c;
}

}  // namespace rl::render
