// How an array reduction is launched and what each block reads: stated once for the kernels
// and the CPU model (implemented in kernels/model/shapes.cpp).
#pragma once
#include <cstddef>
#include <vector>

#include "algorithms.h"
#include "raw_trace.h"

namespace rl::kernels {

// work-queue: 16-byte vectors a thread loads per ticket (measured, docs/perf-notes.md).
constexpr int kQueueVectors = 4;
// Blocks an SM of a grid-stride kernel's grid (cg-two-phase, cg-reduce-update-async, cg-grid-sync):
// each thread strides over many elements ("cascading").
constexpr int kStrideBlocksPerSm = 4;

// work-queue's tickets for n elements of elem_bytes each: 16-byte vectors, kQueueVectors x block
// of them a ticket (the scalar tail belongs to none).
std::size_t queue_tickets(std::size_t n, int block, std::size_t elem_bytes);

// How a run is launched. grid 0 means "derived from n"; algorithms with a fixed grid
// (grid-stride, cooperative) take the grid the host chose, so the model can match it.
struct Launch {
  int block = 32;
  std::size_t grid = 0;
  int trace_block = 0;
  // work-queue, model only: the block that took each ticket in a GPU run, to replay it. Null:
  // the model hands tickets round-robin, as if every block ran at the same speed.
  const std::vector<int>* tickets = nullptr;
  int cluster = 0;  // kernels of clusters: blocks a cluster (2, 4 or 8); 0: the row's own
};

// What sizing a fixed grid needs to know of a device: its SMs, the threads one SM holds at once
// (2048 on sm_80 and sm_90, 1536 on sm_86 and sm_89, 1024 on sm_75), and its memory's peak in
// GB/s (2 x memory clock x bus width / 8; 0 where not known). The GPU path reads all three from the
// device (cuda_device_shape); a bare SM count means an SM of 2048 threads and no peak, as the CPU
// model's own device has. Explicit: an SM count passed where a device's shape is asked would
// size a grid with no peak, so the row rules that need one would take their no-peak branch.
struct DeviceShape {
  int sm_count = 1;
  int threads_per_sm = 2048;
  double peak_gbps = 0;
  explicit constexpr DeviceShape(int sms, int threads = 2048, double peak = 0)
      : sm_count(sms), threads_per_sm(threads), peak_gbps(peak) {}
};

// A memory's peak from the device's attributes: 2 transfers a clock (DDR) x bus width in bytes.
constexpr double memory_peak_gbps(int mem_clock_khz, int bus_width_bits) {
  return 2.0 * mem_clock_khz * 1e3 * (bus_width_bits / 8.0) / 1e9;
}

// Threads a block at most (CUDA's limit on every GPU here).
constexpr int kMaxBlock = 1024;
// bulk-async: tiles a block has in flight or in use at once, a buffer and an mbarrier each
// (its row's, as a constant for the kernel's arrays).
constexpr int kBulkStages = row(Algo::BulkAsync).stages;
// bulk-async's hand-out: bytes a bulk reduction moves (cp.reduce.async.bulk takes multiples of
// 16), the block's result and identities after it; its results' slots are as wide.
constexpr std::size_t kBulkReduceBytes = 16;
// Shared memory an SM holds on sm_90 (Hopper), the only chips with bulk copies here: how many
// blocks of bulk-async-streaming's tiles fit an SM at once (CUDA C++ Programming Guide, compute
// capabilities table).
constexpr int kSharedPerSm = 228 * 1024;
// Shared memory CUDA keeps back from each block on sm_90 (cudaDevAttrReservedSharedMemoryPerBlock,
// queried on an H200: assets/runs/h200-rows/report/2026-12-06/fcf23ff/gpu_test/reserve.txt): an
// SM's budget counts it once a block, beside the ring (the static arrays, under 256 bytes, fit the
// SM's slack at these sizes).
constexpr std::size_t kReservedSharedPerBlock = 1024;
// Bulk copies' buffers start on a 128-byte boundary of shared memory: into a ring 16 bytes off a
// 32-byte boundary (where the static arrays before it left bulk-async's) the same copies ran about
// a tenth slower (docs/benchmarks.md, "Bulk copies into shared memory on 128-byte boundaries"). A
// launch asks this many bytes more for the rounding (ring_array).
constexpr std::size_t kRingAlignBytes = 128;
// The dynamic shared memory a launch asks for `buffers` bytes of bulk copies' ring (and what
// follows it): the buffers and ring_array's rounding.
constexpr int ring_bytes(std::size_t buffers) { return int(buffers + kRingAlignBytes); }
// Blocks an SM holds at once by shared memory alone, each asking ring_bytes(buffers) and CUDA's
// reserve: the grid budgets of the kernels with rings (bulk tiles, flat-rows).
constexpr std::size_t blocks_by_shared(std::size_t buffers) {
  return std::size_t(kSharedPerSm) / (std::size_t(ring_bytes(buffers)) + kReservedSharedPerBlock);
}
// 16-byte vectors a bulk copy brings a block at once: its row's tile, or one a thread.
constexpr std::size_t bulk_tile_vectors(const AlgorithmRow& r, int block) {
  return r.tile_bytes ? std::size_t(r.tile_bytes) / 16 : std::size_t(block);
}

// Blocks a cluster for a launch: `asked` (0: the row's `cluster`) for a kernel of clusters, which
// takes 2, 4 or 8; 1 for any other, which takes none. Throws std::invalid_argument naming a
// size it cannot take, or a cluster asked of a kernel without them.
int cluster_blocks(Algo algo, int asked);

TraceShape trace_shape(Algo algo, int block, std::size_t n);
// Blocks the first pass launches: derived from n, or the fixed grid for a given SM count; for
// clusters (cluster_blocks), rounded up to whole clusters.
std::size_t first_pass_grid(Algo algo, std::size_t n, int block, DeviceShape device, int cluster = 1);
// How many additions (each a rounding for floats) an element's value goes through in a run, on
// average over the elements, rounded up. A float sum is within u * sum(|x_i| * depth_i) of the
// exact one; for identically drawn inputs that is u * sum|x| * this depth. grid: the first pass's
// blocks where a grid was asked for (0: first_pass_grid's).
std::size_t rounding_depth(Algo algo, std::size_t n, int block, DeviceShape device, std::size_t grid = 0);
// The block size a benchmark uses when none is asked for: 256, or an algorithm's own choice
// where measurements favour another (warp-shuffle-vectorized on large arrays).
int preferred_block(Algo algo, std::size_t n, int sm_count);
// Whether the first pass leaves per-block results a trace can record (cg-reduce-update-async
// folds inside the atomic call; global-halving has no per-block result).
bool records_partials(Algo algo);
// One launch of a run combined in passes (Combine::Passes).
struct Pass {
  std::size_t count = 0;    // elements it reads: the array's, then the partials
  std::size_t blocks = 0;   // blocks it launches, in whole clusters
  std::size_t outputs = 0;  // partials it leaves: one a block, a warp (cg-warp) or a cluster
};
// Every pass of such a run over n elements, until one leaves a single value: the one plan the
// launcher (launch_impl.cuh), the CPU model and pass_outputs walk. cluster: cluster_blocks.
std::vector<Pass> pass_plan(Algo algo, std::size_t n, int block, int cluster = 1);
// How many results each launch leaves, first pass first: for "passes", every launch down to
// the one that leaves a single value; otherwise only the first pass (grid x outputs per block).
// cluster: blocks a cluster (cluster_blocks), one result each.
std::vector<std::size_t> pass_outputs(Algo algo, std::size_t n, int block, std::size_t grid, int cluster = 1);
// How many results the first pass leaves per block: one, or one per warp (cg-warp).
int outputs_per_block(Algo algo, int block);
// Elements a thread adds while loading, a block apart: 1, or 2 for the kernels that add a pair
// (first-add-on-load and the kernels after it). A block covers this many blocks' worth.
int tiles_on_load(Algo algo);
// True when the algorithm runs on a GPU at all (syncthreads-in-branch is modelled only).
bool gpu_launchable(Algo algo);

// Indices of the input elements the traced block reads, in order: the model's and the
// kernels' indexing, stated once. per_vector: elements in one 16-byte load (4, or 2 for
// doubles); tickets: work-queue's record of which block took each ticket.
std::vector<std::size_t> traced_elements(Algo algo, std::size_t n, int block, std::size_t grid, int traced,
                                         std::size_t per_vector, const std::vector<int>& tickets);

// Throws std::invalid_argument naming the problem when the launch shape is impossible for
// the algorithm: n == 0, a block size it cannot take, a traced block outside the grid.
void check_launch(Algo algo, std::size_t n, const Launch& launch, bool traced);

}  // namespace rl::kernels
