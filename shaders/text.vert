#version 330 core
// Glyph quads built on the CPU from the baked font atlas; positions in pixels.
layout(location = 0) in vec2 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in vec4 tint;
uniform vec2 viewport;
out vec2 v_uv;
out vec4 v_tint;
void main() {
  v_uv = uv;
  v_tint = tint;
  gl_Position = vec4(pos.x / viewport.x * 2.0 - 1.0, 1.0 - pos.y / viewport.y * 2.0, 0.0, 1.0);
}
