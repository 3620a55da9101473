#version 330 core
// Coloured triangles (lines and markers of the plots), positions in pixels.
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 tint;
uniform vec2 viewport;
out vec4 v_tint;
void main() {
  v_tint = tint;
  gl_Position = vec4(pos.x / viewport.x * 2.0 - 1.0, 1.0 - pos.y / viewport.y * 2.0, 0.0, 1.0);
}
