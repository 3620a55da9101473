// Cooperative-groups reductions: tiles, cg::reduce, asynchronous atomic updates, grid sync.
#pragma once
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstddef>
#include <cuda/atomic>

#include "block_common.cuh"

namespace rl::kernels {
namespace cg = cooperative_groups;

// The cg functor for each operator; cg::less and cg::greater compare exactly as ops::Min/Max.
// cg::reduce takes the library's operators (hardware reductions for ints), except min and
// max of floating types: those take the project's, where a NaN operand wins in any order, as
// in the CPU model.
template <class Op, class T> struct CgOp { using type = Op; };
template <class T> struct CgOp<ops::Sum, T> { using type = cg::plus<T>; };
template <> struct CgOp<ops::Min, int> { using type = cg::less<int>; };
template <> struct CgOp<ops::Max, int> { using type = cg::greater<int>; };
// reduce_update_async turns its operator into an atomic: only the library's operators.
template <class Op, class T> struct CgAtomicOp;
template <class T> struct CgAtomicOp<ops::Sum, T> { using type = cg::plus<T>; };
template <class T> struct CgAtomicOp<ops::Min, T> { using type = cg::less<T>; };
template <class T> struct CgAtomicOp<ops::Max, T> { using type = cg::greater<T>; };

// <<< cg-warp
template <class T, class Op, class Probe>
__global__ void cg_warp(const T* in, T* out, std::size_t n, Probe probe) {
  const auto block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<32>(block);
  T v = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + block.thread_rank(), probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.lane(0, v);
  v = cg::reduce(tile, v, typename CgOp<Op, T>::type{});  // [tile-reduce]
  probe.stage(1, kTagTileReduce, 32), probe.work(1, true), probe.lane(1, v);
  // One partial per warp; the host launches again over the partials.
  if (tile.thread_rank() == 0) out[std::size_t(blockIdx.x) * tile.meta_group_size() + tile.meta_group_rank()] = v;
  if (tile.thread_rank() == 0) probe.partial(std::size_t(blockIdx.x) * tile.meta_group_size() + tile.meta_group_rank(), v);
}
// >>>

// <<< cg-block
template <class T, class Op, class Probe>
__global__ void cg_block(const T* in, T* out, std::size_t n, Probe probe) {
  const auto block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<32>(block);
  T* smem = shared_array<T>();  // one cell per tile
  const unsigned rank = tile.thread_rank(), t = tile.meta_group_rank(), tiles = tile.meta_group_size();
  T v = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + block.thread_rank(), probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.lane(0, v);
  v = cg::reduce(tile, v, typename CgOp<Op, T>::type{});  // [tile-reduce]
  probe.stage(1, kTagTileReduce, 32), probe.work(1, true), probe.lane(1, v);
  if (rank == 0) {
    smem[t] = v;  // [tile-sums]
    probe.write(2, 0, t);
  }
  probe.stage(2, kTagTileSums, 0), probe.work(2, rank == 0);
  block.sync();
  probe.shared(2, smem, tiles);
  if (t == 0) {
    v = rank < tiles ? smem[rank] : Op::template identity<T>();  // [final-load]
    if (rank < tiles) probe.read(3, 0, rank);
  }
  probe.stage(3, kTagFinalLoad, 0), probe.work(3, t == 0), probe.lane(3, v);
  if (t == 0) v = cg::reduce(tile, v, typename CgOp<Op, T>::type{});  // [final-reduce]
  probe.stage(4, kTagFinalReduce, 32), probe.work(4, t == 0), probe.lane(4, v);
  if (block.thread_rank() == 0) out[blockIdx.x] = v;
  if (block.thread_rank() == 0) probe.partial(blockIdx.x, v);
}
// >>>

// <<< cg-two-phase
// Phase one: a fixed grid, each thread striding over many elements, one partial per block.
// Phase two is the same kernel launched with one block over the partials.
template <class T, class Op, class Probe>
__global__ void cg_two_phase(const T* in, T* out, std::size_t n, Probe probe) {
  const auto block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<32>(block);
  T* smem = shared_array<T>();
  const unsigned rank = tile.thread_rank(), t = tile.meta_group_rank(), tiles = tile.meta_group_size();
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  T v = Op::template identity<T>();
  int slot = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + block.thread_rank(); i < n; i += stride) {
    v = Op{}(v, in[i]);  // [grid-stride]
    probe.load(0, slot++, i);
  }
  probe.stage(0, kTagGridStride, 0), probe.work(0, true), probe.lane(0, v);
  v = cg::reduce(tile, v, typename CgOp<Op, T>::type{});  // [tile-reduce]
  probe.stage(1, kTagTileReduce, 32), probe.work(1, true), probe.lane(1, v);
  if (rank == 0) {
    smem[t] = v;  // [tile-sums]
    probe.write(2, 0, t);
  }
  probe.stage(2, kTagTileSums, 0), probe.work(2, rank == 0);
  block.sync();
  probe.shared(2, smem, tiles);
  if (t == 0) {
    v = rank < tiles ? smem[rank] : Op::template identity<T>();  // [final-load]
    if (rank < tiles) probe.read(3, 0, rank);
  }
  probe.stage(3, kTagFinalLoad, 0), probe.work(3, t == 0), probe.lane(3, v);
  if (t == 0) v = cg::reduce(tile, v, typename CgOp<Op, T>::type{});  // [final-reduce]
  probe.stage(4, kTagFinalReduce, 32), probe.work(4, t == 0), probe.lane(4, v);
  if (block.thread_rank() == 0) out[blockIdx.x] = v;
  if (block.thread_rank() == 0) probe.partial(blockIdx.x, v);
}
// >>>

// <<< cg-reduce-update-async
template <class T, class Op, class Probe>
__global__ void cg_reduce_update_async(const T* in, T* out, std::size_t n, Probe probe) {
  const auto block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<32>(block);
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  T v = Op::template identity<T>();
  int slot = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + block.thread_rank(); i < n; i += stride) {
    v = Op{}(v, in[i]);  // [grid-stride]
    probe.load(0, slot++, i);
  }
  probe.stage(0, kTagGridStride, 0), probe.work(0, true), probe.lane(0, v);
  // Each tile reduces and one of its threads updates the result atomically, in one call.
  const cuda::atomic_ref<T, cuda::thread_scope_device> total(*out);
  cg::reduce_update_async(tile, total, v, typename CgAtomicOp<Op, T>::type{});  // [atomic]
  probe.stage(1, kTagAtomic, 32), probe.work(1, true);
}
// >>>

// <<< cg-grid-sync
template <class T, class Op, class Probe>
__device__ T cg_block_total(T v, T* smem, Probe probe) {
  const auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  const unsigned rank = tile.thread_rank(), t = tile.meta_group_rank(), tiles = tile.meta_group_size();
  v = cg::reduce(tile, v, typename CgOp<Op, T>::type{});  // [tile-reduce]
  probe.stage(1, kTagTileReduce, 32), probe.work(1, true), probe.lane(1, v);
  if (rank == 0) {
    smem[t] = v;  // [tile-sums]
    probe.write(2, 0, t);
  }
  probe.stage(2, kTagTileSums, 0), probe.work(2, rank == 0);
  cg::this_thread_block().sync();
  probe.shared(2, smem, tiles);
  if (t == 0) {
    v = rank < tiles ? smem[rank] : Op::template identity<T>();  // [final-load]
    if (rank < tiles) probe.read(3, 0, rank);
  }
  probe.stage(3, kTagFinalLoad, 0), probe.work(3, t == 0), probe.lane(3, v);
  if (t == 0) v = cg::reduce(tile, v, typename CgOp<Op, T>::type{});  // [final-reduce]
  probe.stage(4, kTagFinalReduce, 32), probe.work(4, t == 0), probe.lane(4, v);
  return v;
}

// One cooperative launch: every block's partial, grid.sync(), then block 0 finishes.
template <class T, class Op, class Probe>
__global__ void cg_grid_sync(const T* in, T* out, std::size_t n, Probe probe) {
  const auto grid = cg::this_grid();
  const auto block = cg::this_thread_block();
  T* smem = shared_array<T>();
  T v = Op::template identity<T>();
  int slot = 0;
  for (std::size_t i = grid.thread_rank(); i < n; i += grid.size()) {
    v = Op{}(v, in[i]);  // [grid-stride]
    probe.load(0, slot++, i);
  }
  probe.stage(0, kTagGridStride, 0), probe.work(0, true), probe.lane(0, v);
  v = cg_block_total<T, Op>(v, smem, probe);
  if (block.thread_rank() == 0) out[1 + blockIdx.x] = v;  // partials after the result slot
  if (block.thread_rank() == 0) probe.partial(blockIdx.x, v);
  grid.sync();  // every partial is written and visible to every block
  if (blockIdx.x != 0) return;
  T w = Op::template identity<T>();
  for (unsigned b = block.thread_rank(); b < gridDim.x; b += block.size()) w = Op{}(w, out[1 + b]);
  w = cg_block_total<T, Op>(w, smem, NoProbe{});
  if (block.thread_rank() == 0) out[0] = w;
}
// >>>

// The launch table's entries for this file's block kernels (block_common.cuh).
RL_BLOCK_LAUNCH(CgWarp, cg_warp, 0);
RL_BLOCK_LAUNCH(CgBlock, cg_block, 1);
RL_BLOCK_LAUNCH(CgTwoPhase, cg_two_phase, 1);
RL_BLOCK_LAUNCH(CgReduceUpdateAsync, cg_reduce_update_async, 0);

#ifndef __CUDACC_RTC__  // NVRTC compiles the kernels alone: no host launches
// cg-grid-sync: a cooperative launch (every block resident at once; the Reducer caps the grid).
template <>
struct ArrayLaunch<Algo::CgGridSync> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    const T* in = a.in;
    T* out = a.out;
    std::size_t n = a.n();
    Probe probe = p;
    void* args[] = {&in, &out, &n, &probe};
    RL_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(cg_grid_sync<T, Op, Probe>), dim3(a.blocks()), a.block,
                                        args, a.shared(1), a.stream));
  }
};
#endif

}  // namespace rl::kernels
