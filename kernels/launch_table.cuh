// The launch table, beside the kernels: each kernel file lists, at its end, how its kernels
// launch (ArrayLaunch for an array's kernels, MatrixLaunch for the matrix kernels), every entry
// from one LaunchArgs; the launchers (launch_impl.cuh, matrix_launch.cuh) launch any row that has
// an entry, for the types its row's columns allow.
#pragma once
#ifdef __CUDACC_RTC__
// NVRTC compiles the kernels alone (the conformance test, tests/conformance_test.cpp): no host
// launches, so every entry of the table is left out.
#define RL_BLOCK_LAUNCH(ALGO, KERNEL, CELLS) static_assert(true)
#define RL_BLOCK_LAUNCH_SIZED(ALGO, KERNEL) static_assert(true)
#else
#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "algorithms.h"
#include "cuda_check.cuh"
#include "matrix_shapes.h"

namespace rl::kernels {

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

// What every kernel's launch takes: one pass over m (an array: 1 x n), as its plan decided it.
template <class T, class In>
struct LaunchArgs {
  const In* in = nullptr;
  T* out = nullptr;
  Matrix m;                     // the pass's rows x cols (a second pass: the partials')
  Grid2 grid;                   // blocks in x and y
  dim3 block;                   // threads in x and y
  int threads = 0;              // the plan's block, which chunk rules read
  int cluster = 1;              // blocks a cluster (cluster-dsmem)
  int lanes = 0;                // row segments: lanes a row (the plan's)
  int tile_cols = 0;            // thread-per-row: columns a tile of rows holds (the plan's)
  std::size_t held = 0;         // lanes-per-row, timed: rows a block holds (its entry's prepare)
  T* outputs = nullptr;         // a matrix run's outputs (batched-rows-vectorized folds into them)
  unsigned* tickets = nullptr;  // ... with a ticket counter a row (null: one chunk a row)
  unsigned long long* words = nullptr;  // ... or a word a block, where the row's first block waits
  bool* first_waited = nullptr;         // ... set where the launch ended the rows so
  T* partials = nullptr;        // single pass: a partial a block, folded by the last block
  unsigned* retired = nullptr;  // ... which a retirement counter finds
  T* next = nullptr;            // rotating slots: the next launch's result, readied by block 0
  unsigned long long *taken = nullptr, *next_taken = nullptr;  // work-queue's ticket counters
  cudaStream_t stream = nullptr;

  std::size_t n() const { return m.size(); }
  dim3 grid_2d() const { return {unsigned(grid.x), unsigned(grid.y)}; }
  unsigned blocks() const { return unsigned(grid.count()); }  // a 1D grid: rows can pass gridDim.y's limit
  // Dynamic shared memory: `cells` values of T a thread.
  std::size_t shared(std::size_t cells) const { return cells * block.x * block.y * sizeof(T); }
  std::size_t warp_cells() const { return block.x / 32 * sizeof(T); }  // a value of T a warp
  // A second pass's arguments: the first pass's partials (its out) in, the outputs out; the
  // entry's fold reshapes the rest.
  LaunchArgs<T, T> second() const {
    LaunchArgs<T, T> b;
    b.in = out, b.out = outputs, b.m = m, b.grid = grid, b.block = block, b.threads = threads;
    b.lanes = lanes, b.tile_cols = tile_cols, b.outputs = outputs, b.stream = stream;
    return b;
  }
};

// An entry of the table: launch(args, probe) starts the kernel's pass; a matrix kernel's
// fold(args) runs the second pass over the first's partials where the plan has one (the default:
// the kernel has none, or folds them in the same launch); prepare(args) asks the runtime what a
// matrix entry's timed first pass needs (the default: nothing), called once a reducer by
// MatrixReducer::prepare, so no timed launch asks.
struct LaunchEntry {
  static constexpr bool kListed = true;
  template <class T, class Op, class Args>
  static void fold(const Args&) {}
  template <class T, class Op, class Args>
  static void prepare(Args&) {}
};
template <Algo A>
struct ArrayLaunch {
  static constexpr bool kListed = false;
};
template <Algo A>
struct MatrixLaunch {
  static constexpr bool kListed = false;
};

// A block kernel<T, Op>(in, out, n, probe) with CELLS shared-memory cells of T a thread: a
// block's partial from n elements, launched again over the partials in later passes.
#define RL_BLOCK_LAUNCH(ALGO, KERNEL, CELLS)                                                    \
  template <>                                                                                   \
  struct ArrayLaunch<Algo::ALGO> : LaunchEntry {                                                \
    template <class T, class Op, class Probe, class In>                                         \
    static void launch(const LaunchArgs<T, In>& a, const Probe& p) {                            \
      KERNEL<T, Op><<<a.blocks(), a.block, a.shared(CELLS), a.stream>>>(a.in, a.out, a.n(), p); \
    }                                                                                           \
  }

// The same for a kernel<BLOCK, T, Op>: one instantiation a block size, a cell a thread.
#define RL_BLOCK_LAUNCH_SIZED(ALGO, KERNEL)                                                                    \
  template <>                                                                                                  \
  struct ArrayLaunch<Algo::ALGO> : LaunchEntry {                                                               \
    template <class T, class Op, class Probe, class In>                                                        \
    static void launch(const LaunchArgs<T, In>& a, const Probe& p) {                                           \
      with_block(a.threads, [&](auto B) {                                                                      \
        KERNEL<B.value, T, Op><<<a.blocks(), B.value, B.value * sizeof(T), a.stream>>>(a.in, a.out, a.n(), p); \
      });                                                                                                      \
    }                                                                                                          \
  }

// Calls f(std::integral_constant<Algo, A>{}) for the A that is algo; false where none is.
template <class F, int... I>
bool with_algo(std::integer_sequence<int, I...>, Algo algo, F&& f) {
  return ((algo == Algo(I) && (f(std::integral_constant<Algo, Algo(I)>{}), true)) || ...);
}
template <class F>
bool with_algo(Algo algo, F&& f) {
  return with_algo(std::make_integer_sequence<int, int(kLastAlgo) + 1>{}, algo, std::forward<F>(f));
}

}  // namespace rl::kernels
#endif  // __CUDACC_RTC__
