#version 330 core
in vec4 v_tint;
out vec4 color;
void main() { color = v_tint; }
