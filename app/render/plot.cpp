#include "plot.h"

#include <algorithm>
#include <utility>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rl::render {
namespace {

double xval(const PlotFrame& f, double x) { return f.log2_x ? std::log2(std::max(x, 1e-300)) : x; }

std::string short_number(double v) {
  char buf[32];
  if (std::fabs(v) >= 1000) std::snprintf(buf, sizeof buf, "%.0f", v);
  else std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

// "Nice" steps: 1, 2 or 5 times a power of ten, about `count` of them over the range.
double nice_step(double range, int count) {
  const double raw = range / std::max(count, 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

// Multiples of `step` from lo to hi (and one a rounding past hi), at most 64: a range of 1e-310
// with an absolute slack of 1e-9 above it asked for 10^301 ticks (fuzz_views, issue 48).
std::vector<double> tick_values(double lo, double hi, double step) {
  std::vector<double> out;
  if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(step) || step <= 0) return out;
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-6 && out.size() < 64; v += step) {
    out.push_back(v);
    if (v + step == v) break;  // a step lost in v's rounding would never move it
  }
  return out;
}

}  // namespace

float PlotFrame::px(double x) const {
  const double v = log2_x ? std::log2(std::max(x, 1e-300)) : x;
  return area.x + float((v - x0) / (x1 - x0)) * area.w;
}

float PlotFrame::py(double y) const { return area.y + area.h - float((y - y0) / (y1 - y0)) * area.h; }

Rect PlotFrame::legend_row(int i) const {
  const float h = label_px * 1.45f;
  if (i >= 0 && std::size_t(i) < row_y.size()) return {legend.x, row_y[std::size_t(i)] - h / 2, legend.w, h};
  return {legend.x, legend.y + i * h, legend.w, h};
}

namespace {

// Legend rows at the right ends of the shown lines, in the order the lines end from the top,
// pushed apart by a row's height and kept inside the legend box; the hidden series' rows after.
std::vector<float> end_rows(const PlotSpec& spec, const PlotFrame& f) {
  const float h = f.label_px * 1.45f;
  std::vector<std::pair<float, int>> shown;
  std::vector<int> hidden;
  for (int i = 0; i < int(spec.series.size()); ++i) {
    const auto& s = spec.series[std::size_t(i)];
    if (s.visible && !s.points.empty())
      shown.push_back({f.py(s.points.back().second), i});
    else
      hidden.push_back(i);
  }
  // The hidden rows that fit under the shown ones; the rest lie past the box, not drawn.
  const auto fit = std::size_t(std::max(0.0f, std::floor(f.legend.h / h)));
  if (shown.size() > fit) return {};  // no room: rows in order
  const std::size_t under = std::min(hidden.size(), fit - shown.size());
  const float top = f.legend.y + h / 2, bottom = f.legend.y + f.legend.h - h * (float(under) + 0.5f);
  std::sort(shown.begin(), shown.end());
  for (std::size_t k = 0; k < shown.size(); ++k)
    shown[k].first = std::clamp(std::max(shown[k].first, k ? shown[k - 1].first + h : top), top, bottom);
  for (std::size_t k = shown.size(); k-- > 1;) shown[k - 1].first = std::min(shown[k - 1].first, shown[k].first - h);
  std::vector<float> y(spec.series.size());
  for (const auto& [at, i] : shown) y[std::size_t(i)] = at;
  for (std::size_t k = 0; k < hidden.size(); ++k) y[std::size_t(hidden[k])] = bottom + h * float(k + 1);
  return y;
}

}  // namespace

PlotFrame plot_frame(const PlotSpec& spec, int width, int height, float min_px) {
  PlotFrame f;
  f.log2_x = spec.log2_x;
  const float w = float(width), h = float(height);
  f.title_px = std::max(std::clamp(std::min(h * 0.04f, w * 0.022f), 9.0f, 36.0f), min_px * 1.2f);
  f.label_px = std::max(std::clamp(std::min(h * 0.026f, w * 0.013f), 8.0f, 24.0f), min_px);
  const float margin = std::max(4.0f, 0.015f * std::min(w, h));
  // Wide enough for the longest name (the font is monospaced: about 0.6 em a character) after
  // its sample, at most 40 % of the width.
  std::size_t longest = 0;
  for (const auto& s : spec.series) longest = std::max(longest, s.name.size());
  const float legend_w = std::min(std::max(f.label_px * 17, f.label_px * (2.4f + 0.62f * float(longest))), w * 0.4f);
  const float left = margin + f.label_px * 5.5f;
  const std::size_t cut = spec.title.rfind(kTitleBreak);  // bench_chart's last joint: a device name may hold one
  if (cut != std::string::npos && cut + kTitleBreak.size() < spec.title.size() &&
      measure_text(spec.title, std::max(6.0f, min_px)) > w - left - 8)
    f.title_lines = 2;
  f.area = {left, margin + f.title_px * (1.6f + 1.25f * float(f.title_lines - 1)), 0, 0};
  f.area.w = std::max(10.0f, w - f.area.x - legend_w - 2 * margin);
  f.area.h = std::max(10.0f, h - f.area.y - margin - f.label_px * 3.2f);
  f.legend = {f.area.x + f.area.w + margin, f.area.y, legend_w, f.area.h};

  double xmin = std::numeric_limits<double>::infinity(), xmax = -xmin, ymax = 0;
  for (const auto& s : spec.series)
    for (const auto& [x, y] : s.points) {
      xmin = std::min(xmin, xval(f, x));
      xmax = std::max(xmax, xval(f, x));
      if (s.visible) ymax = std::max(ymax, y);
    }
  for (const auto& l : spec.lines) ymax = std::max(ymax, l.y);
  if (!(xmin <= xmax)) xmin = 0, xmax = 1;
  if (xmin == xmax) xmin -= 0.5, xmax += 0.5;
  f.x0 = xmin - (xmax - xmin) * 0.03;
  f.x1 = xmax + (xmax - xmin) * 0.03;
  f.y0 = 0;
  f.y1 = ymax > 0 ? ymax * 1.08 : 1;
  f.row_y = end_rows(spec, f);
  return f;
}

std::vector<Tick> x_ticks(const PlotFrame& f, float label_w) {
  std::vector<Tick> out;
  if (f.log2_x) {
    const int first = int(std::ceil(f.x0)), last = int(std::floor(f.x1));
    int step = std::max(1, (last - first + 1) / 14 + 1);
    // Labels a label's width and a half apart at least: "2^162^172^18" was three run together.
    const float per_power = f.area.w / float(std::max(f.x1 - f.x0, 1e-9));
    while (label_w > 0 && per_power * float(step) < label_w * 1.5f && step < last - first + 1) ++step;
    for (int k = first; k <= last; k += step) out.push_back({std::ldexp(1.0, k), "2^" + std::to_string(k)});
    return out;
  }
  for (double v : tick_values(f.x0, f.x1, nice_step(f.x1 - f.x0, 8))) out.push_back({v, short_number(v)});
  return out;
}

std::vector<Tick> y_ticks(const PlotFrame& f) {
  std::vector<Tick> out;
  for (double v : tick_values(f.y0, f.y1, nice_step(f.y1 - f.y0, 6))) out.push_back({v, short_number(v)});
  return out;
}

std::optional<Hit> hit_point(const PlotSpec& spec, const PlotFrame& f, float mx, float my, float radius) {
  std::optional<Hit> best;
  float best_d = radius * radius;
  for (int s = 0; s < int(spec.series.size()); ++s) {
    if (!spec.series[s].visible) continue;
    for (int i = 0; i < int(spec.series[s].points.size()); ++i) {
      const auto& [x, y] = spec.series[s].points[i];
      const float dx = f.px(x) - mx, dy = f.py(y) - my, d = dx * dx + dy * dy;
      if (d <= best_d) best_d = d, best = Hit{s, i};
    }
  }
  return best;
}

std::optional<int> hit_legend(const PlotSpec& spec, const PlotFrame& f, float mx, float my) {
  for (int i = 0; i < int(spec.series.size()); ++i) {
    const Rect r = f.legend_row(i);
    if (mx >= r.x && mx < r.x + r.w && my >= r.y && my < r.y + r.h) return i;
  }
  return std::nullopt;
}

PlotStyle plot_style(bool high_contrast) {
  if (high_contrast) return {{0, 0, 0, 1}, {1, 1, 1, 1}, {0.8f, 0.8f, 0.8f, 1}, {0.35f, 0.35f, 0.35f, 1}};
  return {{0.106f, 0.114f, 0.137f, 1}, {0.93f, 0.93f, 0.93f, 1}, {0.6f, 0.63f, 0.65f, 1}, {0.23f, 0.24f, 0.27f, 1}};
}

namespace {

void dashed_line(Canvas& c, float x0, float y0, float x1, float y1, float width, Color color) {
  const float len = std::hypot(x1 - x0, y1 - y0);
  if (len <= 0) return;
  const float dx = (x1 - x0) / len, dy = (y1 - y0) / len;
  for (float t = 0; t < len; t += 12) {
    const float e = std::min(t + 7, len);
    c.line(x0 + dx * t, y0 + dy * t, x0 + dx * e, y0 + dy * e, width, color);
  }
}

void marker(Canvas& c, float x, float y, float r, Color color, bool hollow) {
  if (hollow) c.rect({x - r, y - r, 2 * r, 2 * r}, {0, 0, 0, 0}, color, std::max(1.5f, r * 0.5f));
  else c.rect({x - r, y - r, 2 * r, 2 * r}, color);
}

// The title's size: its own where it fits `room`, else the largest whole size that does (the
// canvas draws whole sizes: a fraction that rounded up ran the title past the chart's edge),
// but not below min_px.
float title_size(Canvas& c, const std::string& title, float px, float room, float min_px) {
  float size = px;
  while (size > std::max(6.0f, min_px) && c.text_width(title, size) > room) size = std::round(size) - 1;
  return std::max(size, min_px);
}

}  // namespace

void draw_plot(Canvas& c, const PlotSpec& spec, int width, int height, std::optional<Hit> hover, bool high_contrast,
               float min_px) {
  const PlotStyle st = plot_style(high_contrast);
  const PlotFrame f = plot_frame(spec, width, height, min_px);
  c.begin(width, height, st.background);
  const float room = float(width) - f.area.x - 8;
  if (f.title_lines == 2) {  // before the date, as bench_chart joins them
    const std::size_t cut = spec.title.rfind(kTitleBreak);
    const std::string head = spec.title.substr(0, cut), date = spec.title.substr(cut + kTitleBreak.size());
    const float px =
        std::min(title_size(c, head, f.title_px, room, min_px), title_size(c, date, f.title_px, room, min_px));
    c.text(f.area.x, f.area.y - f.title_px * 2.15f, head, px, st.text);
    c.text(f.area.x, f.area.y - f.title_px * 0.9f, date, px, st.text);
  } else {
    c.text(f.area.x, f.area.y - f.title_px * 0.9f, spec.title, title_size(c, spec.title, f.title_px, room, min_px),
           st.text);
  }
  for (const Tick& t : y_ticks(f)) {
    const float y = f.py(t.value);
    c.line(f.area.x, y, f.area.x + f.area.w, y, 1, st.grid);
    c.text(f.area.x - f.label_px * 0.5f, y, t.label, f.label_px, st.muted, Align::Right);
  }
  for (const Tick& t : x_ticks(f, c.text_width("2^28", f.label_px))) {
    const float x = f.px(t.value);
    c.line(x, f.area.y, x, f.area.y + f.area.h, 1, st.grid);
    c.text(x, f.area.y + f.area.h + f.label_px, t.label, f.label_px, st.muted, Align::Center);
  }
  c.text(f.area.x + f.area.w / 2, f.area.y + f.area.h + f.label_px * 2.4f, spec.x_label, f.label_px, st.text, Align::Center);
  c.text(f.area.x - f.label_px * 5.2f, f.area.y - f.title_px * 0.2f, spec.y_label, f.label_px, st.text);
  for (const auto& l : spec.lines) {
    const float y = f.py(l.y);
    dashed_line(c, f.area.x, y, f.area.x + f.area.w, y, 2, l.color);
    c.text(f.area.x + f.area.w - 4, y - f.label_px * 0.7f, l.name, f.label_px, l.color, Align::Right);
  }
  for (const auto& s : spec.series) {
    if (!s.visible) continue;
    const auto apart = [&](std::size_t i) { return i < s.apart.size() && s.apart[i]; };
    for (std::size_t i = 0, prev = s.points.size(); i < s.points.size(); ++i) {  // prev: the last joined point
      if (apart(i)) continue;
      const std::size_t from = std::exchange(prev, i);
      if (from == s.points.size()) continue;
      const float x0 = f.px(s.points[from].first), y0 = f.py(s.points[from].second);
      const float x1 = f.px(s.points[i].first), y1 = f.py(s.points[i].second);
      if (s.dashed) dashed_line(c, x0, y0, x1, y1, s.width, s.color);
      else c.line(x0, y0, x1, y1, s.width, s.color);
    }
    for (const auto& [x, y] : s.points) marker(c, f.px(x), f.py(y), s.width + 1.5f, s.color, s.dashed);
  }
  c.rect({f.area.x, f.area.y, f.area.w, f.area.h}, {0, 0, 0, 0}, st.muted, 1);
  for (int i = 0; i < int(spec.series.size()); ++i) {
    const auto& s = spec.series[i];
    const Rect r = f.legend_row(i);
    if (r.y + r.h > f.legend.y + f.legend.h + 1) continue;   // past the box: no room for it
    if (!f.row_y.empty() && s.visible && !s.points.empty())  // a leader from the line's end to its name
      c.line(f.px(s.points.back().first), f.py(s.points.back().second), r.x, r.cy(), 1, s.color);
    const Color col = s.visible ? s.color : st.grid;
    if (s.dashed) {  // a dashed sample with a hollow marker, as the series is drawn
      dashed_line(c, r.x, r.cy(), r.x + f.label_px * 1.4f, r.cy(), 2, col);
      marker(c, r.x + f.label_px * 0.7f, r.cy(), f.label_px * 0.3f, col, true);
    } else {
      c.rect({r.x, r.cy() - f.label_px * 0.3f, f.label_px * 1.4f, f.label_px * 0.6f}, col);
    }
    c.text(r.x + f.label_px * 1.9f, r.cy(), s.name, f.label_px, s.visible ? st.text : st.muted);
  }
  if (hover && hover->series >= 0 && hover->series < int(spec.series.size())) {
    const auto& s = spec.series[hover->series];
    const auto& [x, y] = s.points.at(hover->point);
    const float hx = f.px(x), hy = f.py(y);
    c.rect({hx - 6, hy - 6, 12, 12}, {0, 0, 0, 0}, st.text, 2);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s  n=%.0f  %.1f %s", s.name.c_str(), x, y, spec.y_label.c_str());
    const float tw = c.text_width(buf, f.label_px) + 12;
    const float bx = std::min(hx + 10, f.area.x + f.area.w - tw);
    c.rect({bx, hy - f.label_px * 2.2f, tw, f.label_px * 1.6f}, st.background, st.text, 1);
    c.text(bx + 6, hy - f.label_px * 1.4f, buf, f.label_px, st.text);
  }
  c.end();
}

}  // namespace rl::render
