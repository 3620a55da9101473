// Device helpers every family of kernels uses (tree, shuffle, cooperative groups, single
// pass, matrix): a block's dynamic shared memory as an array of T, and a bounds-checked load.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "algorithms.h"
#include "probe.cuh"
#include "reduce_ops.h"

namespace rl::kernels {

// The block's dynamic shared memory, aligned for 16-byte vectors.
template <class T>
__device__ __forceinline__ T* shared_array() {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  return reinterpret_cast<T*>(smem_raw);
}

// in[i] as a T (a half or bfloat16 converted to float exactly), or the identity past the end; a
// probe records the load as the thread's slot-th.
template <class T, class Op, class Probe = NoProbe, class In = T>
__device__ __forceinline__ T load_or_identity(const In* in, std::size_t n, std::size_t i, const Probe& probe = {},
                                              int slot = 0) {
  if (i >= n) return Op::template identity<T>();
  probe.load(0, slot, i);
  return static_cast<T>(in[i]);
}

// The launch table, beside the kernels: BlockLaunch<Algo::X>::launch starts block kernel X (a
// block's partial from n elements) over a grid; each kernel file lists its own at its end, and
// launch_impl.cuh launches any row that has one, for the types its row's columns allow.
template <Algo A>
struct BlockLaunch {
  static constexpr bool kListed = false;
};

// A block kernel<T, Op>(in, out, n, probe) with CELLS shared-memory cells of T a thread.
#define RL_BLOCK_LAUNCH(ALGO, KERNEL, CELLS)                                                                      \
  template <>                                                                                                     \
  struct BlockLaunch<Algo::ALGO> {                                                                                \
    static constexpr bool kListed = true;                                                                         \
    template <class T, class Op, class Probe, class In>                                                           \
    static void launch(dim3 g, int block, const In* in, T* out, std::size_t n, const Probe& p, cudaStream_t st) { \
      KERNEL<T, Op><<<g, block, std::size_t(CELLS) * std::size_t(block) * sizeof(T), st>>>(in, out, n, p);        \
    }                                                                                                             \
  }

// Calls f(std::integral_constant<int, block>) for the kernels that take the block size as a
// template parameter; check_launch has already refused sizes that are not powers of two.
template <class F>
void with_block(int block, F f) {
  switch (block) {
    case 32: return f(std::integral_constant<int, 32>{});
    case 64: return f(std::integral_constant<int, 64>{});
    case 128: return f(std::integral_constant<int, 128>{});
    case 256: return f(std::integral_constant<int, 256>{});
    case 512: return f(std::integral_constant<int, 512>{});
    default: return f(std::integral_constant<int, 1024>{});
  }
}

// The same for a kernel<BLOCK, T, Op>: one instantiation a block size, a cell a thread.
#define RL_BLOCK_LAUNCH_SIZED(ALGO, KERNEL)                                                                        \
  template <>                                                                                                      \
  struct BlockLaunch<Algo::ALGO> {                                                                                 \
    static constexpr bool kListed = true;                                                                          \
    template <class T, class Op, class Probe, class In>                                                            \
    static void launch(dim3 g, int block, const In* in, T* out, std::size_t n, const Probe& p, cudaStream_t st) {  \
      with_block(block,                                                                                            \
                 [&](auto B) { KERNEL<B.value, T, Op><<<g, B.value, B.value * sizeof(T), st>>>(in, out, n, p); }); \
    }                                                                                                              \
  }

}  // namespace rl::kernels
