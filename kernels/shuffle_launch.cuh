// The launch table's entries (launch_table.cuh) for the kernels of shuffle.cuh and shuffle_rows.cuh:
// the block kernel, the matrix rows, and the single-pass kernels, whose blocks meet in one launch.
// Kept beside the files, not at their ends, so that each stays one concern under 600 lines.
#pragma once
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "cuda_check.cuh"
#include "launch_table.cuh"
#include "shuffle.cuh"
#include "shuffle_rows.cuh"

namespace rl::kernels {

RL_BLOCK_LAUNCH(WarpShuffle, warp_shuffle, 1);
RL_BLOCK_LAUNCH(ReduxSync, redux_sync, 1);

template <>
struct MatrixLaunch<Algo::BatchedRowsShuffle> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    batched_rows_shuffle<T, Op><<<a.grid_2d(), a.block, a.warp_cells(), a.stream>>>(a.in, a.out, a.m.cols, p);
  }
};

// A launch through cudaLaunchKernelEx with one attribute: a cluster size, or a cooperative launch.
template <class... Params, class... Args>
void launch_with(void (*kernel)(Params...), unsigned blocks, dim3 block, std::size_t shared, cudaStream_t stream,
                 const cudaLaunchAttribute& attribute, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = block;
  config.dynamicSmemBytes = shared;
  config.stream = stream;
  cudaLaunchAttribute copy = attribute;
  config.attrs = &copy;
  config.numAttrs = 1;
  RL_CUDA(cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...));
}

// batched-rows-vectorized's first-waits end gathers a row's results after the warps' cells.
template <class T, class In>
std::size_t first_waits_shared(const LaunchArgs<T, In>& a) {
  return ((a.block.x / 32 + 3) / 4 + (a.grid.x + 3) / 4) * 4 * sizeof(T);
}

// first-waits takes a shape first_waits_shape allows and every block resident at once, which only
// a cooperative launch guarantees (CUDA C++ Programming Guide, grid synchronization) and which
// fails where the grid does not fit.
template <class Kernel, class T, class In>
bool first_waits_fit(Kernel kernel, const LaunchArgs<T, In>& a) {
  if (!a.words || !first_waits_shape(a.grid.x, a.block.x, a.block.y, sizeof(T))) return false;
  int device = 0, cooperative = 0, sms = 0, per_sm = 0;
  RL_CUDA(cudaGetDevice(&device));
  RL_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  RL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  RL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, int(a.block.x), first_waits_shared(a)));
  return cooperative && std::size_t(per_sm) * std::size_t(sms) >= a.blocks();
}

// A 1D grid, as batched-rows-split; one launch, its phase 2 included: the row's last block
// (last-chunk) or, where the grid fits first-waits, its first, in a cooperative launch. The
// first-waits kernel is instantiated for 4-byte results only: first_waits_shape takes no others.
template <>
struct MatrixLaunch<Algo::BatchedRowsVectorized> : LaunchEntry {
  template <class T, class Op, class Probe, class In>
  static void launch(const LaunchArgs<T, In>& a, const Probe& p) {
    const std::size_t chunk_cols = split_chunk_cols(a.m, a.grid.x), chunks = a.grid.x;
    if constexpr (sizeof(T) == 4)
      if (launch_first_waits<T, Op>(a, p, chunk_cols, chunks)) return;
    batched_rows_vectorized<T, Op, Probe, In, false><<<a.blocks(), a.block, a.warp_cells(), a.stream>>>(
        a.in, a.out, a.m.cols, chunk_cols, chunks, p, a.outputs, a.tickets, nullptr);
  }
  template <class T, class Op, class In>
  static void prepare(LaunchArgs<T, In>& a) {
    if constexpr (sizeof(T) == 4) {
      if (!first_waits_fit(batched_rows_vectorized<T, Op, NoProbe, In, true>, a)) a.words = nullptr;
    } else {
      a.words = nullptr;
    }
  }

 private:
  // Launches first-waits where the plan kept its words; false where the ticket must end the rows.
  template <class T, class Op, class Probe, class In>
  static bool launch_first_waits(const LaunchArgs<T, In>& a, const Probe& p, std::size_t chunk_cols,
                                 std::size_t chunks) {
    const auto kernel = batched_rows_vectorized<T, Op, Probe, In, true>;
    unsigned long long* words = a.words;            // a timed launch's: its prepare checked the fit
    if constexpr (!std::is_same_v<Probe, NoProbe>)  // a traced launch is not timed: it may ask
      if (!first_waits_fit(kernel, a)) words = nullptr;
    if (!words) return false;
    cudaLaunchAttribute cooperative{};
    cooperative.id = cudaLaunchAttributeCooperative;
    cooperative.val.cooperative = 1;
    launch_with(kernel, a.blocks(), a.block, first_waits_shared(a), a.stream, cooperative, a.in, a.out, a.m.cols,
                chunk_cols, chunks, p, a.outputs, a.tickets, words);
    if (a.first_waited) *a.first_waited = true;
    return true;
  }
};

template <>
struct ArrayLaunch<Algo::WarpShuffleVectorized> : LaunchEntry {
  template <class T, class Op, class Probe, class In>
  static void launch(const LaunchArgs<T, In>& a, const Probe& p) {
    warp_shuffle_vectorized<T, Op><<<a.blocks(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.n(), p, a.next);
  }
};

template <>
struct ArrayLaunch<Algo::WorkQueue> : LaunchEntry {
  template <class T, class Op, class Probe, class In>
  static void launch(const LaunchArgs<T, In>& a, const Probe& p) {
    work_queue<T, Op><<<a.blocks(), a.block, a.shared(1), a.stream>>>(
        a.in, a.n(), p, QueueSlot<T>{a.out, a.taken, a.next, a.next_taken});
  }
};

template <>
struct ArrayLaunch<Algo::VectorizedOrdered> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    vectorized_ordered<T, Op>
        <<<a.blocks(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.n(), p, a.partials, a.retired);
  }
};

template <>
struct ArrayLaunch<Algo::Compensated> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    if constexpr (std::is_same_v<T, int> || !std::is_same_v<Op, ops::Sum>)
      throw std::invalid_argument("compensated adds floats and doubles only (kernels::takes)");
    else
      compensated<T, Op><<<a.blocks(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.n(), p, a.partials, a.retired);
  }
};

// bulk-async: kBulkStages tiles of 16 bytes a thread, past the 48 KB a launch gets unasked at
// 1024 threads; the attribute is set once per instantiation.
template <>
struct ArrayLaunch<Algo::BulkAsync> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    if constexpr (!std::is_same_v<T, int> && !std::is_same_v<Op, ops::Sum>) {
      throw std::invalid_argument("bulk-async reduces floats and doubles by sum only (kernels::takes)");
    } else {
      const auto ring = [](int threads) { return ring_bytes(kBulkStages * std::size_t(threads) * kVectorBytes); };
      static const bool raised = [&] {  // the largest block's worth, so every block size fits
        RL_CUDA(cudaFuncSetAttribute(bulk_async<T, Op, Probe>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     ring(kMaxBlock)));
        return true;
      }();
      (void)raised;
      bulk_async<T, Op><<<a.blocks(), a.block, std::size_t(ring(a.threads)), a.stream>>>(a.in, a.out, a.n(), p, a.next);
    }
  }
};

// A kernel of clusters: the grid in clusters of a.cluster blocks (the plan's grid, a multiple of
// it), through the launch attribute, so one kernel takes every cluster size.
template <class T, class... Params, class... Args>
void launch_in_clusters(void (*kernel)(Params...), const LaunchArgs<T, T>& a, Args&&... args) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = static_cast<unsigned>(a.cluster);
  attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
  launch_with(kernel, a.blocks(), a.block, a.warp_cells(), a.stream, attribute, std::forward<Args>(args)...);
}

template <>
struct ArrayLaunch<Algo::ClusterDsmem> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    launch_in_clusters(cluster_dsmem<T, Op, Probe>, a, a.in, a.out, a.n(), p);
  }
};

// The streaming forms of the Hopper kernels.
template <>
struct ArrayLaunch<Algo::ReduxSyncStreaming> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    if constexpr (!std::is_same_v<T, int>)
      throw std::invalid_argument("redux-sync-streaming reduces ints only (kernels::takes)");
    else
      redux_sync_streaming<T, Op><<<a.blocks(), a.block, a.warp_cells(), a.stream>>>(a.in, a.out, a.n(), p, a.next);
  }
};

template <>
struct ArrayLaunch<Algo::ClusterDsmemStreaming> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    launch_in_clusters(cluster_dsmem_streaming<T, Op, Probe>, a, a.in, a.out, a.n(), p, a.partials, a.retired);
  }
};

// The row's tiles and stages as the kernel's constants; past the 48 KB a launch gets unasked,
// so the attribute is raised once per instantiation.
template <>
struct ArrayLaunch<Algo::BulkAsyncStreaming> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    if constexpr (!std::is_same_v<T, int> && !std::is_same_v<Op, ops::Sum>) {
      throw std::invalid_argument("bulk-async-streaming reduces floats and doubles by sum only (kernels::takes)");
    } else {
      constexpr AlgorithmRow r = row(Algo::BulkAsyncStreaming);
      constexpr int ring = ring_bytes(std::size_t(r.tile_bytes) * std::size_t(r.stages));
      const auto kernel = bulk_async_streaming<T, Op, Probe, r.tile_bytes, r.stages>;
      static const bool raised = [&] {
        RL_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ring));
        return true;
      }();
      (void)raised;
      kernel<<<a.blocks(), a.block, ring, a.stream>>>(a.in, a.out, a.n(), p, a.next);
    }
  }
};

}  // namespace rl::kernels
