#include "palette.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace rl::render {

Palette standard_palette() {
  return {rgb(0x1B1D23), rgb(0xEDEDED), rgb(0x9AA0A6), rgb(0x3A3D45),
          rgb(0xE69F00),   // orange: written
          rgb(0x56B4E9),   // sky blue: read
          rgb(0x009E73),   // bluish green: active thread
          rgb(0x4A4D55),   // grey: inactive thread
          rgb(0x2E3138),   // padding cells (identity values)
          rgb(0xD55E00),   // vermillion: bank conflicts
          rgb(0xCC79A7),   // reddish purple: stale reads
          rgb(0x0072B2),   // blue: values the code did not mean
          rgb(0xF0E442)};  // yellow: the wrong value's path
}

Palette high_contrast_palette() {
  return {rgb(0x000000), rgb(0xFFFFFF), rgb(0xCCCCCC), rgb(0x666666), rgb(0xE69F00),
          rgb(0x56B4E9),   rgb(0x009E73), rgb(0x555555), rgb(0x202020), rgb(0xD55E00),
          rgb(0xCC79A7),   rgb(0x0072B2), rgb(0xF0E442)};
}

Color value_color(float t) {
  static constexpr std::array<Color, 5> stops = {rgb(0x00204D), rgb(0x414D6B), rgb(0x7C7B78),
                                                 rgb(0xBCAF6F), rgb(0xFFEA46)};
  t = std::clamp(std::isfinite(t) ? t : 0.0f, 0.0f, 1.0f) * (stops.size() - 1);
  const auto i = std::min<std::size_t>(std::size_t(t), stops.size() - 2);
  const float f = t - float(i);
  const Color a = stops[i], b = stops[i + 1];
  return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, 1};
}

Color text_on(Color c) {
  const float lum = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
  return lum > 0.45f ? Color{0, 0, 0, 1} : Color{1, 1, 1, 1};
}

}  // namespace rl::render
