// Our all-reduce across GPUs over CUDA peer access (issue 52), the kernels each GPU runs: a step
// of the ring reads the neighbour's chunk through a peer pointer and adds it into (reduce-scatter)
// or copies it over (all-gather) the GPU's own; the one-shot kernel reads every GPU's buffer and
// adds them in the GPUs' order. The adds are the CPU model's (kernels/model/all_reduce.cpp): ints
// wrap, floats round once an add, halves and bfloat16 round to their type (__hadd).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "narrow_types.h"
#include "reduce_ops.h"

namespace rl::kernels {

inline constexpr int kMaxPeers = 8;  // model::all_reduce::kMaxGpus

// Every GPU's input buffer, as peer pointers the one-shot kernel reads.
struct PeerBuffers {
  const void* in[kMaxPeers] = {};
  int count = 0;
};

template <class T>
__device__ __forceinline__ T sum_of(T a, T b) {
  using ops::add;
  return add(a, b);  // narrow::add for halves and bfloat16, found by argument-dependent lookup
}

// Elements [begin, end) of `mine` take `peer`'s added or copied, by grid stride: 16-byte loads over
// the part both buffers align to 16 bytes there (cudaMalloc gives each the same alignment), scalar
// loads around it.
template <class T>
__global__ void ring_step(T* mine, const T* peer, std::size_t begin, std::size_t end, bool add) {
  constexpr std::size_t kWide = 16 / sizeof(T);
  const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x,
                    stride = gridDim.x * std::size_t(blockDim.x);
  const std::size_t head = std::min(end, (begin + kWide - 1) / kWide * kWide),
                    body = head + (end - head) / kWide * kWide;
  const auto one = [&](std::size_t i) { mine[i] = add ? sum_of(peer[i], mine[i]) : peer[i]; };
  for (std::size_t i = begin + first; i < head; i += stride) one(i);
  for (std::size_t v = head / kWide + first; v < body / kWide; v += stride) {  // [ring-step]
    uint4 sent = reinterpret_cast<const uint4*>(peer)[v];
    if (add) {
      const uint4 own = reinterpret_cast<const uint4*>(mine)[v];
      T a[kWide], b[kWide];
      memcpy(a, &sent, sizeof sent);
      memcpy(b, &own, sizeof own);
      for (std::size_t k = 0; k < kWide; ++k) a[k] = sum_of(a[k], b[k]);
      memcpy(&sent, a, sizeof sent);
    }
    reinterpret_cast<uint4*>(mine)[v] = sent;
  }
  for (std::size_t i = body + first; i < end; i += stride) one(i);
}

// out[i] = ((in_0[i] + in_1[i]) + ...) + in_N-1[i], every GPU the same adds in the same order.
template <class T>
__global__ void one_shot(T* out, PeerBuffers peers, std::size_t n) {
  const std::size_t stride = gridDim.x * std::size_t(blockDim.x);
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
    T acc = static_cast<const T*>(peers.in[0])[i];
    for (int g = 1; g < peers.count; ++g) acc = sum_of(acc, static_cast<const T*>(peers.in[g])[i]);  // [peer-add]
    out[i] = acc;
  }
}

}  // namespace rl::kernels
