// The operations the kernels reduce with, the element types, and the baselines timed beside
// them: plain C++, included by host code that never needs nvcc. The kernels themselves (Algo)
// are named beside their rows, in kernels/algorithms.h.
#pragma once

namespace rl::kernels {

// The operators and element types, one enum each for the kernels and the app (core::Op and
// core::DType name these). Half and Bf16 are IEEE binary16 and bfloat16 (__half,
// __nv_bfloat16): 16 bits an element.
enum class OpKind { Sum, Min, Max };
enum class DType { Int, Float, Double, Half, Bf16 };
constexpr bool is_narrow(DType type) { return type == DType::Half || type == DType::Bf16; }
constexpr int type_bytes(DType type) { return type == DType::Double ? 8 : is_narrow(type) ? 2 : 4; }
// Baselines over the same data: the library reductions, a device copy (a bandwidth reference:
// it reads and writes, a reduction only reads; checked element for element), and the matrix
// anchors (CUB's segmented reduce, cuBLAS gemv with a ones vector).
enum class Baseline { Cub, Thrust, Cpu, Copy, CubSegmented, CublasRows, CublasColumns };

}  // namespace rl::kernels
