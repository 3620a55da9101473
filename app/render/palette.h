// Colours: Okabe-Ito for marks (safe for the common colour-vision deficiencies) and a
// cividis-like scale for values (readable in greyscale and by most colour-blind viewers).
#pragma once

namespace rl::render {

struct Color {
  float r = 0, g = 0, b = 0, a = 1;
};

// 0xRRGGBB, opaque.
constexpr Color rgb(int hex) {
  return {((hex >> 16) & 255) / 255.0f, ((hex >> 8) & 255) / 255.0f, (hex & 255) / 255.0f, 1};
}

struct Palette {
  Color background, text, muted, grid_line;
  Color written, read, active, inactive, padding, conflict;
  // A race recording: a read that saw a stale value, a cell that holds what the code did not
  // mean, and the cells the wrong value took to the block's result.
  Color stale, wrong, path;
};

Palette standard_palette();
Palette high_contrast_palette();

// t in [0, 1] to the value scale.
Color value_color(float t);
// Black or white, whichever reads better on c.
Color text_on(Color c);

}  // namespace rl::render
