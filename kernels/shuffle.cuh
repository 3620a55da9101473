// Warp-shuffle reductions of an array: registers instead of shared memory inside each warp; and
// the single-pass and Hopper kernels built on them. The block's shuffles are in block_shuffle.cuh,
// the ends of a launch's chunks in chunk_ends.cuh, the matrix rows in shuffle_rows.cuh.
#pragma once
#include <cooperative_groups.h>
#include <cuda/ptx>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "atomics.cuh"
#include "shapes.h"
#include "matrix_shapes.h"
#include "block_common.cuh"
#include "block_shuffle.cuh"
#include "chunk_ends.cuh"
#include "narrow_types.h"
#include "vector_loads.cuh"

namespace rl::kernels {

// <<< warp-shuffle
// In: the elements' type, T: the accumulator's (they differ for half or bfloat16 added in float).
template <class T, class Op, class Probe, class In = T>
__global__ void warp_shuffle(const In* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();  // one cell per warp
  const unsigned tid = threadIdx.x;
  T v = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  v = block_shuffle<T, Op>(v, smem, probe, stage);  // see <<< block-shuffle
  if (tid == 0) out[blockIdx.x] = v;
  if (tid == 0) probe.partial(blockIdx.x, v);
}
// >>>

// <<< cluster-fold
// Each block's values to its warp totals in shared memory; then the cluster's first block reads
// every block's through distributed shared memory (DSMEM) and folds them (block_shuffle): the
// cluster's total in its thread 0. Every block of the cluster calls it. Returns the cluster's
// blocks in its first block, 0 in the others. Records stages from `stage` on.
template <class T, class Op, class Probe>
__device__ __forceinline__ unsigned cluster_fold(T& v, T* smem, const Probe& probe, int& stage) {
#if __CUDA_ARCH__ >= 900
  namespace cg = cooperative_groups;
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32, warps = blockDim.x / 32;
  v = warp_shuffles<T, Op>(v, probe, stage);  // see <<< warp-shuffles
  if (lane == 0) {
    smem[warp] = v;  // [warp-sums]
    probe.write(stage, 0, warp);
  }
  probe.stage(stage, kTagWarpSums, 0), probe.work(stage, lane == 0);
  // Every block of the cluster has written its warp totals, and they are visible to the cluster.
  cluster.sync();
  probe.shared(stage++, smem, warps);

  const unsigned blocks = cluster.num_blocks(), first = cluster.block_rank() == 0;
  if (first) {
    // Thread t reads cell t % warps of block t / warps: every warp total of the cluster.
    const unsigned from = tid / warps;
    v = Op::template identity<T>();
    if (from < blocks) {
      v = cluster.map_shared_rank(smem, from)[tid % warps];  // [dsmem-read]
      probe.remote_read(stage, 0, int(from), int(tid % warps));
    }
    probe.stage(stage, kTagDsmemRead, int(blocks)), probe.work(stage, from < blocks), probe.lane(stage, v);
    ++stage;
    __syncthreads();  // this block's own cells are read before block_shuffle writes them again
    v = block_shuffle<T, Op>(v, smem, probe, stage);  // see <<< block-shuffle
  }
  // A block's shared memory ends with it: none leaves while the first block may still read it.
  cluster.sync();
  return first ? blocks : 0;
#else
  __trap();  // clusters need sm_90: the host refuses older devices before a launch
  return 0;
#endif
}
// >>>

// <<< cluster-dsmem
// Blocks in clusters of 2, 4 or 8 (the launch's cluster dimension), one element a thread; one
// result a cluster.
template <class T, class Op, class Probe>
__global__ void cluster_dsmem(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();                                                                      // one cell per warp
  T v = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  const unsigned blocks = cluster_fold<T, Op>(v, smem, probe, stage);  // see <<< cluster-fold
  if (blocks != 0 && threadIdx.x == 0) out[blockIdx.x / blocks] = v;
  if (blocks != 0 && threadIdx.x == 0) probe.partial(blockIdx.x / blocks, v);
}
// >>>

// <<< vector-loads
// A thread's share of in[0..n): 16-byte vectors by grid stride, eight independent loads in flight,
// then 4, 2 and 1 for the rest, all folded in grid-stride order; then the scalar tail. T is the
// element type; Acc the accumulator: the element type, float for halves and bfloat16 added in
// float, or a compensated sum (ops::Neumaier).
template <class T, class Op, class Acc, class Probe>
__device__ __forceinline__ Acc fold_vectors(Acc v, const T* __restrict__ in, std::size_t n, const Probe& probe) {
  using V = typename Vec16<T>::type;
  constexpr std::size_t per = elements_in<V>;
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t vectors = n / per;  // cudaMalloc'd input: 16-byte aligned
  const V* in16 = reinterpret_cast<const V*>(in);
  std::size_t i = gid;
  int slot = 0;
  for (; i + 7 * threads < vectors; i += 8 * threads)
    v = fold_batch<8, Op>(v, in16, i, threads, probe, slot);  // see <<< fold-batch
  if (i + 3 * threads < vectors) v = fold_batch<4, Op>(v, in16, i, threads, probe, slot), i += 4 * threads;
  if (i + threads < vectors) v = fold_batch<2, Op>(v, in16, i, threads, probe, slot), i += 2 * threads;
  if (i < vectors) v = fold_batch<1, Op>(v, in16, i, threads, probe, slot);
  for (std::size_t j = per * vectors + gid; j < n; j += threads) {
    v = fold<Op>(v, in[j]);  // the scalar tail
    probe.load(0, slot++, j);
  }
  return v;
}
// >>>

// <<< warp-shuffle-vectorized
// `next` (may be null) is where the following launch will combine: block 0 sets it to the
// identity, so no memset or init kernel runs between launches.
template <class T, class Op, class Probe, class In = T>
__global__ void warp_shuffle_vectorized(const In* __restrict__ in, T* out, std::size_t n, Probe probe, T* next) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  T v = fold_vectors<In, Op>(Op::template identity<T>(), in, n, probe);  // [vector-load]  // see <<< vector-loads
  probe.stage(0, kTagVectorLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  v = block_shuffle<T, Op>(v, smem, probe, stage);  // see <<< block-shuffle
  if (tid == 0) atomic_combine<Op>(out, v);  // [atomic]: one atomic per block, a single pass
  if (tid == 0 && blockIdx.x == 0 && next) *next = Op::template identity<T>();  // [ready-next]
  if (tid == 0) probe.partial(blockIdx.x, v);
  probe.stage(stage, kTagAtomic, 0), probe.work(stage, tid == 0);
}
// >>>

// <<< in-order
// The block's values to its total (block_shuffle's stages from `stage` on), stored in the block's
// own cell of `partials`; the block that takes the last ticket folds them all (fold_last_chunk over
// one row of gridDim.x chunks), in the same order every run.
template <class T, class Op, class Probe>
__device__ __forceinline__ void fold_in_order(T v, T* smem, const Probe& probe, int& stage, T* partials, T* out,
                                              unsigned* retired) {
  v = block_shuffle<T, Op>(v, smem, probe, stage);  // see <<< block-shuffle
  if (threadIdx.x == 0) partials[blockIdx.x] = v;
  if (threadIdx.x == 0) probe.partial(blockIdx.x, v);
  fold_last_chunk<T, Op>(partials, out, gridDim.x, retired, smem);  // see <<< last-chunk
}
// >>>

// <<< vectorized-ordered
// warp-shuffle-vectorized's loads and shuffles without its atomic: each block's total goes to its
// own cell of `partials`, and the block that takes the last ticket folds them, in the same order
// every run (fold_in_order).
// __maxnreg__(32): at most 32 registers a thread, so 2048 threads fit an H100's SM; without it this
// kernel's float loop and compensated's double one took 34 and ran at half occupancy
// (docs/benchmarks.md, the fixed order).
template <class T, class Op, class Probe>
__global__ void __maxnreg__(32)
    vectorized_ordered(const T* __restrict__ in, T* out, std::size_t n, Probe probe, T* partials, unsigned* retired) {
  T* smem = shared_array<T>();
  T v = fold_vectors<T, Op>(Op::template identity<T>(), in, n, probe);  // [vector-load]  // see <<< vector-loads
  probe.stage(0, kTagVectorLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  fold_in_order<T, Op>(v, smem, probe, stage, partials, out, retired);  // see <<< in-order
}
// >>>

// <<< compensated
// vectorized-ordered with a compensated loop: each thread's adds keep what their roundings lost
// (ops::Neumaier) and add it back once, at the end of the loop; the block's shuffles and the last
// block's fold add plainly. Sums of floats and doubles only (kernels::takes).
// At most 32 registers a thread, as vectorized-ordered's.
template <class T, class Op, class Probe>
__global__ void __maxnreg__(32)
    compensated(const T* __restrict__ in, T* out, std::size_t n, Probe probe, T* partials, unsigned* retired) {
  T* smem = shared_array<T>();
  const ops::Neumaier<T> acc =
      fold_vectors<T, Op>(ops::Neumaier<T>{}, in, n, probe);  // [vector-load]  // see <<< vector-loads
  probe.stage(0, kTagVectorLoad, 0), probe.work(0, true), probe.lane(0, acc.sum);
  T v = ops::total(acc);  // [compensate]: the running sum plus what its roundings lost
  probe.stage(1, kTagCompensate, 0), probe.work(1, true), probe.lane(1, v);

  int stage = 2;
  fold_in_order<T, Op>(v, smem, probe, stage, partials, out, retired);  // see <<< in-order
}
// >>>

// <<< work-queue
// Ticket c covers vectors [c * chunk, (c + 1) * chunk), chunk = kQueueVectors x block.

// Where one launch counts its tickets and combines; block 0 readies the next launch's pair.
template <class T>
struct QueueSlot {
  T* out;
  unsigned long long* taken;  // tickets handed out past the first grid's worth; 0 at launch
  T* next_out;                // may be null: no later launch to prepare
  unsigned long long* next_taken;
};

template <class T, class Op, class Probe, class In = T>
__global__ void work_queue(const In* __restrict__ in, std::size_t n, Probe probe, QueueSlot<T> q) {
  using V = typename Vec16<In>::type;
  constexpr std::size_t per = elements_in<V>;
  T* smem = shared_array<T>();
  __shared__ unsigned long long ticket[2];
  const unsigned tid = threadIdx.x;
  const std::size_t vectors = n / per, chunk = std::size_t(kQueueVectors) * blockDim.x;
  const std::size_t tickets = (vectors + chunk - 1) / chunk;
  const V* in16 = reinterpret_cast<const V*>(in);
  if (tid == 0) ticket[0] = blockIdx.x;  // the first ticket needs no counter
  __syncthreads();
  T v = Op::template identity<T>();
  int slot = 0;
  for (int b = 0;; b ^= 1) {
    const std::size_t c = ticket[b];
    if (c >= tickets) break;
    // Thread 0 asks for the next ticket while the block loads this one: an SM that streams
    // faster comes back sooner and takes more.
    if (tid == 0) ticket[b ^ 1] = gridDim.x + atomicAdd(q.taken, 1ull);  // [take-ticket]
    if (tid == 0) probe.ticket(c);
    const std::size_t i = c * chunk + tid;
    if (c * chunk + chunk <= vectors) {
      v = fold_batch<kQueueVectors, Op>(v, in16, i, blockDim.x, probe, slot);  // [vector-load]  // see <<< fold-batch
    } else {
      for (std::size_t j = i; j < vectors; j += blockDim.x) v = fold_batch<1, Op>(v, in16, j, 0, probe, slot);  // the last, short ticket
    }
    __syncthreads();  // the next ticket is visible, and no thread still reads this one
  }
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t j = per * vectors + std::size_t(blockIdx.x) * blockDim.x + tid; j < n; j += threads) {
    v = fold<Op>(v, in[j]);  // the scalar tail
    probe.load(0, slot++, j);
  }
  probe.stage(0, kTagVectorLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  v = block_shuffle<T, Op>(v, smem, probe, stage);  // see <<< block-shuffle
  if (tid == 0) atomic_combine<Op>(q.out, v);  // [atomic]
  if (tid == 0 && blockIdx.x == 0 && q.next_out) *q.next_out = Op::template identity<T>(), *q.next_taken = 0;
  if (tid == 0) probe.partial(blockIdx.x, v);
  probe.stage(stage, kTagAtomic, 0), probe.work(stage, tid == 0);
}
// >>>

namespace ptx = cuda::ptx;

// One bulk reduction of kBulkReduceBytes from shared memory into global memory: .add for int,
// float and double, .min and .max for int (PTX has no f32 or f64 bulk min or max: kernels::takes
// refuses them before a launch, and they never reach this).
template <class Op, class T>
__device__ __forceinline__ void bulk_reduce(T* out, const T* from) {
#if __CUDA_ARCH__ >= 900
  constexpr std::uint32_t bytes = kBulkReduceBytes;
  if constexpr (std::is_same_v<Op, ops::Sum>)
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, out, from, bytes);
  else if constexpr (std::is_same_v<T, int> && std::is_same_v<Op, ops::Min>)
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_min, out, from, bytes);
  else if constexpr (std::is_same_v<T, int> && std::is_same_v<Op, ops::Max>)
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_max, out, from, bytes);
  else
    __trap();
#else
  __trap();  // sm_90 and later; the host refuses older GPUs before a launch
#endif
}

// <<< bulk-hand-out
// Thread 0 hands the block's result out: kBulkReduceBytes of shared memory (the result, then
// identities that change nothing), one bulk reduction into `out`, and a wait until it has read
// them, so the block's shared memory outlives the read.
template <class T, class Op>
__device__ __forceinline__ void bulk_hand_out(T v, T* out, T* staging) {
  staging[0] = v;
  for (unsigned i = 1; i < kBulkReduceBytes / sizeof(T); ++i) staging[i] = Op::template identity<T>();
  ptx::fence_proxy_async(ptx::space_shared);  // the writes above are visible to the bulk reduction
  bulk_reduce<Op>(out, staging);              // [bulk-reduce]
  ptx::cp_async_bulk_commit_group();
  ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
}
// >>>

// The block's dynamic shared memory from its first kRingAlignBytes boundary: where bulk copies
// write (the launch asks kRingAlignBytes more).
template <class T>
__device__ __forceinline__ T* ring_array() {
  unsigned char* raw = shared_array<unsigned char>();
  const auto at = unsigned(__cvta_generic_to_shared(raw));
  return reinterpret_cast<T*>(raw + (kRingAlignBytes - at % kRingAlignBytes) % kRingAlignBytes);
}

// <<< bulk-ring
// The block's tiles (blockIdx.x, + gridDim.x, ...) of tile_vectors 16-byte vectors each, through
// a ring of kStages buffers in shared memory, an mbarrier each: thread 0 keeps the next tiles
// copying while the block folds one. kTileVectors: 0 for a vector a thread (bulk-async), else
// thread t folds vectors t, t + blockDim.x, ... of each tile. Then the array's scalar tail,
// block_shuffle, and one bulk reduction hands the block's result out. `next` (may be null): the
// bytes the following launch reduces into; block 0 readies them.
template <class T, class Op, int kStages, int kTileVectors, class Probe>
__device__ __forceinline__ void bulk_ring(const T* __restrict__ in, T* out, std::size_t n, const Probe& probe,
                                          T* next) {
  using V = typename Vec16<T>::type;
  constexpr unsigned per = sizeof(V) / sizeof(T), cells = kBulkReduceBytes / sizeof(T);
  __shared__ alignas(16) T staging[cells];
  __shared__ T warp_totals[32];
  __shared__ std::uint64_t full[kStages];
  V* tiles = ring_array<V>();  // kStages buffers of tile_vectors vectors, on a 128-byte boundary
  const unsigned tid = threadIdx.x;
  const std::size_t tile_vectors = kTileVectors ? std::size_t(kTileVectors) : std::size_t(blockDim.x);
  const std::size_t vectors = n / per, count = (vectors + tile_vectors - 1) / tile_vectors;
  const V* in16 = reinterpret_cast<const V*>(in);  // cudaMalloc'd input: 16-byte aligned
  const auto held = [&](std::size_t tile) {        // vectors in tile: the last may be short
    return vectors - tile * tile_vectors < tile_vectors ? vectors - tile * tile_vectors : tile_vectors;
  };
  const auto start = [&](std::size_t tile, int s) {  // thread 0 only
    const auto bytes = unsigned(held(tile) * sizeof(V));
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                   bytes);  // [bulk-copy]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tiles + s * tile_vectors, in16 + tile * tile_vectors,
                       bytes, &full[s]);
  };
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);  // one arrival: thread 0's
    ptx::fence_proxy_async(ptx::space_shared);  // the barriers, initialised, are visible to the copies
    for (int s = 0; s < kStages && blockIdx.x + std::size_t(s) * gridDim.x < count; ++s)
      start(blockIdx.x + std::size_t(s) * gridDim.x, s);
  }
  const int first_bytes = blockIdx.x < count ? int(held(blockIdx.x) * sizeof(V)) : 0;
  probe.stage(0, kTagBulkCopy, first_bytes), probe.work(0, tid == 0);
  __syncthreads();  // no thread waits on a barrier before it is initialised

  T v = Op::template identity<T>();
  std::size_t k = 0;
  for (std::size_t tile = blockIdx.x; tile < count; tile += gridDim.x, ++k) {
    const int s = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], std::uint32_t(k / kStages) & 1u)) {  // [bulk-wait]
    }
    const V* buffer = tiles + s * tile_vectors;
    if (k == 0) probe.shared(1, reinterpret_cast<const T*>(buffer), int(held(tile) * per));
    const std::size_t here = held(tile);
    if constexpr (kTileVectors == 0) {
      if (tid < unsigned(here)) v = fold<Op>(v, buffer[tid]);  // [tile-fold]
    } else {
      for (std::size_t j = tid; j < here; j += blockDim.x) v = fold<Op>(v, buffer[j]);  // [tile-fold]
    }
    __syncthreads();  // every thread has read buffer s: it may be refilled
    const std::size_t later = tile + std::size_t(kStages) * gridDim.x;
    if (tid == 0 && later < count) {
      ptx::fence_proxy_async(ptx::space_shared);  // the reads above (generic proxy) before the copy's writes
      start(later, s);
    }
  }
  probe.stage(1, kTagBulkWait, first_bytes), probe.work(1, blockIdx.x < count);
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + tid, threads = std::size_t(gridDim.x) * blockDim.x;
  int slot = 0;
  for (std::size_t j = per * vectors + gid; j < n; j += threads) {
    v = Op{}(v, in[j]);  // the scalar tail, from global memory
    probe.load(2, slot++, j);
  }
  probe.stage(2, kTagTileFold, 0), probe.work(2, true), probe.lane(2, v);

  int stage = 3;
  v = block_shuffle<T, Op>(v, warp_totals, probe, stage);  // see <<< block-shuffle
  if (tid == 0) bulk_hand_out<T, Op>(v, out, staging);     // see <<< bulk-hand-out
  if (tid == 0 && blockIdx.x == 0 && next)
    for (unsigned i = 0; i < cells; ++i) next[i] = Op::template identity<T>();
  if (tid == 0) probe.partial(blockIdx.x, v);
  probe.stage(stage, kTagBulkReduce, int(kBulkReduceBytes)), probe.work(stage, tid == 0);
}
// >>>

// <<< bulk-async
// A tile of blockDim.x 16-byte vectors, one a thread; a ring of kBulkStages buffers keeps the next
// ones copying while one is folded.
template <class T, class Op, class Probe>
__global__ void bulk_async(const T* __restrict__ in, T* out, std::size_t n, Probe probe, T* next) {
#if __CUDA_ARCH__ >= 900
  bulk_ring<T, Op, kBulkStages, 0>(in, out, n, probe, next);  // see <<< bulk-ring
#else
  __trap();  // sm_90 and later; the host refuses older GPUs before a launch
#endif
}
// >>>

// The warp reduce instruction (family hopper): redux.sync where warp-shuffle has five shuffles.
// __reduce_add_sync, __reduce_min_sync or __reduce_max_sync (redux.sync): every lane of the
// warp gets the reduction of the 32 lanes' values. int only: the row refuses other types before
// a launch (AlgorithmRow::ints_only), and they never reach this.
template <class Op, class T>
__device__ __forceinline__ T warp_redux(T v) {
#if __CUDA_ARCH__ < 800
  __trap();  // sm_80 and later; the host refuses older GPUs before a launch (kernels::needs)
  return v;
#else
  if constexpr (std::is_same_v<T, int>) {
    if constexpr (std::is_same_v<Op, ops::Min>)
      return __reduce_min_sync(0xffffffffu, v);
    else if constexpr (std::is_same_v<Op, ops::Max>)
      return __reduce_max_sync(0xffffffffu, v);
    else
      return __reduce_add_sync(0xffffffffu, v);
  } else {
    __trap();
    return v;
  }
#endif
}

// <<< block-redux
// block-shuffle's shape with one instruction where it has five shuffles: each warp's redux, one
// shared cell per warp, then warp 0 reduces those. Records stages from `stage` on.
template <class T, class Op, class Probe>
__device__ __forceinline__ T block_redux(T v, T* smem, const Probe& probe, int& stage) {
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned warps = blockDim.x / 32;
  v = warp_redux<Op>(v);  // [redux]
  probe.stage(stage, kTagRedux, 0), probe.work(stage, true), probe.lane(stage, v);
  ++stage;
  if (lane == 0) {
    smem[warp] = v;  // [warp-sums]
    probe.write(stage, 0, warp);
  }
  probe.stage(stage, kTagWarpSums, 0), probe.work(stage, lane == 0);
  __syncthreads();
  probe.shared(stage++, smem, warps);

  if (warp == 0) {
    v = lane < warps ? smem[lane] : Op::template identity<T>();  // [final-load]
    if (lane < warps) probe.read(stage, 0, lane);
  }
  probe.stage(stage, kTagFinalLoad, 0), probe.work(stage, warp == 0), probe.lane(stage, v);
  ++stage;
  if (warp == 0) v = warp_redux<Op>(v);  // [final-redux]
  probe.stage(stage, kTagFinalRedux, 0), probe.work(stage, warp == 0), probe.lane(stage, v);
  ++stage;
  return v;
}
// >>>

// <<< redux-sync
template <class T, class Op, class Probe>
__global__ void redux_sync(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();  // one cell per warp
  const unsigned tid = threadIdx.x;
  T v = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  v = block_redux<T, Op>(v, smem, probe, stage);  // see <<< block-redux
  if (tid == 0) out[blockIdx.x] = v;
  if (tid == 0) probe.partial(blockIdx.x, v);
}
// >>>

// The streaming forms of the Hopper kernels (issue 53): each feature where the bytes stream, beside
// the teaching forms above that reduce one element (or 16 bytes) a thread a tile. Every thread
// folds many 16-byte vectors first; the feature then does what it is for.
// <<< redux-sync-streaming
// warp-shuffle-vectorized's loads, then redux.sync where it has five shuffles a warp
// (block_redux), then one atomic a block. ints only (AlgorithmRow::ints_only).
// `next` (may be null): the following launch's result; block 0 readies it.
template <class T, class Op, class Probe>
__global__ void redux_sync_streaming(const T* __restrict__ in, T* out, std::size_t n, Probe probe, T* next) {
  T* smem = shared_array<T>();  // one cell per warp
  const unsigned tid = threadIdx.x;
  T v = fold_vectors<T, Op>(Op::template identity<T>(), in, n, probe);  // [vector-load]  // see <<< vector-loads
  probe.stage(0, kTagVectorLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  v = block_redux<T, Op>(v, smem, probe, stage);  // see <<< block-redux
  if (tid == 0) atomic_combine<Op>(out, v);       // [atomic]
  if (tid == 0 && blockIdx.x == 0 && next) *next = Op::template identity<T>();
  if (tid == 0) probe.partial(blockIdx.x, v);
  probe.stage(stage, kTagAtomic, 0), probe.work(stage, tid == 0);
}
// >>>

// <<< cluster-dsmem-streaming
// Every block folds its 16-byte vectors by grid stride; the cluster's blocks meet through DSMEM
// (see <<< cluster-fold) and its first block stores the cluster's total in its own cell of
// `partials`; the first block of the last cluster to finish folds those cells in a fixed order
// (see <<< last-chunk). One launch; the same bits every run.
template <class T, class Op, class Probe>
__global__ void cluster_dsmem_streaming(const T* __restrict__ in, T* out, std::size_t n, Probe probe, T* partials,
                                        unsigned* retired) {
  T* smem = shared_array<T>();                                          // one cell per warp
  T v = fold_vectors<T, Op>(Op::template identity<T>(), in, n, probe);  // [vector-load]  // see <<< vector-loads
  probe.stage(0, kTagVectorLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  const unsigned blocks = cluster_fold<T, Op>(v, smem, probe, stage);  // see <<< cluster-fold
  if (blocks == 0) return;  // not the cluster's first block: its part is in the first's total
  const std::size_t clusters = gridDim.x / blocks;
  if (threadIdx.x == 0) partials[blockIdx.x / blocks] = v;
  if (threadIdx.x == 0) probe.partial(blockIdx.x / blocks, v);
  fold_last<T, Op>(partials, out, clusters, retired, smem);  // [last-cluster]  // see <<< last-chunk
}
// >>>

// <<< bulk-async-streaming
// bulk-async with tiles of kTileBytes whatever the block (several 16-byte vectors a thread), and
// kStages of them a block in flight or in use: fewer, larger copies, and a wait and a barrier
// for every few vectors a thread rather than for every one. The row holds both numbers.
template <class T, class Op, class Probe, int kTileBytes, int kStages>
__global__ void bulk_async_streaming(const T* __restrict__ in, T* out, std::size_t n, Probe probe, T* next) {
#if __CUDA_ARCH__ >= 900
  bulk_ring<T, Op, kStages, kTileBytes / kVectorBytes>(in, out, n, probe, next);  // see <<< bulk-ring
#else
  __trap();  // sm_90 and later; the host refuses older GPUs before a launch
#endif
}
// >>>

}  // namespace rl::kernels
