#include "catalog.h"

#include <mutex>
#include <stdexcept>

#include "../../kernels/stage_tags.h"
#include "embedded.h"

namespace rl::core {
namespace {

const std::vector<AlgorithmInfo>& table() {
  static const std::vector<AlgorithmInfo> t = {
      {"naive-serial", "tree", "Naive: one thread adds the block",
       "Threads load into shared memory, then thread 0 adds every cell: O(block) steps, not O(log block).",
       "Every thread loads one element into shared memory, but then a single thread walks the whole "
       "array, one dependent addition after another: block - 1 steps while the other threads wait. "
       "It is correct and simple, and it shows what a tree buys: log2(block) steps instead of block.",
       "kernels/tree.cuh"},
      {"global-halving", "tree", "Halving in global memory, launches as barriers",
       "Each launch adds the upper half of the array onto the lower half; no shared memory at all.",
       "There is no shared memory and no barrier inside the kernel: every launch adds the upper half of "
       "the live array onto its lower half, and the end of the launch is what orders one step before "
       "the next. It needs log2(n) launches and reads and writes device memory at every step, which is "
       "why the next algorithms move the tree into shared memory, one block at a time.",
       "kernels/tree.cuh"},
      {"interleaved-divergent", "tree", "Interleaved addressing, divergent branch",
       "Threads whose index is a multiple of 2*stride add a neighbour: half of every warp idles.",
       "Each step, thread t works only if t is a multiple of 2*stride, and adds the cell stride "
       "places to its right. The tree is correct, but the working threads are scattered across "
       "every warp: a warp with even one working thread must step through the branch, so all "
       "warps stay busy while most of their lanes do nothing, and the % operator is slow.",
       "kernels/tree.cuh"},
      {"interleaved-bank-conflicts", "tree", "Interleaved addressing, strided index",
       "Contiguous threads do the work, but their strided addresses collide in shared-memory banks.",
       "The working threads are now contiguous (thread t handles index 2*stride*t), so whole "
       "warps retire and divergence is gone. But neighbouring threads touch addresses 2*stride "
       "apart: with 32 banks of 4 bytes, several threads of a warp hit the same bank and their "
       "accesses are serialised, more so as the stride grows.",
       "kernels/tree.cuh"},
      {"sequential", "tree", "Sequential addressing",
       "Thread t adds cell t+stride to cell t with a halving stride: no divergence, no bank conflicts.",
       "The stride starts at half the block and halves each step; thread t adds cell t+stride "
       "to cell t. Working threads are contiguous and so are their addresses, so a warp's 32 "
       "accesses fall in 32 different banks. Half of the threads still idle from the first "
       "step on, which the next lessons address.",
       "kernels/tree.cuh"},
      {"first-add-on-load", "tree", "First add during load",
       "Each thread adds two elements while loading, so half as many blocks do the same work.",
       "In the sequential version half the threads idle from the first step. Here each thread "
       "loads two elements a block apart and adds them on the way into shared memory, so a block "
       "covers twice the data and the grid is halved. Fewer blocks, more useful work per thread, "
       "and the same tree afterwards.",
       "kernels/tree.cuh"},
      {"unroll-last-warp", "tree", "Unrolled last warp",
       "First add on load, then: once 32 threads remain, they finish with __syncwarp() instead of block-wide barriers.",
       "This builds on the first add during load (each thread adds two elements a block apart). "
       "When the stride drops to 32 only one warp still works, so a block-wide __syncthreads() "
       "is wasted on warps that are done. The last six steps run in warp 0 alone, ordered by "
       "__syncwarp(): each step reads, synchronises the warp, writes, and synchronises again, "
       "which is what independent thread scheduling (Volta and later) requires.",
       "kernels/tree.cuh"},
      {"complete-unroll", "tree", "Complete unroll (block size as a template parameter)",
       "With the block size known at compile time every step unrolls and the loop tests vanish.",
       "The unrolled-last-warp kernel with the block size as a template parameter, one "
       "instantiation per size. The compiler then unrolls every step, removes the comparisons "
       "against the stride, and keeps the barriers only where they are needed. The arithmetic "
       "is the same as before; the instructions around it are fewer.",
       "kernels/tree.cuh"},
      {"multiple-per-thread", "tree", "Multiple elements per thread (algorithm cascading)",
       "A grid of one SM-full of blocks; each thread first adds many pairs of elements with a grid stride.",
       "The complete-unroll kernel, but instead of one block per 2 x 'block' elements, a grid "
       "that fills every SM once strides over the whole array: each thread adds pairs of "
       "elements a block apart, many times, in registers and with coalesced loads, before the "
       "tree starts. The tree now runs once per block instead of once per 2 x 'block' elements, "
       "and a second one-block launch adds the grid's partials. Brent's theorem: sequential "
       "work per thread is what makes the parallel part cheap.",
       "kernels/tree.cuh"},
      {"non-pow2-block", "tree", "Any block size",
       "The tree runs over the next power of two, with bounds checks for the cells that do not exist.",
       "A block of, say, 270 threads has no clean halving. The tree is taken over the next power "
       "of two (512) and a thread works only if both of its cells exist: tid < stride and "
       "tid + stride < blockDim. The first step adds the 14 cells past 256 onto the start; from "
       "then on it is the sequential tree.",
       "kernels/tree.cuh", Kind::Traced, true},
      {"warp-shuffle", "warp-shuffle", "Warp shuffle",
       "__shfl_down_sync reduces each warp in registers; warp totals meet in shared memory.",
       "Inside a warp, __shfl_down_sync hands each lane the value of the lane 'offset' above it, "
       "register to register: five steps (16, 8, 4, 2, 1) reduce 32 values with no shared memory "
       "and no barrier. A lane whose source is past the warp's end gets its own value back, so "
       "the upper lanes compute junk that nobody reads. Each warp's lane 0 stores its total to "
       "shared memory, and the first warp reduces those the same way.",
       "kernels/shuffle.cuh"},
      {"warp-shuffle-vectorized", "warp-shuffle", "Vectorized loads, shuffle, one atomic per block",
       "16-byte loads with a scalar tail, a shuffle reduction, and one atomic per block: a single pass.",
       "Each thread reads four elements at a time with one 16-byte load (float4/int4), striding "
       "over the array with a fixed grid, and handles the last n % 4 elements with scalar loads. "
       "After the warp-shuffle reduction, thread 0 of each block combines its total into the "
       "result with one atomic: one launch, no second pass. The result must start as the "
       "identity, yet a memset before every launch costs time: instead block 0 sets the next "
       "launch's result slot to the identity (three slots rotate). Float sums depend on the order "
       "the blocks arrive in, so they match a reference within rounding, not bit for bit.",
       "kernels/shuffle.cuh"},
      {"work-queue", "warp-shuffle", "A work queue: blocks take tickets from a counter",
       "The vectorized kernel, but blocks take slices of the array from an atomic counter, so faster SMs take more.",
       "A fixed grid gives every block the same share, so the launch lasts as long as the slowest "
       "SM. Here the array is cut into tickets of four 16-byte loads per thread. One wave of blocks "
       "is launched; block b starts on ticket b, and thread 0 takes the next ticket from an atomic "
       "counter while the block loads the current one, so an SM that streams faster comes back "
       "sooner and takes more. Which block takes which ticket changes from run to run: the trace "
       "records it, and the CPU model replays that record (on its own it hands tickets "
       "round-robin, as if every SM ran at the same speed). Then the shuffle reduction and one "
       "atomic per block, as in the vectorized kernel; block 0 readies the next launch's result "
       "slot and counter.",
       "kernels/shuffle.cuh"},
      {"cg-warp", "cooperative-groups", "Cooperative groups: warp tiles",
       "cg::tiled_partition<32> and cg::reduce: each tile reduces itself, one partial per warp.",
       "cooperative_groups names the threads that cooperate: tiled_partition<32> splits the block "
       "into warp-sized tiles, and cg::reduce reduces a tile in one call (redux.sync for ints on "
       "sm_80+, a shuffle butterfly for floats), leaving the total in every lane. Each tile's "
       "leader writes one partial; further launches reduce the partials.",
       "kernels/cg.cuh"},
      {"cg-block", "cooperative-groups", "Cooperative groups: tiles, then the block",
       "Tile reductions, tile totals through shared memory and block.sync(), then one tile finishes.",
       "The block's tiles reduce themselves with cg::reduce, their leaders store the tile totals "
       "to shared memory, block.sync() makes them visible, and the first tile reduces them with "
       "cg::reduce again. Two short reductions replace log2(block) barrier-separated steps.",
       "kernels/cg.cuh"},
      {"cg-two-phase", "cooperative-groups", "Cooperative groups: two phases",
       "A fixed grid writes one partial per block; a second launch reduces the partials.",
       "Phase one: a fixed grid of a few blocks per SM, each thread accumulating many elements "
       "with a grid stride, then the cg block reduction, one partial per block into a buffer. "
       "Phase two: the same kernel launched with a single block over the partials.",
       "kernels/cg.cuh"},
      {"cg-reduce-update-async", "cooperative-groups", "Cooperative groups: reduce_update_async",
       "cg::reduce_update_async reduces each tile and updates a cuda::atomic_ref in one call.",
       "cg::reduce_update_async fuses the tile reduction with an atomic update of the result "
       "through a cuda::atomic_ref: one call per tile, no shared memory and no second launch. "
       "The atomics arrive in any order, so float sums match a reference within rounding.",
       "kernels/cg.cuh"},
      {"cg-grid-sync", "cooperative-groups", "Cooperative groups: grid sync",
       "A cooperative launch: block partials, grid.sync(), then block 0 finishes in the same kernel.",
       "With cudaLaunchCooperativeKernel every block of the grid is resident at once, so "
       "grid.sync() can act as a barrier across the whole grid. Blocks write their partials, "
       "synchronise the grid, and block 0 reduces the partials: a single launch, at the price of "
       "a grid no larger than what fits on the device at once.",
       "kernels/cg.cuh"},
      {"threadfence-single-pass", "single-pass", "Single pass with __threadfence()",
       "Blocks publish partials, __threadfence(), take a ticket; the last block to retire adds them.",
       "Each block reduces its part and thread 0 stores the partial, calls __threadfence() so "
       "the store is visible to the whole device, and takes a ticket from an atomic counter. The "
       "block that draws the last ticket knows every partial is in place and reduces them: one "
       "launch, deterministic order, no atomics on the data (CUDA samples' threadFenceReduction).",
       "kernels/single_pass.cuh"},
      {"missing-syncthreads", "pitfall", "Pitfall: the missing barrier",
       "The sequential tree without __syncthreads(): threads read cells their neighbours have not written.",
       "Without the barrier, a warp may start the next stride while another warp is still adding "
       "for the previous one, and read a cell before its new value is there. The result can be "
       "wrong, or right by luck on one run and wrong on the next. compute-sanitizer racecheck "
       "reports the shared-memory hazards. The traced run shows the intended stages: its probe "
       "synchronises to copy shared memory out, which hides the race the timed run has.",
       "kernels/tree.cuh", Kind::Pitfall},
      {"legacy-warp-synchronous", "pitfall", "Pitfall: pre-Volta warp-synchronous code",
       "The old volatile last-warp unroll without __syncwarp(): unsafe under independent thread scheduling.",
       "Before Volta, the 32 lanes of a warp ran in lockstep, so the last-warp unroll used "
       "'volatile' shared memory and no synchronisation. Since Volta each thread has its own "
       "program counter and lanes may diverge and reconverge at any point: nothing orders one "
       "lane's write before another lane's read. It usually still works, which is what makes it "
       "dangerous; racecheck reports the hazards, and __syncwarp() (unroll-last-warp) is the fix.",
       "kernels/tree.cuh", Kind::Pitfall},
      {"syncthreads-in-branch", "pitfall", "Pitfall: a barrier inside a branch",
       "__syncthreads() inside if (tid < s): threads that skip it never arrive. Modelled, never launched.",
       "__syncthreads() waits for every thread of the block. Inside 'if (tid < s)' the threads "
       "with tid >= s never reach it: the block can deadlock, or the barrier can release early "
       "and the tree read stale cells. The behaviour is undefined, so the app never launches it; "
       "the stages shown are the CPU model's, with the barrier as the code intends it.",
       "kernels/tree.cuh", Kind::ModelOnly},
      {"cub", "baseline", "CUB DeviceReduce",
       "cub::DeviceReduce: NVIDIA's tuned library reduction, the reference line.", "", "", Kind::Baseline},
      {"thrust", "baseline", "thrust::reduce", "thrust::reduce on device vectors (built on CUB).", "", "",
       Kind::Baseline},
      {"cpu", "baseline", "CPU std::reduce", "std::reduce on the host, for scale.", "", "", Kind::Baseline},
      {"copy", "baseline", "Device copy (bandwidth ceiling)",
       "A 16-byte vectorized device copy: the bandwidth a reduction can hope to approach.", "", "",
       Kind::Baseline},
  };
  return t;
}

std::string_view embedded_source(std::string_view file) {
  if (file == "kernels/tree.cuh") return embedded::tree_kernel_source();
  if (file == "kernels/shuffle.cuh") return embedded::kernel_source("shuffle.cuh");
  if (file == "kernels/cg.cuh") return embedded::kernel_source("cg.cuh");
  if (file == "kernels/single_pass.cuh") return embedded::kernel_source("single_pass.cuh");
  return {};
}

}  // namespace

int SourceView::line_of(std::string_view marker) const {
  const auto it = markers.find(marker);
  return it == markers.end() ? 0 : it->second;
}

std::span<const AlgorithmInfo> algorithms() { return table(); }

const AlgorithmInfo* find_algorithm(std::string_view id) {
  for (const auto& a : table())
    if (a.id == id) return &a;
  return nullptr;
}

std::vector<std::string> algorithm_ids() {
  std::vector<std::string> ids;
  for (const auto& a : table()) ids.push_back(a.id);
  return ids;
}

std::vector<std::string> traced_ids() {
  std::vector<std::string> ids;
  for (const auto& a : table())
    if (a.kind != Kind::Baseline) ids.push_back(a.id);
  return ids;
}

SourceView parse_source(std::string_view text, std::string_view file, std::string_view id) {
  SourceView view;
  view.file = std::string(file);
  const std::string open = "// <<< " + std::string(id);
  bool inside = false;
  int number = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    ++number;
    if (!inside) {
      if (line == open) {
        inside = true;
        view.first_line = number + 1;
      }
    } else if (line == "// >>>") {
      break;
    } else {
      view.lines.emplace_back(line);
      // "// [tag]" comments name the line a stage corresponds to.
      for (std::size_t at = line.find("// ["); at != std::string_view::npos; at = line.find("// [", at + 1)) {
        const std::size_t close = line.find(']', at);
        if (close != std::string_view::npos) view.markers.emplace(std::string(line.substr(at + 3, close - at - 2)), number);
      }
    }
    pos = end + 1;
  }
  if (view.lines.empty() || view.markers.empty())
    throw std::runtime_error("kernel source " + std::string(file) + " has no complete markers for " + std::string(id));
  return view;
}

const SourceView& source_of(std::string_view id) {
  static std::mutex mutex;
  static std::map<std::string, SourceView, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(id); it != cache.end()) return it->second;
  const AlgorithmInfo* info = find_algorithm(id);
  if (!info || info->file.empty()) throw std::runtime_error("no kernel source for '" + std::string(id) + "'");
  auto view = parse_source(embedded_source(info->file), info->file, id);
  return cache.emplace(std::string(id), std::move(view)).first->second;
}

std::string stage_label(int tag, int param, bool has_shared) {
  const std::string p = std::to_string(param);
  switch (tag) {
    case kernels::kTagLoad: return has_shared ? "load into shared memory" : "load into registers";
    case kernels::kTagLoadAdd: return "add two elements while loading";
    case kernels::kTagGridStride: return "grid-stride: each thread accumulates many elements";
    case kernels::kTagVectorLoad: return "16-byte loads: four elements at a time";
    case kernels::kTagStep: return "stride " + p;
    case kernels::kTagWarpStep: return "last warp, stride " + p;
    case kernels::kTagSerial: return "thread 0 adds the block one cell at a time";
    case kernels::kTagShuffle: return "shuffle down by " + p;
    case kernels::kTagWarpSums: return "warp totals to shared memory";
    case kernels::kTagFinalLoad: return "first warp loads the totals";
    case kernels::kTagFinalShuffle: return "first warp: shuffle down by " + p;
    case kernels::kTagTileReduce: return "cg::reduce over each 32-thread tile";
    case kernels::kTagTileSums: return "tile totals to shared memory";
    case kernels::kTagFinalReduce: return "first tile reduces the tile totals";
    case kernels::kTagAtomic: return "atomic update of the result";
    case kernels::kTagHalving: return "launch: add the upper half at offset " + p;
    case kernels::kTagInput: return "the array in global memory";
    default: return "stage";
  }
}

}  // namespace rl::core
