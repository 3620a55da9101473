// flat-rows: a matrix's rows of any length read as one flat array. Bulk copies bring each block's
// run of whole rows into shared memory in tiles on 128-byte boundaries, so where a row starts never
// decides the loads; a few neighbouring threads then add each row of the tile there.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "block_common.cuh"
#include "matrix_shapes.h"
#include "short_rows.cuh"
#include "shuffle.cuh"

namespace rl::kernels {

// <<< flat-rows
// Block b takes a run of whole rows (flat_run), so no row is split between blocks, and streams
// it in tiles copied flat into shared memory by bulk copies: a tile starts on a 128-byte
// boundary (kFlatAlignBytes: copies run faster from there), so a copy never cares where a row starts. kFlatStages
// buffers, an mbarrier each, keep the next tiles copying while one is added. In a tile, `lanes` neighbouring threads
// add each row's elements there (flat_row_lanes: a warp's reads in 32 banks), meet through shuffles, and the first of
// them writes the row; a row cut by the tile's end hands its sum so far to the next tile through `carry`. The stages
// record the block's first tile and each warp's first rows. `held` (the timed kernel, flat_held_rows): the row sums
// go to a ring of that many past the buffers and reach memory in runs of whole lines (flat_flush_due), not a line
// at a time amid the copies; 0: each row is written as it ends. In: the elements' type; T: the sums' (halves and
// bfloat16 may add in float: each element widened as it is added).
template <class T, class Op, class Probe, class In = T, int kLanes = 0>
__global__ void __launch_bounds__(1024) flat_rows(const In* __restrict__ in, T* out, std::size_t rows, std::size_t cols,
                                                  int lanes_arg, int held, Probe probe) {
#if __CUDA_ARCH__ >= 900
  const int lanes = kLanes ? kLanes : lanes_arg;  // a constant in the timed kernel (see its launch)
  constexpr std::size_t per = kVectorBytes / sizeof(In), tile = kFlatTileBytes / sizeof(In);
  __shared__ std::uint64_t full[kFlatStages];
  __shared__ T carry[2];           // a cut row's sum so far: written in one tile, read in the next
  In* buffers = ring_array<In>();  // kFlatStages tiles on a 128-byte boundary, then `held` row sums
  T* sums = reinterpret_cast<T*>(buffers + std::size_t(kFlatStages) * tile);
  const std::size_t ring = std::size_t(held) - 1;  // held is a power of two: a row's place by mask
  const unsigned tid = threadIdx.x, lane = tid % 32;
  const FlatRun run = flat_run(rows, cols, gridDim.x, blockIdx.x, sizeof(In));
  const std::size_t copy_end = flat_copy_end(run, rows * cols, per);
  const std::size_t count = (run.hi - run.base + tile - 1) / tile;  // every block has a row
  const auto start = [&](std::size_t k, int s) {                    // thread 0 only
    const std::size_t t0 = run.base + k * tile, end = copy_end < t0 + tile ? copy_end : t0 + tile;
    const unsigned bytes = end > t0 ? unsigned((end - t0) * sizeof(In)) : 0u;
    if (bytes == 0) {  // no whole vector to copy: the phase completes on the arrival alone
      ptx::mbarrier_arrive(&full[s]);
      return;
    }
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s],
                                   bytes);  // [bulk-copy]
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buffers + std::size_t(s) * tile, in + t0, bytes,
                       &full[s]);
  };
  if (tid == 0) {
    for (int s = 0; s < kFlatStages; ++s) ptx::mbarrier_init(&full[s], 1);  // one arrival: thread 0's
    ptx::fence_proxy_async(ptx::space_shared);  // the barriers, initialised, are visible to the copies
    for (int s = 0; s < kFlatStages && std::size_t(s) < count; ++s) start(std::size_t(s), s);
  }
  __syncthreads();                     // no thread waits on a barrier before it is initialised
  const int c = int(cols);             // at most 2^29 (check_matrix_launch): offsets in a tile stay 32-bit
  const int shift = __ffs(lanes) - 1;  // lanes is a power of two: a task's row and lane by shift and mask
  std::size_t first_row = run.first;   // the row holding the tile's first element of the run
  std::size_t flushed = run.first;     // held: the rows before this one are written
  const std::size_t tile_rows = flat_tile_rows(cols, sizeof(In));
  int f0 = int(run.lo - run.base);     // where that row starts, from the tile's start (<= 0 after the first)
  for (std::size_t k = 0; k < count; ++k) {
    const int s = int(k % kFlatStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], std::uint32_t(k / kFlatStages) & 1u)) {  // [bulk-wait]
    }
    In* b = buffers + std::size_t(s) * tile;
    const std::size_t t0 = run.base + k * tile, w1 = run.hi < t0 + tile ? run.hi : t0 + tile;
    const int from = k == 0 ? int(run.lo - run.base) : 0, to = int(w1 - t0);  // the run's part of the tile
    if (w1 > copy_end) {  // the matrix's last elements, past its last whole vector
      int slot = 0;
      for (std::size_t e = copy_end + tid; e < w1; e += blockDim.x) {  // the tile holds copy_end
        b[e - t0] = in[e];
        probe.load(0, slot++, e);
      }
      __syncthreads();
    }
    if (k == 0) {
      const std::size_t copied = copy_end > t0 ? (copy_end < t0 + tile ? copy_end : t0 + tile) - t0 : 0;
      probe.stage(0, kTagBulkWait, int(copied * sizeof(In))), probe.work(0, true);
      probe.shared(0, b, to);
    }
    const int here = int(unsigned(to - 1 - f0) / unsigned(c)) + 1;  // rows with elements in the tile
    const int tasks = here * lanes;
    for (int q = int(tid - lane); q < tasks; q += int(blockDim.x)) {  // warp-uniform
      const int t = q + int(lane), i = t >> shift, l = t & (lanes - 1);
      const int rs = f0 + i * c;  // row i's start in the tile; its piece here: [a, z)
      const int a = rs > from ? rs : from, z = rs + c < to ? rs + c : to;
      const bool recorded = k == 0 && q == int(tid - lane);
      T v = Op::template identity<T>();
      int slot = 0;
      if (t < tasks) {
        int j = a + l;
        for (; j + 3 * lanes < z; j += 4 * lanes) {  // four reads in flight, added in order
          In x[4];
          for (int u = 0; u < 4; ++u) x[u] = b[j + u * lanes];
          for (int u = 0; u < 4; ++u) {
            v = fold<Op>(v, x[u]);  // [row-lanes]
            if (recorded) probe.read(1, slot++, j + u * lanes);
          }
        }
        for (; j < z; j += lanes) {
          v = fold<Op>(v, b[j]);  // [row-lanes]
          if (recorded) probe.read(1, slot++, j);
        }
      }
      if (recorded) probe.stage(1, kTagRowLanes, lanes), probe.work(1, t < tasks), probe.lane(1, v);
      int stage = 2;
      for (int offset = lanes / 2; offset > 0; offset /= 2, ++stage) {
        v = Op{}(v, __shfl_down_sync(0xffffffffu, v, offset, lanes));  // [shfl]
        if (recorded) probe.stage(stage, kTagShuffle, offset), probe.work(stage, true), probe.lane(stage, v);
      }
      if (t < tasks && l == 0) {
        if (rs < from) v = Op{}(carry[k & 1], v);  // the row began in the tile before
        if (rs + c > to) {
          carry[(k + 1) & 1] = v;  // it goes on in the next tile
        } else if (held) {
          sums[(first_row + std::size_t(i)) & ring] = v;
        } else {
          out[first_row + std::size_t(i)] = v;
          probe.partial(first_row + std::size_t(i), v);
        }
      }
    }
    const int skip = int(unsigned(int(tile) - f0) / unsigned(c));  // rows that end before the next tile
    first_row += std::size_t(skip), f0 += skip * c - int(tile);
    __syncthreads();  // every thread has read buffer s, and the carry is written
    if (tid == 0 && k + kFlatStages < count) {
      ptx::fence_proxy_async(ptx::space_shared);  // the reads above (generic proxy) before the copy's writes
      start(k + kFlatStages, s);
    }
    const std::size_t done = k + 1 == count ? run.end : first_row;  // rows ended so far
    if (held && (k + 1 == count || flat_flush_due(done - flushed, tile_rows, held))) {
      for (std::size_t r = flushed + tid; r < done; r += blockDim.x) out[r] = sums[r & ring];
      flushed = done;  // read while the next tile's rows are written: flat_flush_due keeps them apart
    }
  }
#else
  __trap();  // sm_90 and later; the host refuses older GPUs before a launch
#endif
}
// >>>

#ifndef __CUDACC_RTC__  // NVRTC compiles the kernels alone: no host launches
// The row's buffers, and the timed kernel's held row sums (flat_held_rows; the traced kernel writes each row as it
// ends, so the trace records it), past the 48 KB a launch gets unasked: the attribute is raised once per
// instantiation.
template <>
struct MatrixLaunch<Algo::FlatRows> : LaunchEntry {
  template <class T, class Op, class Probe, class In>
  static void launch(const LaunchArgs<T, In>& a, const Probe& p) {
    constexpr bool timed = std::is_same_v<Probe, NoProbe>;
    const int held = timed ? flat_held_rows(a.m.cols, sizeof(In), sizeof(T)) : 0;
    with_lanes<timed, 32>(a.lanes, [&](auto lanes) {  // a kernel for each count
      constexpr int most = ring_bytes(std::size_t(kFlatTileBytes) * kFlatStages + (timed ? kFlatHeldBytes : 0));
      const auto kernel = flat_rows<T, Op, Probe, In, decltype(lanes)::value>;
      static const bool raised = [&] {
        RL_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
        return true;
      }();
      (void)raised;
      const int bytes = ring_bytes(std::size_t(kFlatTileBytes) * kFlatStages + std::size_t(held) * sizeof(T));
      kernel<<<a.blocks(), a.block, bytes, a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, a.lanes, held, p);
    });
  }
  // The timed kernel's grid on `device`: a block a run of a tile and a half (flat_timed_grid).
  template <class T, class Op, class In>
  static std::size_t timed_grid(Matrix m, int block, DeviceShape device) {
    return flat_timed_grid(m, block, device, sizeof(In));
  }
};
#endif

}  // namespace rl::kernels
