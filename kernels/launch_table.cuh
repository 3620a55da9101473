// The launch table, beside the kernels: each kernel file lists, at its end, how its kernels
// launch (BlockLaunch for an array's block kernels, MatrixLaunch for the matrix kernels), and the
// launchers (launch_impl.cuh, matrix_launch.cuh) launch any row that has an entry, for the types
// its row's columns allow.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "algorithms.h"
#include "matrix_shapes.h"

namespace rl::kernels {

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

// What every matrix kernel's launch takes: one pass over m, as its plan decided it.
template <class T, class In>
struct MatrixArgs {
  const In* in;
  T* out;
  Matrix m;           // the pass's rows x cols (a second pass: the partials')
  Grid2 grid;         // blocks in x and y
  dim3 block;         // threads in x and y
  int threads;        // the plan's block, which chunk rules read
  int lanes;          // row segments: lanes a row (the plan's)
  int tile_cols;      // thread-per-row: columns a tile of rows holds (the plan's)
  T* outputs;         // the run's outputs (batched-rows-vectorized folds a row's chunks into them)
  unsigned* tickets;  // ... with a ticket counter a row (null: one chunk a row)
  cudaStream_t stream;

  dim3 grid_2d() const { return {unsigned(grid.x), unsigned(grid.y)}; }
  unsigned blocks() const { return unsigned(grid.count()); }  // a 1D grid: rows can pass gridDim.y's limit
  // Dynamic shared memory: `cells` values of T a thread.
  std::size_t shared(std::size_t cells) const { return cells * block.x * block.y * sizeof(T); }
  std::size_t warp_cells() const { return block.x / 32 * sizeof(T); }  // a value of T a warp
  // A second pass's arguments: the first pass's partials (its out) in, the outputs out; the
  // entry's fold reshapes the rest.
  MatrixArgs<T, T> second() const {
    return {out, outputs, m, grid, block, threads, lanes, tile_cols, outputs, tickets, stream};
  }
};

// A matrix kernel's entry: launch(args, probe) for the first pass; fold(args) for a second pass
// over the first's partials where the plan has one (the default: the kernel has none, or folds
// them in the same launch).
template <Algo A>
struct MatrixLaunch {
  static constexpr bool kListed = false;
};
struct MatrixEntry {
  static constexpr bool kListed = true;
  template <class T, class Op, class Partials>
  static void fold(const Partials&) {}
};

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
