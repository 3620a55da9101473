#version 330 core
// Fills the rectangle and paints a border of v_border_width pixels inside its edge.
in vec2 local;
flat in vec2 size;
flat in vec4 v_fill;
flat in vec4 v_border;
flat in float v_border_width;
out vec4 color;
void main() {
  float edge = min(min(local.x, size.x - local.x), min(local.y, size.y - local.y));
  color = edge < v_border_width ? v_border : v_fill;
}
