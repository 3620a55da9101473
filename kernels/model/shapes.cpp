// Launch shapes and trace sizes, shared by the GPU launchers and the CPU model.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <string_view>

#include "../algorithms.h"
#include "../algorithms.h"
#include "../raw_trace.h"
#include "../shapes.h"
#include "../matrix_shapes.h"
#include "../race_api.h"

namespace rl::kernels {
namespace {

int ceil_log2(std::size_t v) {
  int k = 0;
  while ((std::size_t(1) << k) < v) ++k;
  return k;
}

bool pow2(int b) { return b > 0 && (b & (b - 1)) == 0; }

constexpr int kShuffleSteps = 5;  // offsets 16, 8, 4, 2, 1

void check_block(Algo algo, int b) {
  if (row(algo).shape == Shape::Matrix)
    throw std::invalid_argument(std::string(row(algo).id) + " reduces a matrix: give it --rows and --cols, not --size");
  if (row(algo).blocks == BlockRule::Any) {
    // One thread a block would leave as many partials as elements: no pass could shrink them.
    if (b < 2 || b > 1024)
      throw std::invalid_argument("block size must be from 2 to 1024, got " + std::to_string(b));
  } else if (b < 32 || b > 1024 || !pow2(b)) {
    throw std::invalid_argument("block size must be a power of two from 32 to 1024, got " + std::to_string(b));
  }
}

}  // namespace

namespace {
// The stages of the load (or fold) and the block's tree, and the shared cells they record.
TraceShape tree_shape(Algo algo, int block, std::size_t n) {
  const int steps = ceil_log2(std::size_t(block));
  const int warps = (block + 31) / 32;
  const int atomic = unordered(row(algo).combine) ? 1 : 0;  // the block's atomic or bulk reduction is a stage
  switch (row(algo).tree) {
    case Tree::Serial: return {2, block + 1, block};
    case Tree::Halving: return {1 + ceil_log2(n), 3, int(n)};
    case Tree::Shuffle: return {1 + kShuffleSteps + 1 + 1 + kShuffleSteps + atomic, 1, warps};
    case Tree::Redux:
      return {5 + atomic, 1, warps};  // load, redux, warp sums, final load, final redux
    // load, shuffles, warp sums; the first block's remote reads, then block_shuffle's stages
    case Tree::Cluster: return {1 + kShuffleSteps + 1 + 1 + kShuffleSteps + 1 + 1 + kShuffleSteps, 1, warps, 0, true};
    case Tree::CgTiles:
    case Tree::CgTilesAsync: return {2, 0, 0};
    case Tree::CgBlock: return {5, 1, warps};
    default: return {1 + steps, 3, block};  // a shared-memory tree: load, then one stage per step
  }
}

TraceShape stage_shape(Algo algo, int block, std::size_t n) {
  TraceShape s = tree_shape(algo, block, n);
  if (row(algo).bulk_copy) {  // the copy and the wait before the fold; a tile of 4-byte elements at most
    s.stages += 2;
    s.shared_size = std::max(s.shared_size, int(bulk_tile_vectors(row(algo), block) * vector_elements(4)));
  }
  if (row(algo).compensated) s.stages += 1;  // the sums with what they lost added back
  return s;
}
}  // namespace

TraceShape trace_shape(Algo algo, int block, std::size_t n) {
  TraceShape s = stage_shape(algo, block, n);
  if (row(algo).indexing != Indexing::WholeArray) s.load_slots = kLoadSlots;  // global-halving's reads are its accesses
  return s;
}

bool gpu_launchable(Algo algo) { return row(algo).gpu; }

std::size_t check_race_launch(Algo algo, std::size_t n, const Launch& launch) {
  const std::string id(row(algo).id);
  if (!race_recordable(algo))
    throw std::invalid_argument(id + " has no race-revealing recording (it takes missing-syncthreads, "
                                "legacy-warp-synchronous, and their fixes sequential and unroll-last-warp)");
  check_launch(algo, n, launch, true);
  const std::size_t grid =
      first_pass_grid(algo, n, launch.block, DeviceShape(1));  // a block per share: no device in it
  if (grid > kMaxRaceBlocks)
    throw std::invalid_argument("race runs record every block: at most " + std::to_string(kMaxRaceBlocks) + " blocks, and " +
                                std::to_string(n) + " elements at block " + std::to_string(launch.block) + " take " +
                                std::to_string(grid));
  return grid;
}



bool records_partials(Algo algo) { return row(algo).tree != Tree::Halving && row(algo).tree != Tree::CgTilesAsync; }

int outputs_per_block(Algo algo, int block) { return row(algo).tree == Tree::CgTiles ? block / 32 : 1; }

// The kernels of clusters, by id: "a, b".
static std::string cluster_kernels() {
  std::string out;
  for (const auto& r : kAlgorithms)
    if (!is_baseline(r) && r.tree == Tree::Cluster) out += (out.empty() ? "" : ", ") + std::string(r.id);
  return out;
}

int cluster_blocks(Algo algo, int asked) {
  const std::string id(row(algo).id);
  if (row(algo).tree != Tree::Cluster) {
    if (asked > 1)
      throw std::invalid_argument(id + " launches no clusters: a cluster size is for " + cluster_kernels());
    return 1;
  }
  if (asked == 0) return row(algo).cluster;
  if (asked != 2 && asked != 4 && asked != 8)
    throw std::invalid_argument("cluster size must be 2, 4 or 8 blocks, got " + std::to_string(asked));
  return asked;
}

std::vector<Pass> pass_plan(Algo algo, std::size_t n, int block, int cluster) {
  const std::size_t per_block = std::size_t(tiles_on_load(algo)) * std::size_t(block);
  const std::size_t whole = std::size_t(std::max(cluster, 1));
  const std::size_t per_output = per_block * whole / std::size_t(outputs_per_block(algo, block));
  std::vector<Pass> out;
  std::size_t count = n;
  do {
    const std::size_t blocks = ((count + per_block - 1) / per_block + whole - 1) / whole * whole;
    out.push_back({count, blocks, (count + per_output - 1) / per_output});
    count = out.back().outputs;
  } while (count > 1);
  return out;
}

std::vector<std::size_t> pass_outputs(Algo algo, std::size_t n, int block, std::size_t grid, int cluster) {
  const std::size_t whole = std::size_t(std::max(cluster, 1));  // one result a cluster
  if (row(algo).combine != Combine::Passes) return {grid * std::size_t(outputs_per_block(algo, block)) / whole};
  std::vector<std::size_t> out;
  for (const Pass& p : pass_plan(algo, std::max<std::size_t>(n, 1), block, cluster)) out.push_back(p.outputs);
  return out;
}

int tiles_on_load(Algo algo) { return row(algo).indexing == Indexing::PairTile ? 2 : 1; }

namespace {
// Indexing::Vectors' blocks. Measured on an H200 (docs/perf-notes.md): small arrays want many
// threads with 8 elements each; past a few blocks per SM, fewer blocks (fewer atomics) with 32
// each, up to a full SM's worth of blocks. Tiles of bulk copies: one a block, at most as many
// blocks as hold their tiles at once (counted for 4-byte elements).
std::size_t vector_grid(const AlgorithmRow& r, std::size_t n, std::size_t b, std::size_t sms, std::size_t resident) {
  if (r.tile_bytes) {
    const std::size_t per_tile = std::size_t(r.tile_bytes) / 4, tiles = (n + per_tile - 1) / per_tile;
    const std::size_t by_shared = blocks_by_shared(std::size_t(r.tile_bytes) * std::size_t(r.stages));
    const std::size_t fit = std::max<std::size_t>(1, std::min(resident / sms, by_shared));
    return std::max<std::size_t>(1, std::min(tiles, fit * sms));
  }
  const std::size_t few = (n + 8 * b - 1) / (8 * b);
  if (few <= 4 * sms) return std::max<std::size_t>(1, few);
  return std::min((n + 32 * b - 1) / (32 * b), resident);
}
}  // namespace

std::size_t first_pass_grid(Algo algo, std::size_t n, int block, DeviceShape device, int cluster) {
  check_block(algo, block);  // callers size grids before check_launch: no division by a bad block
  const std::size_t b = std::size_t(block), sms = std::size_t(std::max(device.sm_count, 1));
  const std::size_t resident = std::max<std::size_t>(1, std::size_t(device.threads_per_sm) / b) * sms;  // one full wave
  switch (row(algo).indexing) {
    case Indexing::Vectors: {
      const std::size_t c = std::size_t(std::max(cluster, 1));
      return (vector_grid(row(algo), n, b, sms, resident) + c - 1) / c * c;  // whole clusters
    }
    case Indexing::Tickets: {
      // One resident wave at most: a block's first ticket is its index, the rest come from
      // the counter. Counted for 4-byte types; doubles' extra tickets come from the counter.
      return std::max<std::size_t>(1, std::min(queue_tickets(n, block, 4), resident));
    }
    case Indexing::GridStridePairs: return std::max<std::size_t>(1, std::min((n + 2 * b - 1) / (2 * b), resident));
    case Indexing::GridStride: {
      const std::size_t needed = (n + b - 1) / b;
      return std::max<std::size_t>(1, std::min<std::size_t>(needed, std::size_t(kStrideBlocksPerSm) * sms));
    }
    case Indexing::WholeArray: return 1;
    default: {  // a block's tiles (tiles_on_load)
      const std::size_t per_block = std::size_t(tiles_on_load(algo)) * b;
      const std::size_t c = std::size_t(std::max(cluster, 1)), blocks = (n + per_block - 1) / per_block;
      return (blocks + c - 1) / c * c;  // whole clusters: the last one's extra blocks load identities
    }
  }
}

std::size_t rounding_depth(Algo algo, std::size_t n, int block, DeviceShape device, std::size_t asked_grid) {
  check_block(algo, block);  // an asked grid skips first_pass_grid's check: no division by a bad block
  const std::size_t b = std::size_t(block), grid = asked_grid ? asked_grid : first_pass_grid(algo, n, block, device);
  // A serial chain of c additions takes its elements through c/2 of them on average. Each
  // thread's share of the first pass is such a chain; work-queue's blocks take tickets as they
  // free up, so a thread may take more than an even share: allow twice.
  const auto half = [](std::size_t c) { return (c + 1) / 2; };
  std::size_t chain = (n + grid * b - 1) / (grid * b);
  if (row(algo).indexing == Indexing::Tickets) chain = 2 * chain + std::size_t(kQueueVectors) * 4;
  const std::size_t trees = 2 * std::size_t(ceil_log2(n)) + 2;  // in the block, and in later passes
  if (row(algo).tree == Tree::Halving) return std::size_t(ceil_log2(n)) + 1;  // one halving after another
  if (row(algo).tree == Tree::Serial) return half(b) * (std::size_t(ceil_log2(n) / std::max(1, ceil_log2(b))) + 1) + trees;
  const Combine combine = row(algo).combine;
  if (combine == Combine::Passes) return half(chain) + trees;
  // cg-reduce-update-async: one atomic update a warp tile, not a block.
  const std::size_t updates = grid * (row(algo).tree == Tree::CgTilesAsync ? (b + 31) / 32 : 1);
  if (unordered(combine)) return half(chain) + trees + half(updates);  // one after another
  return half(chain) + trees + half((grid + b - 1) / b);              // one block walks the partials
}

std::size_t queue_tickets(std::size_t n, int block, std::size_t elem_bytes) {
  const std::size_t chunk = std::size_t(kQueueVectors) * std::size_t(block);
  return (n / vector_elements(elem_bytes) + chunk - 1) / chunk;
}

int preferred_block(Algo algo, std::size_t n, int sm_count) {
  // Measured on an H200 (docs/perf-notes.md, "Large arrays"): with a resident grid, 1024
  // threads a block beat 256 from 2^26 elements up (fewer blocks to start, fewer atomics)
  // and lost at 2^24.
  const std::size_t sms = std::size_t(std::max(sm_count, 1));
  if (row(algo).indexing == Indexing::Vectors && n >= (std::size_t(1) << 18) * sms) return 1024;
  // work-queue: 1024 once every SM gets a ticket of that size (2^14 elements); smaller
  // blocks hand out four times the tickets, and the counter becomes the bottleneck.
  if (row(algo).indexing == Indexing::Tickets && n >= std::size_t(4) * kQueueVectors * 1024 * sms) return 1024;
  return 256;
}

void check_launch(Algo algo, std::size_t n, const Launch& launch, bool traced) {
  if (n == 0) throw std::invalid_argument("size must be at least 1");
  const int b = launch.block;
  check_block(algo, b);
  if (row(algo).indexing == Indexing::WholeArray && traced && n > (std::size_t(1) << 16))
    throw std::invalid_argument("global-halving traces hold the whole array: at most 2^16 elements, got " +
                                std::to_string(n));
  const int cluster = cluster_blocks(algo, launch.cluster);
  if (launch.grid % std::size_t(cluster) != 0)
    throw std::invalid_argument("a grid of " + std::to_string(launch.grid) +
                                " blocks is not a whole number of clusters of " + std::to_string(cluster));
  const std::size_t grid = launch.grid ? launch.grid : first_pass_grid(algo, n, b, DeviceShape(1), cluster);
  if (traced && (launch.trace_block < 0 || std::size_t(launch.trace_block) >= grid))
    throw std::invalid_argument("trace block " + std::to_string(launch.trace_block) + " is outside the grid of " +
                                std::to_string(grid) + " block(s)");
  // The first block of a cluster reads the others' shared memory: the one worth recording.
  if (traced && launch.trace_block % cluster != 0)
    throw std::invalid_argument("trace block " + std::to_string(launch.trace_block) +
                                " is not the first of its cluster of " + std::to_string(cluster) + ": trace block " +
                                std::to_string(launch.trace_block / cluster * cluster));
}

std::vector<std::size_t> traced_elements(Algo algo, std::size_t n, int block, std::size_t grid, int traced,
                                         std::size_t per_vector, const std::vector<int>& tickets) {
  std::vector<std::size_t> out;
  const std::size_t b = std::size_t(block), k = std::size_t(traced);
  if (const std::size_t tiles = std::size_t(tiles_on_load(algo)); tiles > 1) {  // tiles a block apart
    for (std::size_t i = k * tiles * b; i < std::min(n, (k + 1) * tiles * b); ++i) out.push_back(i);
    return out;
  }
  switch (row(algo).indexing) {
    case Indexing::WholeArray:
      for (std::size_t i = 0; i < n; ++i) out.push_back(i);
      break;
    case Indexing::Vectors: {  // 16-byte vectors (or a bulk copy's tiles) by grid stride, then the scalar tail
      const std::size_t vectors = n / per_vector, threads = grid * b, tile = bulk_tile_vectors(row(algo), block);
      for (std::size_t start = k * tile; start < vectors; start += grid * tile)
        for (std::size_t j = start; j < std::min(vectors, start + tile); ++j)
          for (std::size_t e = 0; e < per_vector; ++e) out.push_back(per_vector * j + e);
      for (std::size_t i = per_vector * vectors + k * b; i < n; i += threads)
        for (std::size_t e = i; e < std::min(n, i + b); ++e) out.push_back(e);
      break;
    }
    case Indexing::Tickets: {  // the tickets the block took, then the scalar tail
      const std::size_t vectors = n / per_vector, chunk = std::size_t(kQueueVectors) * b;
      for (std::size_t c = 0; c < tickets.size(); ++c)
        if (tickets[c] == traced)
          for (std::size_t j = c * chunk; j < std::min(vectors, (c + 1) * chunk); ++j)
            for (std::size_t e = 0; e < per_vector; ++e) out.push_back(per_vector * j + e);
      for (std::size_t i = per_vector * vectors + k * b; i < n; i += grid * b)
        for (std::size_t e = i; e < std::min(n, i + b); ++e) out.push_back(e);
      break;
    }
    case Indexing::GridStridePairs:  // pairs of tiles a block apart, every grid-wide stride
      for (std::size_t start = k * 2 * b; start < n; start += grid * 2 * b)
        for (std::size_t i = start; i < std::min(n, start + 2 * b); ++i) out.push_back(i);
      break;
    case Indexing::GridStride:  // a block's tile of every grid-wide stride
      for (std::size_t start = k * b; start < n; start += grid * b)
        for (std::size_t i = start; i < std::min(n, start + b); ++i) out.push_back(i);
      break;
    default:
      for (std::size_t i = k * b; i < std::min(n, (k + 1) * b); ++i) out.push_back(i);
  }
  return out;
}

}  // namespace rl::kernels
