// Files built into the binary (kernel source, shaders, font), so the program needs no
// data directory at run time.
#pragma once
#include <cstddef>
#include <string_view>

namespace rl::embedded {

std::string_view kernel_source(std::string_view path);  // "kernels/tree.cuh" as compiled; empty when unknown
std::string_view lesson(std::string_view id);  // kernels/lessons/ID.md; empty when there is none
std::string_view shader(std::string_view name);  // shaders/NAME; empty when unknown
std::string_view mono_font();  // DejaVu Sans Mono (fonts-dejavu-core), TrueType bytes

}  // namespace rl::embedded
