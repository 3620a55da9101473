// A small batched 2D painter over the project's shaders: rectangles with borders, and text
// from a font atlas baked with stb_truetype. Needs a current OpenGL 3.3 core context.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "layout.h"
#include "palette.h"

namespace rl::render {

enum class Align { Left, Center, Right };

// The width text drawn at px takes: the font's advances at the size the text is baked at (px
// rounded, 6 to 160), as the atlas's are. Needs no GL context: layouts and tests measure with it.
float measure_text(std::string_view s, float px);

class Canvas {
 public:
  Canvas();  // throws std::runtime_error if a shader fails to build
  ~Canvas();
  Canvas(const Canvas&) = delete;
  Canvas& operator=(const Canvas&) = delete;

  void begin(int width, int height, Color clear);
  void rect(const Rect& r, Color fill, Color border = {}, float border_width = 0);
  // Text vertically centred on cy; x is the left, centre or right edge per align.
  void text(float x, float cy, std::string_view s, float px, Color color, Align align = Align::Left);
  float text_width(std::string_view s, float px);  // measure_text's
  // A straight line of the given width; drawn above rectangles, below text.
  void line(float x0, float y0, float x1, float y1, float width, Color color);
  void end();  // draws everything queued since begin()
  // The smallest text size (pixels, as drawn) since begin(); 0 when no text was drawn. Tests and
  // the docs' figures hold the views to their minimum with it.
  int smallest_text_px() const { return smallest_text_; }
  // Every text drawn since begin(), in order: tests ask whether a view printed its values.
  const std::vector<std::string>& texts() const { return texts_; }

 private:
  struct Atlas;
  Atlas& atlas(int px);

  unsigned quad_program_ = 0, text_program_ = 0, tri_program_ = 0;
  unsigned tri_vao_ = 0, tri_vbo_ = 0;
  std::vector<float> triangles_;  // x, y, r, g, b, a per vertex
  unsigned quad_vao_ = 0, quad_vbo_ = 0, instance_vbo_ = 0;
  unsigned text_vao_ = 0, text_vbo_ = 0;
  int width_ = 0, height_ = 0;
  int smallest_text_ = 0;
  std::vector<std::string> texts_;
  std::vector<float> instances_;
  std::map<int, std::vector<float>> text_vertices_;  // per atlas size
  std::map<int, std::unique_ptr<Atlas>> atlases_;
};

}  // namespace rl::render
