#version 330 core
// One instance per rectangle: the unit quad is stretched over rect (pixels, top-left origin).
layout(location = 0) in vec2 corner;
layout(location = 1) in vec4 rect;
layout(location = 2) in vec4 fill;
layout(location = 3) in vec4 border;
layout(location = 4) in float border_width;
uniform vec2 viewport;
out vec2 local;
flat out vec2 size;
flat out vec4 v_fill;
flat out vec4 v_border;
flat out float v_border_width;
void main() {
  vec2 p = rect.xy + corner * rect.zw;
  local = corner * rect.zw;
  size = rect.zw;
  v_fill = fill;
  v_border = border;
  v_border_width = border_width;
  gl_Position = vec4(p.x / viewport.x * 2.0 - 1.0, 1.0 - p.y / viewport.y * 2.0, 0.0, 1.0);
}
