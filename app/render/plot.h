// A small, general plot drawn on the Canvas: x on a log2 (or linear) axis, series of points
// joined by lines, horizontal reference lines, a legend whose entries toggle series, and
// hover. The layout and hit tests are plain arithmetic (no GL), so tests and the window's
// mouse handling use the same numbers the drawing does.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canvas.h"

namespace rl::render {

struct Series {
  std::string name;
  Color color;
  std::vector<std::pair<double, double>> points;  // (x, y), x ascending
  std::vector<bool> apart = {};  // per point (empty: none): a marker joined to no line, off the series' run
  float width = 2;
  bool visible = true;
  bool dashed = false;  // dashed line and hollow markers: tells apart series that share a colour
};

struct RefLine {  // a horizontal line across the plot, labelled at its right end
  std::string name;
  double y = 0;
  Color color;
};

// Where a chart's title may break onto a second line: before its date (bench_chart's titles).
inline constexpr std::string_view kTitleBreak = "  -  ";

struct PlotSpec {
  std::string title, x_label, y_label;
  bool log2_x = true;
  std::vector<Series> series;
  std::vector<RefLine> lines;
};

struct PlotFrame {
  Rect area;      // the plotting area in pixels
  Rect legend;    // the legend box, right of the area
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;  // data ranges (x0, x1 in log2 when log2_x)
  bool log2_x = true;
  float title_px = 12, label_px = 10;
  int title_lines = 1;  // 2: the title does not fit at the smallest size and breaks before its date
  float px(double x) const;
  float py(double y) const;
  Rect legend_row(int i) const;  // the i-th legend entry
  // Each entry's centre: a shown series' beside the right end of its line (pushed apart so no
  // two overlap), the hidden ones under them; empty where they do not fit (rows in order).
  std::vector<float> row_y;
};

// No text is laid out smaller than min_px (the views' minimum: render/layout.h).
PlotFrame plot_frame(const PlotSpec& spec, int width, int height, float min_px = kMinTextPx);

struct Tick {
  double value;
  std::string label;
};
// label_w: the widest tick label's width in pixels; ticks are spaced so labels never touch (0:
// by count alone).
std::vector<Tick> x_ticks(const PlotFrame& f, float label_w = 0);
std::vector<Tick> y_ticks(const PlotFrame& f);

struct Hit {
  int series = -1;
  int point = -1;
};
// The visible point nearest to (mx, my) within radius pixels.
std::optional<Hit> hit_point(const PlotSpec& spec, const PlotFrame& f, float mx, float my, float radius);
// The legend entry under (mx, my), for toggling.
std::optional<int> hit_legend(const PlotSpec& spec, const PlotFrame& f, float mx, float my);

struct PlotStyle {
  Color background, text, muted, grid;
};
PlotStyle plot_style(bool high_contrast);

void draw_plot(Canvas& c, const PlotSpec& spec, int width, int height, std::optional<Hit> hover = {},
               bool high_contrast = false, float min_px = kMinTextPx);

}  // namespace rl::render
