// Short rows: a warp, a few of its lanes, or one thread a row. A block a row leaves most of its
// threads idle on a row of 16 elements and pays a block's launch for one load; here a row's
// segment of lanes strides along it, and the segment's lanes meet through shuffles that never
// leave it (__shfl_down_sync's width); or a block copies a tile of rows into shared memory and
// each thread adds one row there.
#pragma once
#include <cstddef>
#ifndef __CUDACC_RTC__
#include <type_traits>
#endif

#include "block_common.cuh"
#include "matrix_shapes.h"
#include "shuffle.cuh"
#include "vector_loads.cuh"

namespace rl::kernels {

// Calls f with std::integral_constant<int, lanes> where kFixed and lanes is a power of two up to
// kMost, else with integral_constant<int, 0> (the lanes read at run time). The timed row kernels
// take their lanes as a constant, the traced ones read them: the same loads and adds in the same
// order (docs/benchmarks.md, "Results: row kernels, the lanes as a constant").
// nv_exec_check_disable: f is a host lambda on the host (a launch), a device one in a kernel.
#pragma nv_exec_check_disable
template <bool kFixed, int kMost, class F>
__host__ __device__ __forceinline__ void with_lanes(int lanes, F f) {
  if constexpr (kFixed) {
    switch (lanes) {
      case 1: return f(std::integral_constant<int, 1>{});
      case 2: return f(std::integral_constant<int, 2>{});
      case 4: return f(std::integral_constant<int, 4>{});
      case 8: return f(std::integral_constant<int, 8>{});
      case 16: return f(std::integral_constant<int, 16>{});
      case 32:
        if constexpr (kMost >= 32) return f(std::integral_constant<int, 32>{});
        break;
      default: break;
    }
  }
  f(std::integral_constant<int, 0>{});
}

// <<< row-segments
// Segments of `lanes` neighbouring lanes (a power of two, 1 to 32) each own a row; a warp holds
// 32 / lanes neighbouring rows, a group. Warp w of the grid takes group w, then w + the grid's
// warps, and so on. A lane adds its row's elements `lanes` loads of V apart: V is a 16-byte
// vector where rows_hold_vectors, else one element. Where each lane loads its row in one go,
// kRowLoadsInFlight groups are loaded before any is added; longer rows keep that many loads of
// the row in flight instead. The stages record the warp's first group. kLanes: the lanes as a
// constant (0: `lanes` at run time), so a long row's loads sit at fixed offsets and all issue
// before their adds (with a run-time stride the compiler issued two, then added). kFirstBatch: a
// long row's first kFirstBatch loads taken before the loop (the same loads and adds; 0: none):
// lanes-per-row ran faster so; warp-per-row, tried so with its 32 lanes a constant, ran slower
// (docs/benchmarks.md, "The first batch out of the loop").
// warp, warps: this warp's place among the warps that walk the rows (the grid's, or a block's).
template <class V, class T, class Op, int kLanes = 0, int kFirstBatch = 0, class Probe, class In>
__device__ __forceinline__ void reduce_row_segments(const In* in, T* out, std::size_t rows, std::size_t cols,
                                                    int lanes_arg, const Probe& probe, std::size_t warp,
                                                    std::size_t warps) {
  const int lanes = kLanes ? kLanes : lanes_arg;
  constexpr int per = elements_in<V>;
  constexpr int K = kRowLoadsInFlight;
  const V* in_v = reinterpret_cast<const V*>(in);
  const unsigned lane = threadIdx.x % 32, seg_lane = lane % unsigned(lanes);
  const std::size_t per_warp = std::size_t(32 / lanes);
  const std::size_t row_vectors = cols / per;  // a row's loads of V
  const bool one_load = row_vectors <= std::size_t(lanes);
  const int rounds = one_load ? K : 1;  // groups loaded at once
  int slot = 0;
  bool first = true;
  for (std::size_t g = warp; g * per_warp < rows; g += std::size_t(rounds) * warps) {  // warp-uniform
    T v[K];
#pragma unroll
    for (int u = 0; u < K; ++u) v[u] = Op::template identity<T>();
    if (one_load) {  // K groups' loads in flight, then added
      V q[K];
#pragma unroll
      for (int u = 0; u < K; ++u) {
        const std::size_t row = (g + u * warps) * per_warp + lane / unsigned(lanes);
        if (row < rows && seg_lane < row_vectors) q[u] = in_v[row * row_vectors + seg_lane];  // [row-lanes]
      }
#pragma unroll
      for (int u = 0; u < K; ++u) {
        const std::size_t row = (g + u * warps) * per_warp + lane / unsigned(lanes);
        if (row >= rows || seg_lane >= row_vectors) continue;
        v[u] = fold<Op>(v[u], q[u]);
        probe.load(0, slot++, per * (row * row_vectors + seg_lane), per);
      }
    } else {  // one group, K loads of its row in flight a lane
      const std::size_t row = g * per_warp + lane / unsigned(lanes);
      if (row < rows) {
        const std::size_t end = (row + 1) * row_vectors;
        std::size_t i = row * row_vectors + seg_lane;
        if constexpr (kFirstBatch > 0)
          if (i + (kFirstBatch - 1) * lanes < end)
            v[0] = fold_batch<kFirstBatch, Op>(v[0], in_v, i, lanes, probe, slot), i += kFirstBatch * lanes;
        for (; i + (K - 1) * lanes < end; i += K * lanes)
          v[0] = fold_batch<K, Op>(v[0], in_v, i, lanes, probe, slot);  // [row-segment]  // see <<< fold-batch
        for (; i < end; i += lanes) v[0] = fold_batch<1, Op>(v[0], in_v, i, lanes, probe, slot);
      }
    }
    const std::size_t row0 = g * per_warp + lane / unsigned(lanes);
    if (first) probe.stage(0, one_load ? kTagRowLanes : kTagRowSegment, lanes), probe.lane(0, v[0]);
    if (first) probe.work(0, row0 < rows && seg_lane < row_vectors);
    int stage = 1;
    for (int offset = lanes / 2; offset > 0; offset /= 2, ++stage) {
#pragma unroll
      for (int u = 0; u < K; ++u)  // a lane past its segment's end gets its own value back
        if (u < rounds) v[u] = Op{}(v[u], __shfl_down_sync(0xffffffffu, v[u], offset, lanes));  // [shfl]
      if (first) probe.stage(stage, kTagShuffle, offset), probe.work(stage, true), probe.lane(stage, v[0]);
    }
#pragma unroll
    for (int u = 0; u < K; ++u) {
      const std::size_t row = (g + u * warps) * per_warp + lane / unsigned(lanes);
      if (u < rounds && seg_lane == 0 && row < rows) {
        out[row] = v[u];  // the segment's first lane writes its row
        probe.partial(row, v[u]);
      }
    }
    first = false;
  }
}
// >>>

// The grid's warps walk all the rows.
template <class V, class T, class Op, int kLanes = 0, int kFirstBatch = 0, class Probe, class In>
__device__ __forceinline__ void reduce_row_segments(const In* in, T* out, std::size_t rows, std::size_t cols, int lanes,
                                                    const Probe& probe) {
  reduce_row_segments<V, T, Op, kLanes, kFirstBatch>(in, out, rows, cols, lanes, probe, grid_warp(), grid_warps());
}

// <<< warp-per-row
// A warp a row: its 32 lanes stride along the row one element at a time, then five shuffles
// leave the row's result in lane 0. See <<< row-segments.
// __launch_bounds__(1024): blocks of up to 1024 threads, so the traced instantiation (a probe's
// pointers beside K vectors a lane) keeps to the 64 registers a thread such a block leaves.
template <class T, class Op, class Probe>
__global__ void __launch_bounds__(1024)
    warp_per_row(const T* in, T* out, std::size_t rows, std::size_t cols, Probe probe) {
  reduce_row_segments<T, T, Op>(in, out, rows, cols, 32, probe);  // see <<< row-segments
}
// >>>

// <<< lane-segments
// lanes-per-row's walk: 16-byte loads where every row starts on a 16-byte boundary, else one
// element a load. In: the elements' type, T: the accumulator's (halves and bfloat16 may add in
// float). kEachLanes: one body for each lane count, chosen by a switch (with_lanes), the lanes a
// constant in each (the timed kernel: measured faster than a kernel for each count, and than lanes
// read at run time: docs/benchmarks.md, "Results: row kernels, the lanes as a constant").
// kFirstBatch: a long row's first batch; above kRowLoadsInFlight, the timed kernel of long rows
// (row_first_batch), one body.
template <class T, class Op, class In, bool kEachLanes, int kFirstBatch, class Probe>
__device__ __forceinline__ void lane_segments(const In* in, T* out, std::size_t rows, std::size_t cols, int lanes,
                                              const Probe& probe, std::size_t warp, std::size_t warps) {
  using V = typename Vec16<In>::type;
  const bool vectors = rows_hold_vectors(cols, sizeof(In));
  const auto segments = [&](auto fixed) {
    constexpr int k = decltype(fixed)::value;
    if (vectors)
      reduce_row_segments<V, T, Op, k, kFirstBatch>(in, out, rows, cols, lanes, probe, warp,
                                                    warps);  // see <<< row-segments
    else if constexpr (kFirstBatch == kRowLoadsInFlight)
      reduce_row_segments<In, T, Op, k, kFirstBatch>(in, out, rows, cols, lanes, probe, warp, warps);
  };
  if constexpr (kFirstBatch > kRowLoadsInFlight)
    segments(std::integral_constant<int, kMaxRowLanes>{});  // rows of 16-byte loads, kMaxRowLanes lanes
  else
    with_lanes<kEachLanes, kMaxRowLanes>(lanes, segments);  // row_lanes: a power of two, 1 to kMaxRowLanes
}
// >>>

// <<< lanes-per-row
// A few lanes a row (row_lanes: up to 16), so a warp holds 32 / lanes neighbouring rows; a warp's
// load is one contiguous run where those rows fit in one load each. The grid's warps walk all the
// rows. See <<< row-segments.
template <class T, class Op, class Probe, class In = T>
__global__ void __launch_bounds__(1024)
    lanes_per_row(const In* in, T* out, std::size_t rows, std::size_t cols, int lanes, Probe probe) {
  lane_segments<T, Op, In, false, kRowLoadsInFlight>(in, out, rows, cols, lanes, probe,  // see <<< lane-segments
                                                     grid_warp(), grid_warps());
}
// >>>

// The timed lanes-per-row. Where held_row_share gives a share, block b takes rows [b * share,
// (b + 1) * share), its warps walking them as the grid's warps walk all rows (the same loads and
// adds a row), leaves their sums in shared memory and writes them at its end, one run of memory,
// so they reach DRAM in bursts, not a line at a time amid the reads (docs/benchmarks.md, "Row
// sums held in shared memory"). share 0: the grid's warps walk all rows, as lanes_per_row's do.
// One kernel for both, so one count of blocks an SM, in whose waves its launch entry chooses the
// timed grid (timed_grid).
template <class T, class Op, class In, int kFirstBatch = kRowLoadsInFlight>
__global__ void __launch_bounds__(kFirstBatch > kRowLoadsInFlight ? kLongRowBlock : 1024)
    lanes_per_row_held(const In* in, T* out, std::size_t rows, std::size_t cols, int lanes, std::size_t share) {
  if (share == 0) {  // grid-uniform
    lane_segments<T, Op, In, true, kFirstBatch>(in, out, rows, cols, lanes, NoProbe{}, grid_warp(), grid_warps());
    return;
  }
  T* held = shared_array<T>();
  const std::size_t begin = std::size_t(blockIdx.x) * share;
  if (begin >= rows) return;  // block-uniform
  const std::size_t count = rows - begin < share ? rows - begin : share;
  lane_segments<T, Op, In, true, kFirstBatch>(in + begin * cols, held, count, cols, lanes, NoProbe{}, threadIdx.x / 32,
                                              blockDim.x / 32);
  __syncthreads();
  for (std::size_t i = threadIdx.x; i < count; i += blockDim.x) out[begin + i] = held[i];  // a warp: 32 neighbours
}

// <<< tile-copy
// Copies a tile of `rows` rows, w columns of each from column c0 of row r0 on, into tile, a row
// every pitch cells; thread t takes the tile's elements t, t + blockDim.x, ..., K loads in
// flight. V: a 16-byte vector where the tile holds whole rows (w == cols): then the tile is one
// run of memory starting on a 16-byte boundary (r0 is a multiple of 32 rows), taken as vectors
// and its last elements one at a time; else one element a load. Loads are recorded from `slot`
// on, and in the first tile (`first`) each store from `stored` on.
template <class V, class T, class Probe>
__device__ __forceinline__ void copy_tile(const T* in, T* tile, std::size_t r0, std::size_t c0, std::size_t cols,
                                          unsigned rows, unsigned w, unsigned pitch, const Probe& probe, bool first,
                                          int& slot, int& stored) {
  constexpr int K = kRowLoadsInFlight, per = int(sizeof(V) / sizeof(T));
  const unsigned t = threadIdx.x, threads = blockDim.x, count = rows * w;
  unsigned vectors = 0;
  if constexpr (per > 1) {
    vectors = count / per;
    const V* run = reinterpret_cast<const V*>(in + r0 * cols);
    for (unsigned i = t; i < vectors; i += K * threads) {
      V x[K];
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (i + k * threads < vectors) x[k] = run[i + k * threads];  // [tile-copy]
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const unsigned j = i + k * threads;
        if (j >= vectors) break;
        probe.load(0, slot, r0 * cols + std::size_t(j) * per, per);
        ++slot;
        const T* e = reinterpret_cast<const T*>(&x[k]);
        for (unsigned q = 0, r = j * per / w, c = j * per % w; q < unsigned(per); ++q, ++stored) {
          tile[r * pitch + c] = e[q];  // a vector's elements, cell by cell: a row may end inside it
          if (first) probe.write(0, stored, int(r * pitch + c));
          if (++c == w) c = 0, ++r;
        }
      }
    }
  }
  for (unsigned i = vectors * per + t; i < count; i += K * threads) {  // one element a load
    T x[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned j = i + k * threads;
      if (j < count) x[k] = in[(r0 + j / w) * cols + c0 + j % w];  // [tile-copy]
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned j = i + k * threads;
      if (j >= count) break;
      tile[j / w * pitch + j % w] = x[k];
      probe.load(0, slot, (r0 + j / w) * cols + c0 + j % w);
      if (first) probe.write(0, stored, int(j / w * pitch + j % w));
      ++slot, ++stored;
    }
  }
}
// >>>

// <<< thread-per-row
// A thread a row, through shared memory. A block copies a tile of rows (blockDim.x rows, up to
// tile_cols columns of each) into shared memory with consecutive threads on consecutive
// elements, so a warp's loads are coalesced; then thread t adds its own row there, reading
// tile[t * pitch + c]. At each c a warp's 32 reads lie pitch cells apart: the pitch is tile_cols
// rounded up to an odd number (row_tile_pitch), which puts 32 neighbouring rows in 32 different
// banks. Longer rows take their next tile_cols columns in the next tile; blocks loop over tiles of
// rows by grid stride. The stages record the block's first tile.
template <class T, class Op, class Probe>
__global__ void __launch_bounds__(1024)
    thread_per_row(const T* in, T* out, std::size_t rows, std::size_t cols, int tile_cols, Probe probe) {
  using V = typename Vec16<T>::type;
  T* tile = shared_array<T>();
  const unsigned t = threadIdx.x, threads = blockDim.x, pitch = unsigned(row_tile_pitch(tile_cols));
  bool first = true;
  int slot = 0, stored = 0;  // the thread's loads and (first tile) stores, in program order
  for (std::size_t r0 = std::size_t(blockIdx.x) * threads; r0 < rows; r0 += std::size_t(gridDim.x) * threads) {
    const unsigned tile_rows = unsigned(rows - r0 < threads ? rows - r0 : threads);  // block-uniform
    T v = Op::template identity<T>();
    for (std::size_t c0 = 0; c0 < cols; c0 += std::size_t(tile_cols)) {
      const unsigned w = unsigned(cols - c0 < std::size_t(tile_cols) ? cols - c0 : tile_cols);
      __syncthreads();  // every thread has walked the previous tile
      if (w == cols)    // whole rows: one run of memory
        copy_tile<V>(in, tile, r0, c0, cols, tile_rows, w, pitch, probe, first, slot, stored);  // see <<< tile-copy
      else
        copy_tile<T>(in, tile, r0, c0, cols, tile_rows, w, pitch, probe, first, slot, stored);
      // The pad: nothing reads it, but the identity there keeps a recorded tile free of stale cells.
      if (t < tile_rows && w < pitch) tile[t * pitch + w] = Op::template identity<T>();
      if (first && t < tile_rows && w < pitch) probe.write(0, stored, int(t * pitch + w));
      __syncthreads();
      if (first) probe.stage(0, kTagTileCopy, int(pitch)), probe.work(0, stored > 0);
      if (first) probe.shared(0, tile, int(tile_rows * pitch));
      if (t < tile_rows)
        for (unsigned c = 0; c < w; ++c) {
          v = Op{}(v, tile[t * pitch + c]);  // [row-walk]
          if (first) probe.read(1, int(c), int(t * pitch + c));
        }
      if (first) probe.stage(1, kTagRowWalk, int(w)), probe.work(1, t < tile_rows), probe.lane(1, v);
      first = false;
    }
    if (t < tile_rows) {  // a thread's row, written by it
      out[r0 + t] = v;
      probe.partial(r0 + t, v);
    }
  }
}
// >>>

#ifndef __CUDACC_RTC__  // NVRTC compiles the kernels alone: no host launches
// The launch table's entries for this file's kernels (launch_table.cuh).
template <>
struct MatrixLaunch<Algo::WarpPerRow> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    warp_per_row<T, Op><<<a.grid_2d(), a.block, 0, a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, p);
  }
};

template <>
struct MatrixLaunch<Algo::LanesPerRow> : LaunchEntry {
  template <class T, class Op, class Probe, class In>
  static void launch(const LaunchArgs<T, In>& a, const Probe& p) {
    if constexpr (std::is_same_v<Probe, NoProbe>) {  // timed: a.held rows a block holds (prepare)
      with_first<T, Op, In>(a.m.cols, a.lanes, a.threads, [&](auto first) {
        lanes_per_row_held<T, Op, In, first.value>
            <<<a.grid_2d(), a.block, a.held * sizeof(T), a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, a.lanes, a.held);
      });
    } else {
      lanes_per_row<T, Op, Probe, In>
          <<<a.grid_2d(), a.block, 0, a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, a.lanes, p);
    }
  }
  // The rows a block of the timed kernel holds: held_row_share's share, where its sums leave the
  // blocks an SM holds as they are; else 0.
  template <class T, class Op, class In>
  static void prepare(LaunchArgs<T, In>& a) {
    with_first<T, Op, In>(a.m.cols, a.lanes, a.threads, [&](auto first) {
      const Occupancy o(lanes_per_row_held<T, Op, In, first.value>, a.threads);
      const std::size_t round = row_round(a.m.cols, sizeof(In), a.lanes, a.threads);
      a.held = a.grid.y == 1 ? o.held_share(a.m.rows, a.grid.x, sizeof(T), round) : 0;
    });
  }
  // The timed kernel's grid on `device` (lanes_timed_grid). A wave: the blocks of the kernel an SM
  // holds at once, its registers deciding (the runtime's occupancy query), times the SMs; a held
  // share never lowers it.
  template <class T, class Op, class In>
  static std::size_t timed_grid(Matrix m, int block, DeviceShape device) {
    std::size_t grid = 0;
    with_first<T, Op, In>(m.cols, row_lanes(Algo::LanesPerRow, m.cols, sizeof(In)), block, [&](auto first) {
      const Occupancy o(lanes_per_row_held<T, Op, In, first.value>, block);
      const auto held = [&](std::size_t g) { return o.held_share(m.rows, g, sizeof(T)) != 0; };
      grid = lanes_timed_grid(m, sizeof(In), block, std::size_t(o.blocks) * std::size_t(device.sm_count), device, held);
    });
    return grid;
  }
  // What the runtime says of a kernel in blocks of `block` threads on this GPU: the blocks an SM
  // holds, and the dynamic shared memory a block may take without lowering that count.
  struct Occupancy {
    int blocks = 0;
    std::size_t shared_available = 0;
    template <class Kernel>
    Occupancy(Kernel kernel, int block) {
      RL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, 0));
      if (blocks > 0) RL_CUDA(cudaOccupancyAvailableDynamicSMemPerBlock(&shared_available, kernel, blocks, block));
    }
    // held_row_share's share for a grid of `grid` blocks, where its sums fit in shared_available; else 0.
    std::size_t held_share(std::size_t rows, std::size_t grid, std::size_t sum_bytes, std::size_t round = 0) const {
      const std::size_t share = held_row_share(rows, grid, sum_bytes, round);
      return share && share * sum_bytes <= shared_available ? share : 0;
    }
  };
  // Calls f(integral_constant<int, first batch>): timed float sums on long rows take a longer first
  // batch (row_first_batch says which), the rest kRowLoadsInFlight.
  template <class T, class Op, class In, class F>
  static void with_first(std::size_t cols, int lanes, int block, F f) {
    if constexpr (std::is_same_v<In, float> && std::is_same_v<Op, ops::Sum>) {
      const int first = row_first_batch(cols, lanes, block);
      if (first == kLongRowLoads) return f(std::integral_constant<int, kLongRowLoads>{});
      if (first == kLongRowLoads / 2) return f(std::integral_constant<int, kLongRowLoads / 2>{});
    }
    f(std::integral_constant<int, kRowLoadsInFlight>{});
  }
};

template <>
struct MatrixLaunch<Algo::ThreadPerRow> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    thread_per_row<T, Op><<<a.grid_2d(), a.block, a.shared(std::size_t(row_tile_pitch(a.tile_cols))), a.stream>>>(
        a.in, a.out, a.m.rows, a.m.cols, a.tile_cols, p);
  }
};

#endif

}  // namespace rl::kernels
