// Probes: the kernels report every stage to one. NoProbe compiles to nothing (the timed
// instantiation); TraceProbe records one chosen block into device buffers (the traced one).
#pragma once
#include <cstddef>
#include <cstdint>

#include "raw_trace.h"
#include "stage_tags.h"

namespace rl::kernels {

struct NoProbe {
  static constexpr bool barriers = false;  // true: the probe holds barriers every thread must reach
  __device__ __forceinline__ void stage(int, int, int) const {}
  __device__ __forceinline__ void work(int, bool) const {}
  __device__ __forceinline__ void read(int, int, int) const {}
  __device__ __forceinline__ void write(int, int, int) const {}
  __device__ __forceinline__ void remote_read(int, int, int, int) const {}
  __device__ __forceinline__ void load(int, int, std::size_t, int = 1) const {}
  template <class T>
  __device__ __forceinline__ void lane(int, T) const {}
  template <class T>
  __device__ __forceinline__ void shared(int, const T*, int) const {}
  template <class T>
  __device__ __forceinline__ void partial(std::size_t, T) const {}
  __device__ __forceinline__ void ticket(std::size_t) const {}
  template <class T>
  __device__ __forceinline__ void values(int, T, T, T) const {}
  template <class T>
  __device__ __forceinline__ void values(int, T) const {}
};

template <class T>
struct TraceProbe {
  static constexpr bool barriers = true;
  int traced_block;
  int slots;
  int shared_size;
  int* tags;                 // [stage]
  int* params;               // [stage]
  int* shared_count;         // [stage]: cells recorded, 0 none
  std::uint8_t* has_lanes;   // [stage]
  T* shared_cells;           // [stage][shared_size]
  T* lanes;                  // [stage][thread]
  std::uint8_t* active;      // [stage][thread]
  int* access;               // [stage][thread][slot]
  int* sources;              // [stage][thread][slot]: a read's block in its cluster, -1 its own; null: no clusters
  int load_slots;
  long long* loads;          // [stage][thread][load slot]: load_code (first element, width)
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
  // A read of cell `index` of the shared memory of block `rank` of this block's cluster
  // (distributed shared memory).
  __device__ void remote_read(int k, int slot, int rank, int index) const {
    if (!on()) return;
    access[cell(k) * slots + slot] = 2 * index;
    sources[cell(k) * slots + slot] = rank;
  }
  // The slot-th global load of this thread in stage k: its first input element and how many
  // elements it read (a 16-byte vector: 4 floats). Only the first load_slots are kept.
  __device__ void load(int k, int slot, std::size_t index, int width = 1) const {
    if (on() && slot < load_slots) loads[cell(k) * load_slots + slot] = load_code(index, width);
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
  // Values are RaceProbe's record; the stages' copies of shared memory hold them here.
  __device__ void values(int, T, T, T) const {}
  __device__ void values(int, T) const {}
  // Copies shared memory after stage k. Every thread of the block must call it (it holds a
  // barrier, so the next stage cannot overwrite a cell still being copied). It changes no
  // arithmetic, so traced and timed runs add in the same order.
  // U: the cells' type (flat-rows' tiles of halves added in float: each cell widened).
  template <class U>
  __device__ void shared(int k, const U* smem, int count) const {
    if (!on()) return;
    __syncthreads();
    for (int i = thread(); i < count; i += threads())
      shared_cells[static_cast<std::size_t>(k) * shared_size + i] = static_cast<T>(smem[i]);
    if (thread() == 0) shared_count[k] = count;
    __syncthreads();
  }
};

// Stores v at p, global memory, as inline PTX the optimiser sees as touching no memory: the
// log cannot order, delay or keep alive any shared-memory access of the kernel around it.
template <class T>
__device__ __forceinline__ void log_store(T* p, T v) {
  const std::size_t at = __cvta_generic_to_global(p);
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "int, float or double");
  if constexpr (sizeof(T) == 8) {
    unsigned long long bits;
    memcpy(&bits, &v, 8);
    asm volatile("st.global.b64 [%0], %1;" ::"l"(at), "l"(bits));
  } else {
    unsigned bits;
    memcpy(&bits, &v, 4);
    asm volatile("st.global.b32 [%0], %1;" ::"l"(at), "r"(bits));
  }
}

// The race-revealing recording: every block logs, per stage and thread, the values the thread
// read from shared memory and the value it wrote, from its registers, as it went. No barrier,
// no fence, no copy of shared memory: the kernel keeps the timing and orderings of its timed
// instantiation (scripts/probe-free-check.py compares their barriers).
template <class T>
struct RaceProbe : NoProbe {
  static constexpr int kSlots = 3;  // read, read, written
  T* log;                           // [block][stage][thread][kSlots]
  int stages;
  __device__ T* at(int k) const {
    return log + ((std::size_t(blockIdx.x) * stages + k) * blockDim.x + threadIdx.x) * kSlots;
  }
  // A step: the two values read, the value written.
  __device__ void values(int k, T a, T b, T w) const {
    T* p = at(k);
    log_store(p, a), log_store(p + 1, b), log_store(p + 2, w);
  }
  // A load: the value written.
  __device__ void values(int k, T w) const { log_store(at(k) + 2, w); }
};

}  // namespace rl::kernels
