// Probes: the kernels report every stage to one. NoProbe compiles to nothing (the timed
// instantiation); TraceProbe records one chosen block into device buffers (the traced one).
#pragma once
#include <cstddef>
#include <cstdint>

#include "stage_tags.h"

namespace rl::kernels {

struct NoProbe {
  static constexpr bool records = false;
  __device__ __forceinline__ void stage(int, int, int) const {}
  __device__ __forceinline__ void work(int, bool) const {}
  __device__ __forceinline__ void read(int, int, int) const {}
  __device__ __forceinline__ void write(int, int, int) const {}
  __device__ __forceinline__ void load(int, int, std::size_t) const {}
  template <class T>
  __device__ __forceinline__ void lane(int, T) const {}
  template <class T>
  __device__ __forceinline__ void shared(int, const T*, int) const {}
  template <class T>
  __device__ __forceinline__ void partial(std::size_t, T) const {}
  __device__ __forceinline__ void ticket(std::size_t) const {}
};

template <class T>
struct TraceProbe {
  static constexpr bool records = true;
  int traced_block;
  int slots;
  int shared_size;
  int* tags;                 // [stage]
  int* params;               // [stage]
  std::uint8_t* has_shared;  // [stage]
  std::uint8_t* has_lanes;   // [stage]
  T* shared_cells;           // [stage][shared_size]
  T* lanes;                  // [stage][thread]
  std::uint8_t* active;      // [stage][thread]
  int* access;               // [stage][thread][slot]
  int load_slots;
  long long* loads;          // [stage][thread][load slot]: input element indices
  T* partials;               // [output]: every block's result, not only the traced block's
  std::size_t partial_cap;
  int* tickets;              // [ticket]: the block that took it (work-queue), from any block
  std::size_t ticket_cap;

  // Blocks and threads are numbered x fastest, so 1D and 2D launches record alike.
  __device__ static unsigned thread() { return threadIdx.y * blockDim.x + threadIdx.x; }
  __device__ static unsigned threads() { return blockDim.x * blockDim.y; }
  __device__ bool on() const { return blockIdx.y * gridDim.x + blockIdx.x == static_cast<unsigned>(traced_block); }
  __device__ std::size_t cell(int stage) const { return static_cast<std::size_t>(stage) * threads() + thread(); }

  // The stage's kind and parameter (stride, offset); written once, by thread 0.
  __device__ void stage(int k, int tag, int param) const {
    if (!on() || thread() != 0) return;
    tags[k] = tag;
    params[k] = param;
  }
  __device__ void work(int k, bool did) const {
    if (on()) active[cell(k)] = did ? 1 : 0;
  }
  // The slot-th shared access of this thread in stage k (program order), by cell index.
  __device__ void read(int k, int slot, int index) const {
    if (on()) access[cell(k) * slots + slot] = 2 * index;
  }
  __device__ void write(int k, int slot, int index) const {
    if (on()) access[cell(k) * slots + slot] = 2 * index + 1;
  }
  // The slot-th global load of this thread in stage k, by input element index; only the
  // first load_slots are kept.
  __device__ void load(int k, int slot, std::size_t index) const {
    if (on() && slot < load_slots) loads[cell(k) * load_slots + slot] = static_cast<long long>(index);
  }
  // The value this thread holds in a register after stage k.
  __device__ void lane(int k, T value) const {
    if (!on()) return;
    lanes[cell(k)] = value;
    if (thread() == 0) has_lanes[k] = 1;
  }
  // The result of a block (or warp, for cg-warp) at output index i, from any block.
  __device__ void partial(std::size_t i, T value) const {
    if (i < partial_cap) partials[i] = value;
  }
  // Block blockIdx.x took ticket c (work-queue): the model replays who took what.
  __device__ void ticket(std::size_t c) const {
    if (c < ticket_cap) tickets[c] = static_cast<int>(blockIdx.x);  // work-queue: 1D grids only
  }
  // Copies shared memory after stage k. Every thread of the block must call it (it holds a
  // barrier, so the next stage cannot overwrite a cell still being copied). It changes no
  // arithmetic, so traced and timed runs add in the same order.
  __device__ void shared(int k, const T* smem, int count) const {
    if (!on()) return;
    __syncthreads();
    for (int i = thread(); i < count; i += threads())
      shared_cells[static_cast<std::size_t>(k) * shared_size + i] = smem[i];
    if (thread() == 0) has_shared[k] = 1;
    __syncthreads();
  }
};

}  // namespace rl::kernels
