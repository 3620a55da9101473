// Shared-memory tree reductions, each written once and instantiated twice: with NoProbe
// (timed) and TraceProbe (what the app shows). Markers: "<<< id" opens an algorithm's
// source as the app displays it, ">>>" closes it, "[load]" and "[step]" tag the lines
// that each recorded stage corresponds to.
#pragma once
#include <cstddef>

#include "probe.cuh"
#include "reduce_ops.h"

namespace rl::kernels {

template <class T>
__device__ __forceinline__ T* shared_array() {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  return reinterpret_cast<T*>(smem_raw);
}

// <<< interleaved-divergent
template <class T, class Op, class Probe>
__global__ void interleaved_divergent(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  smem[tid] = i < n ? in[i] : Op::template identity<T>();  // [load]
  probe.access(0, true, -1, -1, tid);
  __syncthreads();
  probe.snapshot(0, smem);

  int stage = 1;
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const bool work = tid % (2 * s) == 0;  // neighbours of a warp take different paths
    if (work) smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
    probe.access(stage, work, tid, tid + s, tid);
    __syncthreads();
    probe.snapshot(stage++, smem);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}
// >>>

// <<< interleaved-bank-conflicts
template <class T, class Op, class Probe>
__global__ void interleaved_bank_conflicts(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  smem[tid] = i < n ? in[i] : Op::template identity<T>();  // [load]
  probe.access(0, true, -1, -1, tid);
  __syncthreads();
  probe.snapshot(0, smem);

  int stage = 1;
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned index = 2 * s * tid;  // contiguous threads, strided addresses
    const bool work = index < blockDim.x;
    if (work) smem[index] = Op{}(smem[index], smem[index + s]);  // [step]
    probe.access(stage, work, index, index + s, index);
    __syncthreads();
    probe.snapshot(stage++, smem);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}
// >>>

// <<< sequential
template <class T, class Op, class Probe>
__global__ void sequential(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + tid;
  smem[tid] = i < n ? in[i] : Op::template identity<T>();  // [load]
  probe.access(0, true, -1, -1, tid);
  __syncthreads();
  probe.snapshot(0, smem);

  int stage = 1;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    const bool work = tid < s;  // whole warps drop out together
    if (work) smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
    probe.access(stage, work, tid, tid + s, tid);
    __syncthreads();
    probe.snapshot(stage++, smem);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}
// >>>

}  // namespace rl::kernels
