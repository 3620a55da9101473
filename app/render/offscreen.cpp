#include "offscreen.h"

#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <string>

#include "../core/file_io.h"
#include "../core/text.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace rl::render {

Offscreen::~Offscreen() {
  if (fbo_) glDeleteFramebuffers(1, &fbo_);
  if (texture_) glDeleteTextures(1, &texture_);
}

void Offscreen::resize(int width, int height) {
  if (width <= 0 || height <= 0) throw std::runtime_error("view size must be positive");
  if (width == width_ && height == height_ && fbo_) return;
  if (!fbo_) glGenFramebuffers(1, &fbo_);
  if (!texture_) glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("offscreen framebuffer incomplete (status " + std::to_string(status) + ")");
  width_ = width;
  height_ = height;
}

void Offscreen::bind() const { glBindFramebuffer(GL_FRAMEBUFFER, fbo_); }
void Offscreen::unbind() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }

std::vector<std::uint8_t> Offscreen::read_rgba() const {
  std::vector<std::uint8_t> pixels(std::size_t(width_) * height_ * 4);
  bind();
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  unbind();
  // GL's first row is the bottom one.
  const std::size_t row = std::size_t(width_) * 4;
  for (int y = 0; y < height_ / 2; ++y)
    std::swap_ranges(pixels.begin() + y * row, pixels.begin() + (y + 1) * row,
                     pixels.begin() + (height_ - 1 - y) * row);
  return pixels;
}

bool encode_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba, std::string* png,
                std::string* error) {
  const auto append = [](void* dst, void* data, int size) {
    static_cast<std::string*>(dst)->append(static_cast<char*>(data), std::size_t(size));
  };
  png->clear();
  if (stbi_write_png_to_func(append, png, width, height, 4, rgba.data(), width * 4)) return true;
  if (error) *error = "cannot encode PNG '" + core::printable(path) + "'";
  return false;
}

bool write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba,
               std::string* error) {
  // Encoded in memory, then written with every write checked (stbi_write_png's are not).
  std::string png;
  if (!encode_png(path, width, height, rgba, &png, error)) return false;
  if (core::write_file(path, png, error)) return true;
  if (error) *error = "PNG not saved: " + *error;
  return false;
}

}  // namespace rl::render
