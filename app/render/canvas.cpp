#include "canvas.h"

#include <glad/gl.h>
#include <stb/stb_truetype.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "../core/embedded.h"

namespace rl::render {
namespace {

unsigned compile(GLenum kind, std::string_view name) {
  const std::string_view src = embedded::shader(name);
  if (src.empty()) throw std::runtime_error("shader " + std::string(name) + " is not built in");
  const unsigned s = glCreateShader(kind);
  const char* text = src.data();
  const GLint len = GLint(src.size());
  glShaderSource(s, 1, &text, &len);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    glDeleteShader(s);
    throw std::runtime_error("shader " + std::string(name) + " failed to compile: " + log);
  }
  return s;
}

unsigned link(std::string_view vert, std::string_view frag) {
  const unsigned v = compile(GL_VERTEX_SHADER, vert), f = compile(GL_FRAGMENT_SHADER, frag);
  const unsigned p = glCreateProgram();
  glAttachShader(p, v);
  glAttachShader(p, f);
  glLinkProgram(p);
  glDeleteShader(v);
  glDeleteShader(f);
  GLint ok = 0;
  glGetProgramiv(p, GL_LINK_STATUS, &ok);
  if (!ok) {
    char log[2048];
    glGetProgramInfoLog(p, sizeof log, nullptr, log);
    glDeleteProgram(p);
    throw std::runtime_error("shader program " + std::string(vert) + " failed to link: " + log);
  }
  return p;
}

constexpr int kFirstChar = 32, kCharCount = 95;  // printable ASCII

}  // namespace

struct Canvas::Atlas {
  unsigned texture = 0;
  int size = 0;
  float px = 0;
  stbtt_bakedchar chars[kCharCount];
  float ascent = 0, descent = 0;
};

Canvas::Canvas() {
  quad_program_ = link("quad.vert", "quad.frag");
  text_program_ = link("text.vert", "text.frag");
  tri_program_ = link("tri.vert", "tri.frag");

  const float corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
  glGenVertexArrays(1, &quad_vao_);
  glBindVertexArray(quad_vao_);
  glGenBuffers(1, &quad_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, quad_vbo_);
  glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
  glGenBuffers(1, &instance_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
  const GLsizei stride = 13 * sizeof(float);  // rect 4, fill 4, border 4, width 1
  const int sizes[] = {4, 4, 4, 1};
  std::size_t offset = 0;
  for (int a = 0; a < 4; ++a) {
    glEnableVertexAttribArray(1 + a);
    glVertexAttribPointer(1 + a, sizes[a], GL_FLOAT, GL_FALSE, stride,
                          reinterpret_cast<void*>(offset * sizeof(float)));
    glVertexAttribDivisor(1 + a, 1);
    offset += sizes[a];
  }

  glGenVertexArrays(1, &text_vao_);
  glBindVertexArray(text_vao_);
  glGenBuffers(1, &text_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, text_vbo_);
  const GLsizei tstride = 8 * sizeof(float);  // pos 2, uv 2, tint 4
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, tstride, nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, tstride, reinterpret_cast<void*>(2 * sizeof(float)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, tstride, reinterpret_cast<void*>(4 * sizeof(float)));
  glGenVertexArrays(1, &tri_vao_);
  glBindVertexArray(tri_vao_);
  glGenBuffers(1, &tri_vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, tri_vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(2 * sizeof(float)));
  glBindVertexArray(0);
}

Canvas::~Canvas() {
  glDeleteBuffers(1, &tri_vbo_);
  glDeleteVertexArrays(1, &tri_vao_);
  glDeleteProgram(tri_program_);
  for (auto& [px, a] : atlases_) glDeleteTextures(1, &a->texture);
  glDeleteBuffers(1, &quad_vbo_);
  glDeleteBuffers(1, &instance_vbo_);
  glDeleteBuffers(1, &text_vbo_);
  glDeleteVertexArrays(1, &quad_vao_);
  glDeleteVertexArrays(1, &text_vao_);
  glDeleteProgram(quad_program_);
  glDeleteProgram(text_program_);
}

Canvas::Atlas& Canvas::atlas(int px) {
  px = std::clamp(px, 6, 160);
  auto& slot = atlases_[px];
  if (slot) return *slot;
  slot = std::make_unique<Atlas>();
  Atlas& a = *slot;
  a.px = float(px);
  a.size = px <= 40 ? 512 : 1024;
  std::vector<unsigned char> bitmap(std::size_t(a.size) * a.size);
  const auto font = embedded::mono_font();
  const auto* bytes = reinterpret_cast<const unsigned char*>(font.data());
  if (stbtt_BakeFontBitmap(bytes, 0, a.px, bitmap.data(), a.size, a.size, kFirstChar, kCharCount, a.chars) == 0)
    throw std::runtime_error("font atlas bake failed at " + std::to_string(px) + " px");
  stbtt_fontinfo info;
  stbtt_InitFont(&info, bytes, 0);
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&info, &ascent, &descent, &gap);
  const float scale = stbtt_ScaleForPixelHeight(&info, a.px);
  a.ascent = ascent * scale;
  a.descent = descent * scale;
  glGenTextures(1, &a.texture);
  glBindTexture(GL_TEXTURE_2D, a.texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, a.size, a.size, 0, GL_RED, GL_UNSIGNED_BYTE, bitmap.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return a;
}

void Canvas::begin(int width, int height, Color clear) {
  width_ = width;
  height_ = height;
  instances_.clear();
  text_vertices_.clear();
  triangles_.clear();
  smallest_text_ = 0;
  texts_.clear();
  glViewport(0, 0, width, height);
  glClearColor(clear.r, clear.g, clear.b, clear.a);
  glClear(GL_COLOR_BUFFER_BIT);
}

void Canvas::rect(const Rect& r, Color fill, Color border, float border_width) {
  instances_.insert(instances_.end(), {r.x, r.y, r.w, r.h, fill.r, fill.g, fill.b, fill.a, border.r,
                                       border.g, border.b, border.a, border_width});
}

void Canvas::line(float x0, float y0, float x1, float y1, float width, Color c) {
  const float dx = x1 - x0, dy = y1 - y0, len = std::sqrt(dx * dx + dy * dy);
  if (len <= 0) return;
  const float nx = -dy / len * width / 2, ny = dx / len * width / 2;  // half-width normal
  const float v[6][2] = {{x0 + nx, y0 + ny}, {x1 + nx, y1 + ny}, {x0 - nx, y0 - ny},
                         {x1 + nx, y1 + ny}, {x1 - nx, y1 - ny}, {x0 - nx, y0 - ny}};
  for (const auto& p : v) triangles_.insert(triangles_.end(), {p[0], p[1], c.r, c.g, c.b, c.a});
}

float measure_text(std::string_view s, float px) {
  struct Font {
    stbtt_fontinfo info{};
    int advance[kCharCount] = {};  // font units
  };
  static const Font font = [] {
    Font f;
    const auto bytes = embedded::mono_font();
    stbtt_InitFont(&f.info, reinterpret_cast<const unsigned char*>(bytes.data()), 0);
    for (int c = 0; c < kCharCount; ++c) {
      int lsb = 0;
      stbtt_GetCodepointHMetrics(&f.info, kFirstChar + c, &f.advance[c], &lsb);
    }
    return f;
  }();
  // As stbtt_BakeFontBitmap sets each baked char's xadvance: the same scale, the same product.
  const float scale = stbtt_ScaleForPixelHeight(&font.info, float(std::clamp(int(std::lround(px)), 6, 160)));
  float w = 0;
  for (char ch : s) {
    const int c = static_cast<unsigned char>(ch) - kFirstChar;
    if (c >= 0 && c < kCharCount) w += scale * float(font.advance[c]);
  }
  return w;
}

float Canvas::text_width(std::string_view s, float px) { return measure_text(s, px); }

void Canvas::text(float x, float cy, std::string_view s, float px, Color color, Align align) {
  const int key = std::clamp(int(std::lround(px)), 6, 160);
  if (!s.empty() && (smallest_text_ == 0 || key < smallest_text_)) smallest_text_ = key;
  if (!s.empty()) texts_.emplace_back(s);
  Atlas& a = atlas(key);
  float pen_x = x;
  if (align != Align::Left) {
    const float w = text_width(s, px);
    pen_x -= align == Align::Center ? w / 2 : w;
  }
  pen_x = std::round(pen_x);
  float pen_y = std::round(cy + (a.ascent + a.descent) / 2);  // baseline that centres the glyphs
  auto& out = text_vertices_[key];
  for (char ch : s) {
    const int c = static_cast<unsigned char>(ch) - kFirstChar;
    if (c < 0 || c >= kCharCount) continue;
    stbtt_aligned_quad q;
    stbtt_GetBakedQuad(a.chars, a.size, a.size, c, &pen_x, &pen_y, &q, 1);
    const float v[6][4] = {{q.x0, q.y0, q.s0, q.t0}, {q.x1, q.y0, q.s1, q.t0}, {q.x0, q.y1, q.s0, q.t1},
                           {q.x1, q.y0, q.s1, q.t0}, {q.x1, q.y1, q.s1, q.t1}, {q.x0, q.y1, q.s0, q.t1}};
    for (const auto& p : v)
      out.insert(out.end(), {p[0], p[1], p[2], p[3], color.r, color.g, color.b, color.a});
  }
}

void Canvas::end() {
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  if (!instances_.empty()) {
    glUseProgram(quad_program_);
    glUniform2f(glGetUniformLocation(quad_program_, "viewport"), float(width_), float(height_));
    glBindVertexArray(quad_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, instance_vbo_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(instances_.size() * sizeof(float)), instances_.data(),
                 GL_STREAM_DRAW);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, GLsizei(instances_.size() / 13));
  }
  if (!triangles_.empty()) {
    glUseProgram(tri_program_);
    glUniform2f(glGetUniformLocation(tri_program_, "viewport"), float(width_), float(height_));
    glBindVertexArray(tri_vao_);
    glBindBuffer(GL_ARRAY_BUFFER, tri_vbo_);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(triangles_.size() * sizeof(float)), triangles_.data(), GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, GLsizei(triangles_.size() / 6));
  }
  glUseProgram(text_program_);
  glUniform2f(glGetUniformLocation(text_program_, "viewport"), float(width_), float(height_));
  glUniform1i(glGetUniformLocation(text_program_, "atlas"), 0);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(text_vao_);
  glBindBuffer(GL_ARRAY_BUFFER, text_vbo_);
  for (const auto& [px, verts] : text_vertices_) {
    if (verts.empty()) continue;
    glBindTexture(GL_TEXTURE_2D, atlases_.at(px)->texture);
    glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(verts.size() * sizeof(float)), verts.data(), GL_STREAM_DRAW);
    glDrawArrays(GL_TRIANGLES, 0, GLsizei(verts.size() / 8));
  }
  glBindVertexArray(0);
  glUseProgram(0);
}

}  // namespace rl::render
