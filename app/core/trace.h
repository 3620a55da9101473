// The Trace: one format for the CLI's JSON, the GUI, the renderer and the tests.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../kernels/algorithms.h"
#include "../../kernels/stage_tags.h"
#include "code.h"
#include "race.h"
#include "types.h"

namespace rl::core {

// What a trace's `shared` arrays hold: the block's shared memory, or (global-halving) the live
// part of the array in global memory. JSON: "shared" / "global".
enum class Memory { Shared, Global };

// Whether a stage is a __shfl_down_sync step (its lanes came from other lanes).
inline bool is_shuffle(int tag) { return tag == kernels::kTagShuffle || tag == kernels::kTagFinalShuffle; }
struct Trace;
// The thread whose value a shuffle down by `offset` hands `thread`, or -1 where __shfl_down_sync
// hands it back its own value: the source lane lies past its warp's end, past its row's segment
// (__shfl_down_sync's width, Geometry::segment_lanes), or past the block.
int shuffle_source(const Trace& t, int thread, int offset);
// The threads of the traced block that add up one matrix row: a row's segment of lanes
// (Geometry::segment_lanes) or a single thread (a tile of rows). None for another block's row,
// or for a kernel whose rows are not split among a block's threads this way.
struct RowThreads {
  int first = 0, count = 0;
};
std::optional<RowThreads> row_threads(const Trace& t, std::size_t row);

struct Access {
  int thread = 0;
  // Shared-memory cells read and written in the stage, a slot an access; -1: the thread made no
  // access in that slot, which others of its warp made (a kernel of your own, where lanes branch).
  std::vector<int> reads;
  std::vector<int> writes;
  // Distributed shared memory: the block of the cluster (its rank) whose shared memory each read
  // came from, one a read. Empty: every read was of the thread's own block's shared memory.
  std::vector<int> sources;
  // Cells each read and each write spans, one an access (a 16-byte read of floats: 4); empty: 1 each.
  std::vector<int> read_widths{}, write_widths{};
  int read_width(std::size_t k) const { return k < read_widths.size() ? read_widths[k] : 1; }
  int write_width(std::size_t k) const { return k < write_widths.size() ? write_widths[k] : 1; }
  bool operator==(const Access&) const = default;
};

// The loads one thread made from global memory in a stage, in program order (the first
// kernels::kLoadSlots): what the coalescing view groups into warp-wide loads.
struct Load {
  int thread = 0;
  std::vector<long long> elements;  // each load's first element: a flat input index (row * cols + col for a
                                    // matrix); -1: the thread made no load in that slot, which its warp's others did
  std::vector<int> widths;          // elements each load read (a 16-byte load of floats: 4); empty: 1 each
  int width(std::size_t k) const { return k < widths.size() ? widths[k] : 1; }
  bool operator==(const Load&) const = default;
};

// A rectangle of a matrix around the traced block: its values row by row, and which of them
// the traced block reads.
struct Window {
  std::size_t row = 0, col = 0, rows = 0, cols = 0;
  std::vector<double> values;
  std::vector<std::uint8_t> owned;
  bool operator==(const Window&) const = default;
};

struct Stage {
  std::string label;
  int tag = -1;                                // a kernels::Tag: the kind of step; JSON's "step"
  int param = 0;                               // its stride or shuffle offset
  int line = 0;                                // kernel source line (1-based)
  std::string file;  // the file of `line` where it is not the code's own (a helper's); JSON's "file"
  std::optional<std::vector<double>> shared;   // shared array after the stage (global for global-halving)
  std::optional<std::vector<double>> lanes;    // each thread's register value after the stage
  std::vector<int> active;                     // threads that did the stage's work
  std::vector<Access> accesses;                // one per thread that touched shared memory
  std::vector<Load> loads;                     // one per thread that loaded from global memory
  std::optional<int> bank_conflicts;           // worst n-way conflict of a warp-wide access
  int divergent_warps = 0;                     // warps with some but not all threads active, or split
  // Warps whose lanes ran apart in the stage though each may have worked: one of the kernel's
  // instructions issued for some lanes while others were elsewhere (a kernel of your own on the
  // CPU path, which sees each warp's instructions; ptx::Machine::split_warps). Ascending.
  std::vector<int> split_warps;
  bool operator==(const Stage&) const = default;
};

// What one thread of the traced block folded from global memory before the block's tree (a
// grid-stride, vector or matrix loading loop): elements read, operator applications that added
// (the first fold onto the identity only copies), and values it keeps for the block's results
// (a column each over column tiles; one otherwise).
struct ThreadFold {
  std::size_t elements = 0, additions = 0, held = 1;
  bool operator==(const ThreadFold&) const = default;
};

// How the run was laid out, as the backend launched it. Carried in the trace and its JSON, so the
// views, captions and counts read the run itself: a trace of another version, or of a kernel
// this build lacks, draws the same. Unknown (grid_x 0) in traces recorded before it existed;
// the backend completes those of the algorithms it has (backend::complete_geometry).
struct Geometry {
  std::size_t grid_x = 0, grid_y = 1;  // the first pass's blocks in x and y (an array: grid, 1)
  int block_x = 0, block_y = 1;        // a block's threads in x and y
  kernels::Indexing indexing = kernels::Indexing::Tile;  // how a thread picks its elements
  kernels::Tree tree = kernels::Tree::Sequential;        // how a block combines its threads' values
  int thread_cols = 1;  // columns a thread keeps (column tiles with 16-byte loads: 4)
  // Lanes a row's segment holds (row segments: 32 for a warp a row, fewer for short rows); its
  // shuffles pass values only inside a segment (__shfl_down_sync's width). 0: none.
  int segment_lanes = 0;
  // A tile of rows in shared memory (thread-per-row): the columns of each row it holds, and its
  // row pitch in cells (the columns rounded up to odd, one pad cell). 0: none.
  int tile_cols = 0, tile_pitch = 0;
  // Thread block clusters (cluster-dsmem): blocks a cluster, 2, 4 or 8; the grid is whole
  // clusters and the traced block a cluster's first. 0: no clusters.
  int cluster = 0;
  // Rounds of blocks reducing: an array's launches (pass_outputs), or for a matrix 2 where the
  // first pass leaves several partials a line (folded by a second launch or the line's last block).
  int passes = 1;
  std::vector<ThreadFold> folds;  // one a thread of the traced block; empty: each loads one element or pair
  bool known() const { return grid_x > 0; }
  kernels::Lines lines() const { return kernels::lines_of(indexing); }
  bool operator==(const Geometry&) const = default;
};

// What the CPU path's checks found in a kernel of your own (an access outside its buffers, a
// race, a divergent barrier...), in words naming the thread(s), the stage and the line.
struct Finding {
  std::string kind;  // "out-of-bounds", "race", "uninitialised-read", ... (own::ptx::Finding)
  std::string text;
  int line = 0;  // the line in `code` (0: unknown)
  bool operator==(const Finding&) const = default;
};

// When a run was recorded ("2026-11-26 07:40 UTC"; empty in traces from before it was kept).
// Not part of what a run is: two traces of the same request are equal whenever they were made.
struct RecordedAt {
  std::string utc;
  bool operator==(const RecordedAt&) const { return true; }
};

// The all-reduce across GPUs (kernels/collectives.h): N GPUs' buffers cut in chunks, a step a
// stage, in place of one block's memory.
struct Transfer {
  int from = 0, to = 0;
  int chunk = 0;
  bool add = false;  // added into the receiver's copy, or copied over it
  bool operator==(const Transfer&) const = default;
};
struct GpuStage {
  std::vector<Transfer> transfers;        // what moved over which link in the stage
  std::vector<std::vector<double>> held;  // each GPU's chunks after it, each cut to its first `kept` values
  bool operator==(const GpuStage&) const = default;
};
struct Collective {
  int gpus = 0;
  std::vector<std::size_t> chunk_begin;      // chunk c is [chunk_begin[c], chunk_begin[c + 1]); chunks + 1 entries
  std::size_t kept = 0;                      // values `held` keeps of each chunk (all of a shorter one)
  std::vector<GpuStage> stages;              // one a trace stage: the inputs, then the steps
  std::vector<std::vector<double>> results;  // JSON "gpu_results": each GPU's result, its first kMaxPartials values
  bool agree = true;                         // every GPU's whole result equals GPU 0's, bit for bit
  std::size_t chunks() const { return chunk_begin.empty() ? 0 : chunk_begin.size() - 1; }
  bool operator==(const Collective&) const = default;
};

constexpr std::size_t kMaxFindings = 64;  // findings a trace holds

struct Trace {
  std::string algorithm;
  std::string backend;  // "cuda" or "sim"
  std::string device;   // "NVIDIA H100 80GB HBM3" or "CPU model"
  std::string source;   // repository path of the kernel source the lines refer to
  RecordedAt recorded;
  Code code;            // the lines `source` held when the trace was made; empty in older traces
  Memory memory = Memory::Shared;  // what `shared` holds: shared memory, or the global array
  std::size_t size = 0;
  int block = 0;
  std::size_t grid = 0;
  int trace_block = 0;
  Op op = Op::Sum;
  DType type = DType::Int;  // the input elements' type
  // Half and bf16: what they were added in (JSON "accumulate"); lanes, shared memory, partials and
  // results hold values of accumulator_type(type, accumulate).
  Accumulate accumulate = Accumulate::Float;
  std::vector<double> input;  // the traced block's input elements
  double result = 0;          // the reduction of the whole input
  // How the blocks' results become one (the algorithm's row in kernels/algorithms.h), and what every block (or
  // warp, for cg-warp) of the first pass left, in order, as the run recorded it.
  std::optional<kernels::Combine> combine;  // absent in traces of older versions
  std::vector<double> partials;
  std::vector<std::size_t> pass_outputs;  // results each launch leaves (kernels::pass_outputs)
  std::vector<int> tickets;  // work-queue: the block that took each ticket, as the run recorded it
  // The matrix family (rows > 0): `size` is rows x cols, `result` is the first output the traced
  // block wrote (its row, its first column, or the whole matrix), `outputs` every row's or
  // column's result (up to kernels::kMaxPartials).
  std::size_t rows = 0, cols = 0;
  std::vector<double> outputs;
  std::size_t outputs_total = 0;  // every row's or column's result: more than outputs.size() where capped
  // A row's chunks folded in the launch (combine last-block): by the row's first block, which
  // waited for the others' results (batched-rows-vectorized's first-waits), not by its last.
  bool first_block_waits = false;
  Window window;
  Geometry geometry;
  std::vector<Stage> stages;
  // A race-revealing recording (trace --runs): N runs, and the replay of one block. The stages'
  // shared memory is then the run's, race->meant the model's.
  std::optional<Race> race;
  std::vector<Finding> findings;  // a kernel of your own's (at most kMaxFindings); empty otherwise
  // An all-reduce across GPUs: `size` values a GPU, no block (block and grid 0), `result` GPU 0's
  // first value, and the GPUs' buffers here.
  std::optional<Collective> collective;
  bool operator==(const Trace&) const = default;
};

// A kernel of the student's own: its code, not a catalog row, decides who works on what.
inline bool own_kernel(const Trace& t) { return t.geometry.indexing == kernels::Indexing::Own; }
// Whether stages' `active`, accesses and loads record who worked and where: our kernels' traces do;
// a kernel of your own's do where the CPU path ran it (the threads that touched shared memory or
// loaded input in each barrier's stage), not where a GPU did (only its [lanes] stages' callers).
inline bool records_work(const Trace& t) {
  return !own_kernel(t) || std::any_of(t.stages.begin(), t.stages.end(),
                                       [](const Stage& s) { return s.tag != kernels::kTagLanes && !s.active.empty(); });
}

// The type of what a run added and recorded (lanes, shared memory, partials, results): the
// element type, or float for halves and bf16 added in float. Inputs are of t.type.
inline DType value_type(const Trace& t) { return accumulator_type(t.type, t.accumulate); }

// The bytes of a shared-memory cell as the traced kernel holds it: the elements' own where its
// tiles are bulk copies of the input (flat-rows over halves holds halves, which the trace shows
// widened to the float they are added in), else the added values' (a tree of halves added in float
// holds floats). What the bank rules (facts.h) and the trace's check of access widths count in.
inline std::size_t shared_cell_bytes(const Trace& t) {
  const kernels::AlgorithmRow* row = kernels::find_row(t.algorithm);
  return element_bytes(row && row->bulk_copy ? t.type : value_type(t));
}

// Widths (of loads, of shared accesses) as a trace file keeps them: none where every one is 1.
inline void drop_unit_widths(std::vector<int>& widths) {
  if (std::all_of(widths.begin(), widths.end(), [](int w) { return w == 1; })) widths.clear();
}

// Where a stage's line is: in the code's own file unless the stage names another.
inline Place stage_place(const Trace& t, const Stage& s) { return {s.file.empty() ? t.code.file : s.file, s.line}; }

// The most elements a trace records: the CLI's cap, and a trace file's.
constexpr std::size_t kMaxTracedElements = std::size_t(1) << 27;

std::string to_json(const Trace& trace, int indent = 2);
// Throws std::runtime_error naming the first field that is missing, malformed or outside the
// trace's own geometry (block, grid, size, stages, cells, threads); its text fields escaped.
// A trace without "geometry" (recorded before it existed) is read with geometry unknown.
Trace trace_from_json(const std::string& text);
std::string to_text(const Trace& trace);

}  // namespace rl::core
