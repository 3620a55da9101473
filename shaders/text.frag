#version 330 core
// The atlas holds coverage in its red channel.
in vec2 v_uv;
in vec4 v_tint;
uniform sampler2D atlas;
out vec4 color;
void main() {
  color = vec4(v_tint.rgb, v_tint.a * texture(atlas, v_uv).r);
}
