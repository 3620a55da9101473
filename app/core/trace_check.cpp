// The checks a trace from a file passes before it is shown (trace_check.h).
#include "trace_check.h"

#include <algorithm>
#include <set>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "../../kernels/collectives.h"
#include "../../kernels/matrix_shapes.h"
#include "../../kernels/raw_trace.h"

namespace rl::core {
namespace {

// A row tile's widest pitch: the most columns of 4-byte elements a tile takes, and its pad.
constexpr int kMaxTilePitch = kernels::kTileRowBytes / 4 + 1;

// Whether a value of the type can be v: an int a 32-bit whole number; a float, half or bf16
// one its bits hold (or infinite or NaN, as min, max and a NaN's path leave them); any double.
bool holds(double v, DType type) {
  if (type == DType::Int)
    return std::isfinite(v) && v == std::floor(v) && v >= double(std::numeric_limits<std::int32_t>::min()) &&
           v <= double(std::numeric_limits<std::int32_t>::max());
  return !std::isfinite(v) || round_to_type(v, type) == v;
}

// A field that does not fit the others: one line naming it, whatever made the file.
[[noreturn]] void misfit(const std::string& field, const std::string& why) {
  throw std::runtime_error("trace field '" + field + "' " + why);
}

void check_stage(const Trace& t, const Stage& s, std::size_t k, std::size_t cells) {
  const std::string at = " in stage " + std::to_string(k);
  // global-halving's stages are the whole array's: a thread an element, across its launches.
  const std::size_t threads =
      t.memory == Memory::Global ? std::max(t.size, std::size_t(t.block) * t.grid) : std::size_t(t.block);
  const auto thread = [&](int th, const char* field) {
    if (th < 0 || std::size_t(th) >= threads)
      misfit(field, "names thread " + std::to_string(th) + at + ", outside the " + std::to_string(threads) +
                        " threads traced");
  };
  if (s.line < 0) misfit("line", "is negative" + at);
  if ((s.shared && s.shared->empty()) || (s.lanes && s.lanes->empty()))
    misfit(s.shared && s.shared->empty() ? "shared" : "lanes", "holds no cells" + at + " (absent is null, not [])");
  if (s.lanes && s.lanes->size() > std::size_t(t.block))
    misfit("lanes", "holds more lanes than the block's threads" + at);
  for (int th : s.active) thread(th, "active");
  const int warps = (t.block + 31) / 32;
  for (std::size_t i = 0; i < s.split_warps.size(); ++i)
    if (s.split_warps[i] < 0 || s.split_warps[i] >= warps || (i > 0 && s.split_warps[i] <= s.split_warps[i - 1]))
      misfit("split_warps", "names warp " + std::to_string(s.split_warps[i]) + at +
                                ": warps of the block, each once, in order (" + std::to_string(warps) + " warps)");
  // One shared access: inside the cells, and as wide as a load or store can be (1, 2, 4, 8 or 16
  // bytes, on a boundary of its own size, as PTX's vector accesses must be).
  const std::size_t eb = shared_cell_bytes(t);
  const auto access = [&](int c, int w) {
    if (c == -1 && w == 1) return;  // no access in that slot, which others of the thread's warp made
    const std::string name = "names cell " + std::to_string(c) + (w != 1 ? " (" + std::to_string(w) + " wide)" : "");
    if (c < 0 || w < 1 || std::size_t(c) + std::size_t(w) > cells)
      misfit("accesses", name + at + ", outside the " + std::to_string(cells) + " recorded cells");
    if (w > 1 && (std::size_t(w) * eb > 16 || (w & (w - 1)) != 0 || c % w != 0))
      misfit("accesses",
             name + at + ": no load or store moves " + std::to_string(std::size_t(w) * eb) +
                 " bytes from there (a power of two of elements, 16 bytes at most, on a boundary of its size)");
  };
  for (const auto& a : s.accesses) {
    thread(a.thread, "accesses");
    for (const bool write : {false, true}) {
      const auto& list = write ? a.writes : a.reads;
      for (std::size_t i = 0; i < list.size(); ++i) access(list[i], write ? a.write_width(i) : a.read_width(i));
    }
    if (!a.sources.empty() && a.sources.size() != a.reads.size())
      misfit("accesses", "gives 'sources' for other than one a read" + at);
    if (!a.sources.empty() && std::find(a.reads.begin(), a.reads.end(), -1) != a.reads.end())
      misfit("accesses", "gives 'sources' beside a read slot of -1 (no read)" + at);
    for (int b : a.sources)
      if (b < 0 || b >= t.geometry.cluster)
        misfit("accesses", "names block " + std::to_string(b) + " of a cluster" + at + ", outside the cluster of " +
                               std::to_string(t.geometry.cluster) + " block(s)");
  }
  for (const auto& l : s.loads) {
    thread(l.thread, "loads");
    for (long long e : l.elements)
      if (e < -1 || (e >= 0 && std::uint64_t(e) >= t.size))  // e + 1 overflowed at 2^63 - 1 (fuzz_views)
        misfit("loads", "names element " + std::to_string(e) + at + ", outside the input");
  }
}

// The recorded layout must agree with the trace's grid, block and size.
void check_layout(const Trace& t) {
  const Geometry& g = t.geometry;
  if (!g.known()) return;
  if (g.grid_y < 1 || g.grid_x > t.grid || g.grid_x * g.grid_y != t.grid)
    misfit("geometry", "gives a grid that is not 'grid' blocks");
  if (g.block_x < 1 || g.block_y < 1 || g.block_x * g.block_y != t.block)
    misfit("geometry", "gives a block that is not 'block' threads");
  if (g.thread_cols < 1 || g.thread_cols > kernels::kVectorColumns)
    misfit("geometry", "gives a thread 'thread_cols' outside 1 to 4");
  if (g.passes < 1 || g.passes > 64) misfit("geometry", "gives 'passes' outside 1 to 64");
  const int s = g.segment_lanes;
  if (s < 0 || s > 32 || (s & (s - 1)) != 0 ||
      (s > 0) != (g.indexing == kernels::Indexing::RowSegments || g.indexing == kernels::Indexing::FlatTiles))
    misfit("geometry",
           "gives 'segment_lanes' of " + std::to_string(s) + "; row segments hold 1 to 32 lanes, a power of two");
  const bool tiled = g.indexing == kernels::Indexing::RowTile;
  if (tiled != (g.tile_pitch > 0) || g.tile_cols < 0 || g.tile_cols > g.tile_pitch || g.tile_pitch > g.tile_cols + 1 ||
      g.tile_pitch > kMaxTilePitch)
    misfit("geometry", "gives a 'tile' of " + std::to_string(g.tile_cols) + " columns in a pitch of " +
                           std::to_string(g.tile_pitch) + "; a row tile's pitch is its columns or one more, 1 to " +
                           std::to_string(kMaxTilePitch));
  const int c = g.cluster;
  if ((c != 0 && c != 2 && c != 4 && c != 8) || (c > 0) != (g.tree == kernels::Tree::Cluster))
    misfit("geometry", "gives a 'cluster' of " + std::to_string(c) +
                           "; clusters of 2, 4 or 8 blocks, for a tree of clusters alone");
  if (c > 0 && (t.grid % std::size_t(c) != 0 || t.trace_block % c != 0))
    misfit("geometry", "gives clusters of " + std::to_string(c) +
                           " blocks that do not tile the grid from the traced block's cluster");
  if (c > 0 && !t.pass_outputs.empty() && t.pass_outputs[0] != t.grid / std::size_t(c))
    misfit("pass_outputs", "gives " + std::to_string(t.pass_outputs[0]) + " first-pass results for " +
                               std::to_string(t.grid / std::size_t(c)) + " clusters");
  for (const auto& stage : t.stages)
    if (stage.tag == kernels::kTagDsmemRead && stage.param != c)
      misfit("stages", "hold a distributed shared memory read of " + std::to_string(stage.param) +
                           " blocks in clusters of " + std::to_string(c));
  if (!g.folds.empty() && g.folds.size() != std::size_t(t.block))
    misfit("geometry", "gives 'folds' for other than one a thread");
  for (const auto& f : g.folds)
    if (f.elements > t.size || f.additions > f.elements || f.held > std::size_t(g.thread_cols))
      misfit("geometry", "gives a thread's fold more elements, additions or values than it can hold");
  if ((t.rows > 0) != (g.lines() != kernels::Lines::Whole || g.indexing == kernels::Indexing::Tile2d))
    misfit("geometry", "gives an 'indexing' of " + std::string(kernels::to_string(g.indexing)) +
                           (t.rows > 0 ? ", which is not a matrix's" : ", which is a matrix's"));
}

// An array's launches: each leaves at least one result and fewer than the last, the first at most
// one a warp of its grid (cg-warp's tiles), and its partials are as many. A file's 2^63 results
// for 4 blocks divided the grid view's boxes by zero.
void check_passes(const Trace& t) {
  if (t.rows > 0) return;  // a matrix's partials are a line's chunks: bounded by its window and outputs
  const std::size_t most = t.grid * std::max<std::size_t>(1, std::size_t(t.block) / 32);
  if (t.pass_outputs.size() > 64) misfit("pass_outputs", "lists more than 64 launches");
  for (std::size_t i = 0; i < t.pass_outputs.size(); ++i) {
    const std::size_t n = t.pass_outputs[i], cap = i == 0 ? most : t.pass_outputs[i - 1] - 1;
    if (n < 1 || n > cap)
      misfit("pass_outputs", "gives " + std::to_string(n) + " results for launch " + std::to_string(i + 1) + "; 1 to " +
                                 std::to_string(cap) + " there");
  }
  if (t.partials.size() > most)
    misfit("partials", "holds " + std::to_string(t.partials.size()) + " results for " + std::to_string(t.grid) +
                           " blocks of " + std::to_string(t.block) + " threads (at most " + std::to_string(most) + ")");
}

// An all-reduce across GPUs: its GPUs, chunks, stages and results agree with each other and with
// 'size'; it has no block, grid or matrix.
void check_collective(const Trace& t) {
  const Collective& c = *t.collective;
  namespace ar = model::all_reduce;
  if (c.gpus < ar::kMinGpus || c.gpus > ar::kMaxGpus)
    misfit("gpus", "is " + std::to_string(c.gpus) + "; an all-reduce runs over " + std::to_string(ar::kMinGpus) +
                       " to " + std::to_string(ar::kMaxGpus) + " GPUs");
  if (t.size < 1 || t.size > kMaxTracedElements)
    misfit("size", "is " + std::to_string(t.size) + "; a trace holds 1 to " + std::to_string(kMaxTracedElements) +
                       " values a GPU");
  if (t.block != 0 || t.grid != 0 || t.trace_block != 0 || t.rows != 0 || t.race || t.geometry.known() ||
      !t.input.empty() || !t.partials.empty() || !t.pass_outputs.empty())
    misfit("gpus",
           "belongs to an all-reduce across GPUs, which has no block, grid, input of one block, partials, "
           "matrix or race");
  const auto& b = c.chunk_begin;
  if (b.size() < 2 || b.size() > std::size_t(c.gpus) + 1 || b.front() != 0 || b.back() != t.size ||
      !std::is_sorted(b.begin(), b.end()))
    misfit("chunk_begin", "does not cut the " + std::to_string(t.size) + " values into 1 to " + std::to_string(c.gpus) +
                              " chunks in order");
  if (c.kept < 1 || c.kept > kernels::kKeptChunkValues)
    misfit("kept", "is " + std::to_string(c.kept) + "; a stage keeps 1 to " +
                       std::to_string(kernels::kKeptChunkValues) + " values of each chunk");
  if (c.stages.size() != t.stages.size()) misfit("transfers", "are not given for every stage");
  std::size_t held = 0;  // values a GPU's stage keeps: each chunk's first `kept`, or all of a shorter one
  for (std::size_t k = 0; k + 1 < b.size(); ++k) held += std::min(c.kept, b[k + 1] - b[k]);
  for (std::size_t k = 0; k < c.stages.size(); ++k) {
    const std::string at = " in stage " + std::to_string(k);
    for (const Transfer& x : c.stages[k].transfers)
      if (x.from < 0 || x.from >= c.gpus || x.to < 0 || x.to >= c.gpus || x.from == x.to || x.chunk < 0 ||
          std::size_t(x.chunk) >= c.chunks())
        misfit("transfers", "name GPU " + std::to_string(x.from) + " to GPU " + std::to_string(x.to) + ", chunk " +
                                std::to_string(x.chunk) + at + ", outside the " + std::to_string(c.gpus) +
                                " GPUs and " + std::to_string(c.chunks()) + " chunks");
    if (c.stages[k].held.size() != std::size_t(c.gpus)) misfit("held", "is not one list a GPU" + at);
    for (const auto& h : c.stages[k].held)
      if (h.size() != held) misfit("held", "does not keep " + std::to_string(held) + " values a GPU" + at);
  }
  const std::size_t results = std::min(t.size, kernels::kMaxPartials);
  if (c.results.size() != std::size_t(c.gpus)) misfit("gpu_results", "is not one list a GPU");
  for (const auto& r : c.results)
    if (r.size() != results) misfit("gpu_results", "does not hold " + std::to_string(results) + " values a GPU");
}

// Each stage's file (a helper's, where not the code's own) is one the trace's code shows.
void check_stage_files(const Trace& t) {
  std::set<std::string, std::less<>> shown(t.code.files.begin(), t.code.files.end());
  shown.insert(t.code.file);
  for (std::size_t k = 0; k < t.stages.size(); ++k)
    if (const std::string& f = t.stages[k].file; !f.empty() && !shown.contains(f))
      misfit("file", "names " + f + " in stage " + std::to_string(k) + ", a file the trace's code does not show");
}

}  // namespace

// Every value is one the type holds (the accumulator's type for what the run added: lanes,
// shared memory, partials, result): an int cell of 2^64 - 1 reached format_value's cast to long
// long (fuzz_views, issue 48), 3e9 in int cells was accepted.
void check_values(const std::vector<double>& values, DType type, const char* field) {
  for (double v : values)
    if (!holds(v, type))
      throw std::runtime_error(std::string("trace field '") + field + "' holds " + format_value(v, DType::Double) +
                               ", which is no " + to_string(type));
}

void check_held_values(const Trace& t) {
  const DType acc = accumulator_type(t.type, t.accumulate);
  check_values(t.partials, acc, "partials");
  check_values({t.result}, acc, "result");
  check_values(t.outputs, acc, "outputs");
  // The matrix window holds elements: an int cell of 2^64 reached format_value's cast in the
  // matrix view (fuzz_views' long run, issue 48).
  check_values(t.window.values, t.type, "window values");
  for (const Stage& s : t.stages) {
    if (s.shared) check_values(*s.shared, acc, "shared");
    if (s.lanes) check_values(*s.lanes, acc, "lanes");
  }
  if (t.collective) {
    for (const auto& g : t.collective->stages)
      for (const auto& h : g.held) check_values(h, acc, "held");
    for (const auto& r : t.collective->results) check_values(r, acc, "gpu_results");
  }
  if (!t.race) return;
  for (const auto& m : t.race->meant) check_values(m, acc, "meant");
  for (const auto& x : t.race->stale) check_values({x.seen, x.meant}, acc, "stale");
}

// Everything the views index by: a trace from a file must fit its own geometry before it is
// shown (a block of -1, a grid of 0 or an element past the input draw nonsense or crash).
void check_geometry(const Trace& t) {
  check_stage_files(t);
  if (t.collective) return check_collective(t);
  if (t.block < 1 || t.block > 1024)
    misfit("block", "is " + std::to_string(t.block) + "; a block holds 1 to 1024 threads");
  if (t.size < 1 || t.size > kMaxTracedElements)
    misfit("size",
           "is " + std::to_string(t.size) + "; a trace holds 1 to " + std::to_string(kMaxTracedElements) + " elements");
  if (t.grid < 1 || t.grid > std::size_t(std::numeric_limits<int>::max()))
    misfit("grid", "is " + std::to_string(t.grid));
  if (t.trace_block < 0 || std::size_t(t.trace_block) >= t.grid)
    misfit("trace_block", "is " + std::to_string(t.trace_block) + ", outside the grid of " + std::to_string(t.grid));
  if (t.input.size() > t.size) misfit("input", "holds more elements than 'size'");
  if (t.rows > 0 && (t.cols < 1 || t.rows > t.size / t.cols || t.rows * t.cols != t.size))
    misfit("rows", "times 'cols' is not 'size'");
  check_passes(t);
  if (t.stages.empty()) misfit("stages", "is empty: a trace has at least one stage");
  check_layout(t);
  std::size_t cells = 0;  // a stage may record no memory and still name cells of the stages' array
  for (const auto& s : t.stages) cells = std::max(cells, s.shared ? s.shared->size() : 0);
  for (std::size_t k = 0; k < t.stages.size(); ++k) check_stage(t, t.stages[k], k, cells);
}

}  // namespace rl::core
