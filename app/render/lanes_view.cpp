#include "lanes_view.h"

#include <algorithm>
#include <string>
#include <vector>

#include "../core/facts.h"
#include "view_parts.h"

namespace rl::render {
namespace {

// One warp's 32 lanes, enlarged: 32, 16 or 8 a row, whichever prints the values largest. A band above each row and
// below the last holds the shuffle's arrows: arches inside a row, straight lines to the row above, and (8 a row, offset
// 16) a path through the gap beside the column to the row two above.
struct LaneGrid {
  Rect area;
  int cols = 32;
  float cell_w = 0, cell_h = 0, gap = 0, band = 0;
  float head_h = 0, tab_w = 0;  // the lane number: in a header over the value, or (8 a row) a tab left of it
  float lane_px = 0, value_px = 0;
  float top = 0;
  int rows() const { return 32 / cols; }
  float row_y(int row) const { return top + band + row * (cell_h + band); }
  Rect cell(int lane) const { return {area.x + (lane % cols) * (cell_w + gap), row_y(lane / cols), cell_w, cell_h}; }
};

// The size at which the widest of `values` fits a cell `w` wide and `h` high (its body), with
// `digits` significant digits for floats.
float value_px_for(Canvas& c, const core::Trace& t, const std::vector<double>& values, float w, float h,
                   int digits = 3) {
  float widest = 0;
  for (double v : values) widest = std::max(widest, c.text_width(short_value(v, core::value_type(t), digits), 20));
  const float px = h * 0.65f;
  return widest > 0 ? std::min(px, 20 * w * 0.9f / widest) : px;
}

LaneGrid lane_grid_of(Canvas& c, const core::Trace& t, const std::vector<double>& warp_values, const Rect& area,
                      float lane_px, int cols) {
  LaneGrid g;
  g.area = area;
  g.cols = cols;
  g.gap = std::max(2.0f, area.w * (cols == 8 ? 0.012f : 0.004f));
  g.cell_w = (area.w - (cols - 1) * g.gap) / cols;
  const float band_k = cols == 32 ? 0.8f : cols == 16 ? 0.55f : 0.4f;  // bands against a cell's height
  g.cell_h =
      std::min(area.h / (float(g.rows()) + float(g.rows() + 1) * band_k), std::max(g.cell_w * 1.3f, lane_px * 3.4f));
  g.band = g.cell_h * band_k;
  // The lane number grows with a large cell (a third of its value's size at least), never below lane_px.
  if (cols == 8) {
    g.lane_px = std::max(lane_px, std::min(g.cell_h * 0.3f, g.cell_w * 0.2f));
    g.tab_w = c.text_width("31", g.lane_px) * 1.5f;
  } else {
    g.lane_px = std::max(lane_px, std::min(g.cell_h * 0.22f, g.cell_w * 0.3f));
    g.head_h = g.lane_px * 1.35f;
  }
  g.value_px = value_px_for(c, t, warp_values, g.cell_w - g.tab_w, g.cell_h - g.head_h);
  g.top = area.y + (area.h - (g.rows() * g.cell_h + float(g.rows() + 1) * g.band)) / 2;
  return g;
}

LaneGrid lane_grid(Canvas& c, const core::Trace& t, const std::vector<double>& warp_values, const Rect& area,
                   float label_px, float min_px) {
  const float lane_px = std::max(min_px, label_px * 0.85f);
  // The row width that prints the values largest (a wider row wins a tie: fewer arrows cross rows).
  LaneGrid best = lane_grid_of(c, t, warp_values, area, lane_px, 32);
  for (int cols : {16, 8}) {
    const LaneGrid g = lane_grid_of(c, t, warp_values, area, lane_px, cols);
    if (g.value_px > best.value_px * 1.1f) best = g;
  }
  // A few long floats ("-0.00925") need not hide the rest: those few drop digits.
  if (best.value_px < min_px &&
      value_px_for(c, t, warp_values, best.cell_w - best.tab_w, best.cell_h - best.head_h, 1) >= min_px)
    best.value_px = min_px;
  return best;
}

// The block's warps side by side, a thin cell a lane coloured by value, the enlarged warp framed.
void draw_overview(Canvas& c, const core::Trace& t, const std::vector<double>& v, const Scale& scale, const Rect& strip,
                   int warp, const Palette& pal) {
  const int lanes = (t.block + 31) / 32 * 32;
  const float w = strip.w / float(lanes);
  for (int i = 0; i < lanes; ++i) {
    const bool real = i < t.block && i < int(v.size());
    c.rect({strip.x + i * w, strip.y, w, strip.h}, real ? value_color(scale.at(v[std::size_t(i)])) : pal.padding);
  }
  c.rect({strip.x + warp * 32 * w - 2, strip.y - 2, 32 * w + 4, strip.h + 4}, {0, 0, 0, 0}, pal.text, 2);
}

// What one shuffle step draws: for each receiving lane, an arrow from the lane it read. Arrows
// leave and reach cells at their edges, never over their numbers.
struct ShuffleArrows {
  Canvas& c;
  const LaneGrid& g;
  float width, head;
  Color tint;

  void operator()(int from, int to) const {
    const int rows_up = from / g.cols - to / g.cols;
    if (rows_up == 0) return arch(from, to);
    const Rect a = g.cell(from), b = g.cell(to);
    if (rows_up == 1) return arrow(c, a.cx(), a.y, b.cx(), b.y + b.h, width, head, tint);
    // Two rows up: through the gap right of the column, past the row between.
    const float x = a.x + a.w + g.gap / 2, y0 = a.y - g.band / 2, y1 = b.y + b.h + g.band / 2;
    c.line(a.cx(), a.y, a.cx(), y0, width, tint);
    c.line(a.cx(), y0, x, y0, width, tint);
    c.line(x, y0, x, y1, width, tint);
    c.line(x, y1, b.cx(), y1, width, tint);
    arrow(c, b.cx(), y1, b.cx(), b.y + b.h, width, head, tint);
  }
  // Same row: an arch in the band above it (below the last of several rows, where that band is free).
  void arch(int from, int to) const {
    const Rect a = g.cell(from), b = g.cell(to);
    const bool below = g.rows() > 1 && to / g.cols == g.rows() - 1;
    const float edge = below ? a.y + a.h : a.y, span = std::abs(a.cx() - b.cx()) / g.area.w;
    const float peak = edge + (below ? 1 : -1) * g.band * (0.3f + 0.6f * std::min(1.0f, span * 2));
    c.line(a.cx(), edge, (a.cx() + b.cx()) / 2, peak, width, tint);
    arrow(c, (a.cx() + b.cx()) / 2, peak, b.cx(), edge, width, head, tint);
  }
};

void draw_cell(Canvas& c, const LaneGrid& g, const core::Trace& t, int lane, int thread, double value,
               const Scale& scale, bool active, bool values, const Palette& pal) {
  const Rect r = g.cell(lane);
  if (thread >= t.block) {
    c.rect(r, pal.padding);
    return;
  }
  const Color head = active ? pal.active : pal.inactive, fill = value_color(scale.at(value));
  const Rect tab = g.tab_w > 0 ? Rect{r.x, r.y, g.tab_w, r.h} : Rect{r.x, r.y, r.w, g.head_h};
  const Rect body{r.x + g.tab_w, r.y + g.head_h, r.w - g.tab_w, r.h - g.head_h};
  c.rect(tab, head);
  c.rect(body, fill);
  c.text(tab.cx(), tab.cy(), std::to_string(lane), g.lane_px, text_on(head), Align::Center);
  std::string text = short_value(value, core::value_type(t));
  for (int digits = 2; digits > 0 && c.text_width(text, g.value_px) > body.w * 0.92f; --digits)
    text = short_value(value, core::value_type(t), digits);
  if (values) c.text(body.cx(), body.cy(), text, g.value_px, text_on(fill), Align::Center);
}

std::string warp_note(const core::Trace& t, int warp, int warps) {
  if (warps <= 1) return "";
  const int first = warp * 32, last = std::min(t.block, first + 32) - 1;
  return "warp " + std::to_string(warp) + " of " + std::to_string(warps) + " (threads " + std::to_string(first) + "-" +
         std::to_string(last) + "), enlarged";
}

}  // namespace

ViewDrawn draw_lanes(const ViewContext& ctx) {
  auto& [c, t, stage, L, pal, options, min_px] = ctx;
  const core::Stage& s = t.stages[stage];
  const int warps = std::max(1, (t.block + 31) / 32), warp = std::clamp(options.warp, 0, warps - 1);
  const ViewDrawn drawn = warps > 1 ? ViewDrawn{warps, warp, 32} : ViewDrawn{};
  if (!s.lanes) {
    const Rect area = view_frame(c, t, stage, "warp lanes", L, pal, "", min_px);
    view_message(c, area, "this stage keeps its values in shared memory: see the memory view", L.label_px * 1.2f, pal);
    return drawn;
  }
  const auto& v = *s.lanes;
  // The layout fits the warp's values at every stage: it keeps its shape while the student steps.
  std::vector<double> mine;
  for (const core::Stage& any : t.stages)
    for (int i = warp * 32; any.lanes && i < warp * 32 + 32 && i < t.block && i < int(any.lanes->size()); ++i)
      mine.push_back((*any.lanes)[std::size_t(i)]);
  Rect area = free_area(L);
  const float strip_h = warps > 1 ? std::max(8.0f, area.h * 0.05f) : 0;
  area.y += strip_h * 2, area.h -= strip_h * 2;
  const LaneGrid g = lane_grid(c, t, mine, area, L.label_px, min_px);
  const bool values = g.value_px >= min_px;
  std::string note = warp_note(t, warp, warps);
  if (!values) note += std::string(note.empty() ? "" : "; ") + "register values too wide to print at this size";
  view_frame(c, t, stage, "warp lanes", L, pal, note, min_px);
  const Scale scale = value_scale(&v, std::min(v.size(), std::size_t(t.block)));
  if (warps > 1) draw_overview(c, t, v, scale, {area.x, area.y - strip_h * 1.6f, area.w, strip_h}, warp, pal);
  const bool shuffle = core::is_shuffle(s.tag) && s.param > 0;
  Color tint = pal.read;
  tint.a = 0.9f;
  const ShuffleArrows arrows{c, g, std::max(1.5f, g.cell_w * 0.04f), std::min(g.cell_w, g.band) * 0.25f, tint};
  bool own = false;
  for (int lane = 0; lane < 32; ++lane) {
    const int th = warp * 32 + lane;
    const bool real = th < t.block && th < int(v.size());
    draw_cell(c, g, t, lane, real ? th : t.block, real ? v[std::size_t(th)] : 0, scale, real && is_active(s, th),
              values, pal);
    if (!shuffle || !real || !is_active(s, th)) continue;
    const int source = core::shuffle_source(t, th, s.param);
    if (source < 0) {  // __shfl_down_sync hands it its own value
      own = true;
      const Rect r = g.cell(lane);
      c.rect({r.x - 1, r.y - 1, r.w + 2, r.h + 2}, {0, 0, 0, 0}, pal.read, arrows.width * 1.5f);
    } else {
      arrows(source - warp * 32, lane);
    }
  }
  std::vector<LegendEntry> lg{{pal.active, !core::own_kernel(t) ? "lane worked" : "lane called rl_lanes"},
                              {pal.inactive, !core::own_kernel(t) ? "lane idle" : "lane did not"}};
  if (shuffle) lg.push_back({pal.read, "arrow: from lane + " + std::to_string(s.param), true});
  const int width = t.geometry.segment_lanes;  // short rows: a row every `width` lanes
  const std::string within = width > 0 && width < 32 ? " in its row's " + std::to_string(width) + " lanes" : "";
  if (own) lg.push_back({pal.read, "framed: no lane + " + std::to_string(s.param) + within + ", own value back", true});
  draw_legend(c, L.legend, lg, L.label_px, min_px, pal);
  return drawn;
}

}  // namespace rl::render
