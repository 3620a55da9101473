// An RGBA8 framebuffer to draw the view into: shown by the GUI as a texture, read back
// for PNG export and the headless renderer.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rl::render {

class Offscreen {
 public:
  Offscreen() = default;
  ~Offscreen();
  Offscreen(const Offscreen&) = delete;
  Offscreen& operator=(const Offscreen&) = delete;

  // (Re)allocates when the size changed; throws std::runtime_error if the framebuffer is incomplete.
  void resize(int width, int height);
  void bind() const;    // draws go here
  static void unbind();  // back to the window
  unsigned texture() const { return texture_; }
  int width() const { return width_; }
  int height() const { return height_; }
  // Top row first, 4 bytes a pixel.
  std::vector<std::uint8_t> read_rgba() const;

 private:
  unsigned fbo_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
};

// The PNG bytes of a width x height RGBA image, top row first. False with *error naming path.
bool encode_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba, std::string* png,
                std::string* error);
// Writes top-row-first RGBA pixels as PNG; false with *error set on failure.
bool write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba,
               std::string* error);

}  // namespace rl::render
