#include "view_parts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rl::render {

// Cells are narrow: floats get three significant digits, ints their digits.
std::string short_value(double v, core::DType type) {
  if (type == core::DType::Int || !std::isfinite(v)) return core::format_value(v, type);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
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

float fit_px(Canvas& c, const std::string& text, float px, float width) {
  const float w = c.text_width(text, px);
  return w > width ? px * width / w : px;
}

std::string source_line(const core::Trace& t) {
  if (t.backend == "cuda") return "GPU run: " + t.device;
  const bool says_so = t.device.find("not a GPU") != std::string::npos || t.device.find("never launched") != std::string::npos;
  return says_so ? t.device : t.device + " (not a GPU run)";
}

}  // namespace rl::render
