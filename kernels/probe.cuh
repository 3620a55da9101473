// Probes: the kernels call these after every stage. NoProbe compiles to nothing (the timed
// instantiation); TraceProbe records one chosen block into device buffers (the traced one).
#pragma once
#include <cstddef>
#include <cstdint>

namespace rl::kernels {

struct NoProbe {
  __device__ __forceinline__ void access(int, bool, int, int, int) const {}
  template <class T>
  __device__ __forceinline__ void snapshot(int, const T*) const {}
};

template <class T>
struct TraceProbe {
  int traced_block;
  T* shared;             // [stage][thread]
  std::uint8_t* active;  // [stage][thread]
  int* reads;            // [stage][thread][2]
  int* writes;           // [stage][thread]

  __device__ bool on() const { return blockIdx.x == static_cast<unsigned>(traced_block); }

  // What this thread did in the stage: shared indices read (r0, r1) and written (w), -1 for none.
  __device__ void access(int stage, bool did_work, int r0, int r1, int w) const {
    if (!on()) return;
    const std::size_t i = static_cast<std::size_t>(stage) * blockDim.x + threadIdx.x;
    active[i] = did_work ? 1 : 0;
    reads[2 * i] = did_work ? r0 : -1;
    reads[2 * i + 1] = did_work ? r1 : -1;
    writes[i] = did_work ? w : -1;
  }

  // Called after the stage's barrier. The extra barrier keeps the next stage from writing a
  // cell another thread is still copying; it changes no arithmetic, so results stay identical.
  __device__ void snapshot(int stage, const T* smem) const {
    if (!on()) return;
    shared[static_cast<std::size_t>(stage) * blockDim.x + threadIdx.x] = smem[threadIdx.x];
    __syncthreads();
  }
};

}  // namespace rl::kernels
