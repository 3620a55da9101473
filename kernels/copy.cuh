// A bandwidth reference: a device copy with 16-byte loads and stores and a grid stride.
#pragma once
#include <cstddef>

#include "shuffle.cuh"

namespace rl::kernels {

template <class T>
__global__ void vector_copy(const T* in, T* out, std::size_t n) {
  using V = typename Vec16<T>::type;
  constexpr std::size_t per = sizeof(V) / sizeof(T);
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x, vectors = n / per;
  for (std::size_t i = gid; i < vectors; i += threads) reinterpret_cast<V*>(out)[i] = reinterpret_cast<const V*>(in)[i];
  for (std::size_t i = per * vectors + gid; i < n; i += threads) out[i] = in[i];
}

}  // namespace rl::kernels
