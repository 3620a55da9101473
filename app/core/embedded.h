// Files built into the binary (kernel source, shaders, font), so the program needs no
// data directory at run time.
#pragma once
#include <cstddef>
#include <string_view>

namespace rl::embedded {

std::string_view tree_kernel_source();  // kernels/tree.cuh as the GPU compiled it
std::string_view kernel_source(std::string_view name);  // kernels/NAME; empty when unknown
std::string_view shader(std::string_view name);  // shaders/NAME; empty when unknown
std::string_view mono_font();  // DejaVu Sans Mono (fonts-dejavu-core), TrueType bytes

}  // namespace rl::embedded
