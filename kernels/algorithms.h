// The one table of algorithms: every fact about an algorithm that code uses lives in its row.
// The CLI's ids, the catalog, block checks, launch and model dispatch, the embedded sources,
// the PTX probe check and the Harris order all read it. A new algorithm is its kernel (marked
// `// <<< id` in its source), its model, its lesson (kernels/lessons/ID.md) and one row here.
#pragma once
#include <cstddef>
#include <string_view>

#include "algo.h"

namespace rl::kernels {

// The kernels, each with its row in kAlgorithms below: a new kernel is a name here and its row.
enum class Algo {
  NaiveSerial,
  GlobalHalving,
  InterleavedDivergent,
  InterleavedBankConflicts,
  Sequential,
  FirstAddOnLoad,
  UnrollLastWarp,
  CompleteUnroll,
  MultiplePerThread,
  NonPow2Block,
  WarpShuffle,
  WarpShuffleVectorized,
  WorkQueue,
  CgWarp,
  CgBlock,
  CgTwoPhase,
  CgReduceUpdateAsync,
  CgGridSync,
  ThreadfenceSinglePass,
  MissingSyncthreads,
  LegacyWarpSynchronous,
  SyncthreadsInBranch,
  BatchedRows,
  BatchedRowsShuffle,
  BatchedRowsSplit,
  ColumnSums,
  ColumnSumsNaive,
  Block2d,
  ColumnSumsVectorized,
  BatchedRowsVectorized,
  WarpPerRow,
  LanesPerRow,
  ThreadPerRow,
  ReduxSync,
  ClusterDsmem,
  BulkAsync,
  VectorizedOrdered,
  Compensated,
  ReduxSyncStreaming,
  ClusterDsmemStreaming,
  BulkAsyncStreaming,
  FlatRows,
};
constexpr Algo kLastAlgo = Algo::FlatRows;  // every Algo has a row (static_assert below)

// Which outputs a reduction leaves: one per row, one per column, or one in all.
enum class Lines { Rows, Columns, Whole };

enum class Family { Tree, WarpShuffle, CooperativeGroups, SinglePass, Pitfall, Matrix, Hopper, Baseline };

// How the blocks' results become one.
enum class Combine {
  Passes,        // the same kernel again over the partials, until one is left
  SecondKernel,  // one block over the partials
  Atomics,       // each block adds its result atomically
  LastBlock,     // a retirement counter: the last block folds the partials
  GridSync,      // a cooperative launch: after grid.sync() block 0 folds them
  Halving,       // global-halving: one launch per halving, no per-block result
  Outputs,       // matrix rows or columns: each block's result is an output of its own
  BulkReduce,    // each block adds its result with one bulk reduction from shared memory (cp.reduce.async.bulk)
  None,          // baselines
};

// How a thread picks the elements it loads. Grids, traced elements, work counts and the CPU
// model read it (kernels/model/: shapes.cpp, matrix_shapes.cpp, model.cpp).
enum class Indexing {
  Tile,             // a block's tile: one element a thread
  PairTile,         // two tiles a block apart, added while loading
  GridStride,       // a block's tile of every grid-wide stride
  GridStridePairs,  // pairs of tiles a block apart, every grid-wide stride
  Vectors,          // 16-byte vectors by grid stride, then the scalar tail
  Tickets,          // chunks of 16-byte vectors taken by ticket from a counter, then the scalar tail
  WholeArray,       // every element, in global memory (one launch a halving)
  RowPerBlock,      // matrix: a block a row, its threads striding along it
  RowChunks,        // matrix: a block a chunk of a row
  ColumnTiles,      // matrix: a block a tile of columns and a chunk of rows, threads in x and y
  ColumnWalk,       // matrix: a thread walks its whole column
  Tile2d,           // matrix: 2D blocks striding in x and y over the whole matrix
  RowSegments,      // matrix: a segment of a warp's lanes a row (a whole warp, or a few lanes), rows by grid stride
  RowTile,          // matrix: a block copies a tile of rows into shared memory, then a thread adds a row
  FlatTiles,        // matrix: a block a run of whole rows, copied flat in tiles; a few threads a row of each tile
  Own,              // a kernel of the student's own: its code picks, unknown to the lab (docs/own-kernel.md)
};

// How a block combines what its threads hold.
enum class Tree {
  Sequential,    // shared memory, the low half adds the high half (sequential addressing)
  Interleaved,   // shared memory, thread t adds when t is a multiple of 2s (a divergent branch)
  Strided,       // shared memory, thread t adds cells 2st and 2st + s (bank conflicts)
  AnyBlock,      // shared memory, halving over the next power of two, bounds-checked
  LastWarp,      // shared memory down to 64 cells, then the last warp without block barriers
  Serial,        // thread 0 adds every cell
  Shuffle,       // __shfl_down_sync within warps, then the warps' results
  Redux,         // one __reduce_*_sync (redux.sync) a warp, then the warps' results the same way
  Cluster,       // warp shuffles to warp totals; a cluster's first block folds every block's through DSMEM
  CgTiles,       // cooperative groups: cg::reduce over warp tiles, a result a tile
  CgTilesAsync,  // cooperative groups: cg::reduce_update_async from each tile into one result
  CgBlock,       // cooperative groups: warp tiles, then the tiles' results through shared memory
  Halving,       // no block tree: a launch adds the array's upper half onto its lower half
  Segments,      // no block tree: __shfl_down_sync with width, inside each row's segment of lanes
  None,          // no tree: a thread's own fold is the output (column-sums-naive)
  Own,           // a kernel of the student's own: its code combines, unknown to the lab
};

enum class BlockRule { PowerOfTwo, Any };  // 32..1024 in powers of two, or 2..1024
enum class Shape { Array, Matrix };        // takes --size, or --rows and --cols

// The indexings whose first pass strides over the array with a grid it sizes itself (a wave of
// the device unless a grid is asked for).
constexpr bool grid_stride(Indexing i) {
  return i == Indexing::GridStride || i == Indexing::GridStridePairs || i == Indexing::Vectors ||
         i == Indexing::Tickets;
}

struct AlgorithmRow {
  std::string_view id;
  Algo algo;          // kernels (unused for baselines)
  Baseline baseline;  // baselines (unused for kernels)
  Family family;
  std::string_view title;
  std::string_view source;  // the kernel's file, holding `// <<< id`; empty for baselines
  Combine combine;
  BlockRule blocks;
  bool gpu;         // launched on a GPU (syncthreads-in-branch is modelled only)
  int harris_step;  // 1..7: the kernel of Harris' "Optimizing Parallel Reduction"; 0 otherwise
  Shape shape;
  Indexing indexing;
  Tree tree;
  bool vectors;  // 16-byte loads (where a row's or array's alignment allows)
  std::string_view fix = {};  // a pitfall that races: the corrected algorithm, shown beside it
  bool ints_only = false;     // reduces 32-bit ints alone (redux.sync adds no floats or doubles)
  // Tiles reach shared memory by bulk asynchronous copies (cp.async.bulk) whose bytes an
  // mbarrier counts: two stages of the trace before the fold.
  bool bulk_copy = false;
  int tile_bytes = 0;  // bulk copies: bytes a tile (0: 16 bytes a thread of the block)
  int stages = 0;      // bulk copies: tiles a block has in flight or in use at once
  int cluster = 0;     // thread block clusters (Tree::Cluster): blocks a cluster when none is asked
  // Each thread's loop adds with Neumaier's compensation: floating-point sums only, and one stage
  // more (the running sum, then the sum with what its roundings lost added back).
  bool compensated = false;
  // Takes half and bfloat16 elements (__half, __nv_bfloat16), added in float or in their own type.
  bool narrow = false;
};

// Whether a row reduces elements of this kind with this operator (int or not: the hardware's
// instructions split there). A bulk reduction (cp.reduce.async.bulk) adds f32 and f64 but has no
// f32 or f64 min or max (PTX ISA; CCCL's cuda::ptx wrappers have the same set).
constexpr bool takes(const AlgorithmRow& r, bool integral, OpKind op) {
  if (r.ints_only && !integral) return false;
  if (r.compensated) return !integral && op == OpKind::Sum;  // nothing rounds in an int sum, a min or a max
  return integral || r.combine != Combine::BulkReduce || op == OpKind::Sum;
}

// The compute capability (major) a row's hardware features need, and the feature, in words:
// thread block clusters and bulk copies 9 (sm_90), the warp reduce instruction 8 (sm_80); 0: any.
struct Needs {
  int major = 0;
  std::string_view what;
};
constexpr Needs needs(const AlgorithmRow& r) {
  if (r.tree == Tree::Cluster) return {9, "thread block clusters"};
  if (r.bulk_copy) return {9, "bulk asynchronous copies (cp.async.bulk)"};
  if (r.tree == Tree::Redux) return {8, "the warp reduce instruction (redux.sync)"};
  return {};
}

// Whether the blocks' results meet in whatever order the blocks finish: a float sum may differ
// run to run.
constexpr bool unordered(Combine c) { return c == Combine::Atomics || c == Combine::BulkReduce; }

// Whether the same input, launch and GPU give the same bits every run (the determinism lab).
enum class RunToRun {
  Fixed,    // every add in the same order: the same bits every run
  Arrival,  // blocks meet in arrival order: float and double sums may differ in their last bits
  Pitfall,  // a pitfall (a race, a barrier not every thread reaches): nothing is promised
  Library,  // a library's promise, which its lesson states
  None,     // not a reduction (the copy)
};

namespace table {
using A = Algo;
using B = Baseline;
using F = Family;
using C = Combine;
using I = Indexing;
using T = Tree;
constexpr std::string_view kTree = "kernels/tree.cuh", kShuffle = "kernels/shuffle.cuh", kCg = "kernels/cg.cuh",
                           kSingle = "kernels/single_pass.cuh", kMatrix = "kernels/matrix.cuh",
                           kShortRows = "kernels/short_rows.cuh", kFlatRows = "kernels/flat_rows.cuh",
                           kShuffleRows = "kernels/shuffle_rows.cuh";

// A row by name: a kernel's defaults (combined in passes, power-of-two blocks, launched on a GPU,
// an array, a tile a block, no 16-byte loads) or a baseline's, changed by the calls after it.
struct Row {
  AlgorithmRow r;
  template <class Field, class Value>
  constexpr Row with(Field AlgorithmRow::*field, Value value) const {
    Row next = *this;
    next.r.*field = value;
    return next;
  }
  constexpr Row matrix() const { return with(&AlgorithmRow::shape, Shape::Matrix); }
  constexpr Row combine(Combine c) const { return with(&AlgorithmRow::combine, c); }
  constexpr Row any_block() const { return with(&AlgorithmRow::blocks, BlockRule::Any); }
  constexpr Row harris(int step) const { return with(&AlgorithmRow::harris_step, step); }
  constexpr Row indexing(Indexing i) const { return with(&AlgorithmRow::indexing, i); }
  constexpr Row tree(Tree t) const { return with(&AlgorithmRow::tree, t); }
  constexpr Row vectors() const { return with(&AlgorithmRow::vectors, true); }
  constexpr Row no_gpu() const { return with(&AlgorithmRow::gpu, false); }
  constexpr Row fix(std::string_view id) const { return with(&AlgorithmRow::fix, id); }
  constexpr Row ints_only() const { return with(&AlgorithmRow::ints_only, true); }
  constexpr Row bulk_copy(int tile_bytes, int stages) const {
    return with(&AlgorithmRow::bulk_copy, true)
        .with(&AlgorithmRow::tile_bytes, tile_bytes)
        .with(&AlgorithmRow::stages, stages);
  }
  constexpr Row clusters(int blocks) const { return with(&AlgorithmRow::cluster, blocks); }
  constexpr Row compensated() const { return with(&AlgorithmRow::compensated, true); }
  constexpr Row narrow() const { return with(&AlgorithmRow::narrow, true); }
  constexpr operator AlgorithmRow() const { return r; }  // NOLINT(google-explicit-constructor): a table row
};

constexpr Row kernel(std::string_view id, Algo algo, Family family, std::string_view source, std::string_view title) {
  return {AlgorithmRow{id,
                       algo,
                       {},
                       family,
                       title,
                       source,
                       Combine::Passes,
                       BlockRule::PowerOfTwo,
                       true,
                       0,
                       Shape::Array,
                       Indexing::Tile,
                       Tree::None,
                       false}};
}

constexpr Row baseline(std::string_view id, Baseline b, std::string_view title) {
  return {AlgorithmRow{id,
                       {},
                       b,
                       Family::Baseline,
                       title,
                       {},
                       Combine::None,
                       BlockRule::PowerOfTwo,
                       true,
                       0,
                       Shape::Array,
                       Indexing::Tile,
                       Tree::None,
                       false}};
}

// One row a kernel, then the baselines: kernel(id, algo, family, source, title), then what
// differs from the defaults, by name.
// clang-format off
inline constexpr AlgorithmRow kAlgorithms[] = {
    kernel("naive-serial", A::NaiveSerial, F::Tree, kTree, "Naive: one thread adds the block")
        .tree(T::Serial),
    kernel("global-halving", A::GlobalHalving, F::Tree, kTree, "Halving in global memory, launches as barriers")
        .combine(C::Halving).indexing(I::WholeArray).tree(T::Halving),
    kernel("interleaved-divergent", A::InterleavedDivergent, F::Tree, kTree,
        "Interleaved addressing, divergent branch")
        .harris(1).tree(T::Interleaved),
    kernel("interleaved-bank-conflicts", A::InterleavedBankConflicts, F::Tree, kTree,
        "Interleaved addressing, strided index")
        .harris(2).tree(T::Strided),
    kernel("sequential", A::Sequential, F::Tree, kTree, "Sequential addressing")
        .harris(3).tree(T::Sequential).narrow(),
    kernel("first-add-on-load", A::FirstAddOnLoad, F::Tree, kTree, "First add during load")
        .harris(4).indexing(I::PairTile).tree(T::Sequential),
    kernel("unroll-last-warp", A::UnrollLastWarp, F::Tree, kTree, "Last warp without block-wide barriers")
        .harris(5).indexing(I::PairTile).tree(T::LastWarp),
    kernel("complete-unroll", A::CompleteUnroll, F::Tree, kTree,
        "Complete unroll (block size as a template parameter)")
        .harris(6).indexing(I::PairTile).tree(T::LastWarp),
    kernel("multiple-per-thread", A::MultiplePerThread, F::Tree, kTree,
        "Multiple elements per thread (algorithm cascading)")
        .combine(C::SecondKernel).harris(7).indexing(I::GridStridePairs).tree(T::LastWarp),
    kernel("non-pow2-block", A::NonPow2Block, F::Tree, kTree, "Any block size")
        .any_block().tree(T::AnyBlock),
    kernel("warp-shuffle", A::WarpShuffle, F::WarpShuffle, kShuffle, "Warp shuffle")
        .tree(T::Shuffle).narrow(),
    kernel("warp-shuffle-vectorized", A::WarpShuffleVectorized, F::WarpShuffle, kShuffle,
        "Vectorized loads, shuffle, one atomic per block")
        .combine(C::Atomics).indexing(I::Vectors).tree(T::Shuffle).vectors().narrow(),
    kernel("work-queue", A::WorkQueue, F::WarpShuffle, kShuffle, "A work queue: blocks take tickets from a counter")
        .combine(C::Atomics).indexing(I::Tickets).tree(T::Shuffle).vectors().narrow(),
    kernel("cg-warp", A::CgWarp, F::CooperativeGroups, kCg, "Cooperative groups: warp tiles")
        .tree(T::CgTiles),
    kernel("cg-block", A::CgBlock, F::CooperativeGroups, kCg, "Cooperative groups: tiles, then the block")
        .tree(T::CgBlock),
    kernel("cg-two-phase", A::CgTwoPhase, F::CooperativeGroups, kCg, "Cooperative groups: two phases")
        .combine(C::SecondKernel).indexing(I::GridStride).tree(T::CgBlock),
    kernel("cg-reduce-update-async", A::CgReduceUpdateAsync, F::CooperativeGroups, kCg,
        "Cooperative groups: reduce_update_async")
        .combine(C::Atomics).indexing(I::GridStride).tree(T::CgTilesAsync),
    kernel("cg-grid-sync", A::CgGridSync, F::CooperativeGroups, kCg, "Cooperative groups: grid sync")
        .combine(C::GridSync).indexing(I::GridStride).tree(T::CgBlock),
    kernel("threadfence-single-pass", A::ThreadfenceSinglePass, F::SinglePass, kSingle,
        "Single pass with __threadfence()")
        .combine(C::LastBlock).tree(T::Sequential),
    kernel("missing-syncthreads", A::MissingSyncthreads, F::Pitfall, kTree, "Pitfall: the missing barrier")
        .tree(T::Sequential).fix("sequential"),
    kernel("legacy-warp-synchronous", A::LegacyWarpSynchronous, F::Pitfall, kTree,
        "Pitfall: pre-Volta warp-synchronous code")
        .indexing(I::PairTile).tree(T::LastWarp).fix("unroll-last-warp"),
    kernel("syncthreads-in-branch", A::SyncthreadsInBranch, F::Pitfall, kTree, "Pitfall: a barrier inside a branch")
        .tree(T::Sequential).no_gpu(),
    kernel("batched-rows", A::BatchedRows, F::Matrix, kMatrix, "Batched rows: a block per row, shared-memory tree")
        .matrix().combine(C::Outputs).indexing(I::RowPerBlock).tree(T::Sequential),
    kernel("batched-rows-shuffle", A::BatchedRowsShuffle, F::Matrix, kShuffleRows,
        "Batched rows: a block per row, warp shuffles")
        .matrix().combine(C::Outputs).indexing(I::RowPerBlock).tree(T::Shuffle),
    kernel("batched-rows-split", A::BatchedRowsSplit, F::Matrix, kMatrix,
        "Batched rows split: several blocks a row when rows are few, then a block per row over their partials")
        .matrix().combine(C::SecondKernel).indexing(I::RowChunks).tree(T::Sequential),
    kernel("batched-rows-vectorized", A::BatchedRowsVectorized, F::Matrix, kShuffleRows,
        "Batched rows with 16-byte loads: a block a chunk of a row, shuffles; a row's first or last block folds the chunks")
        .matrix().combine(C::LastBlock).indexing(I::RowChunks).tree(T::Shuffle).vectors().narrow(),
    kernel("column-sums", A::ColumnSums, F::Matrix, kMatrix,
        "Column sums in two phases: chunks of rows, then their partials")
        .matrix().combine(C::SecondKernel).indexing(I::ColumnTiles).tree(T::Sequential),
    kernel("column-sums-vectorized", A::ColumnSumsVectorized, F::Matrix, kMatrix,
        "Column sums with 16-byte loads: 4 neighbouring columns a thread, then their partials")
        .matrix().combine(C::SecondKernel).indexing(I::ColumnTiles).tree(T::Sequential).vectors(),
    kernel("column-sums-naive", A::ColumnSumsNaive, F::Matrix, kMatrix, "Column sums: one thread walks each column")
        .matrix().combine(C::Outputs).indexing(I::ColumnWalk).tree(T::None),
    kernel("block-2d", A::Block2d, F::Matrix, kMatrix, "2D blocks and a 2D grid stride over the whole matrix")
        .matrix().combine(C::SecondKernel).indexing(I::Tile2d).tree(T::Sequential),
    kernel("warp-per-row", A::WarpPerRow, F::Matrix, kShortRows,
        "A warp a row: its lanes stride along the row, then shuffle")
        .matrix().combine(C::Outputs).indexing(I::RowSegments).tree(T::Segments),
    kernel("lanes-per-row", A::LanesPerRow, F::Matrix, kShortRows,
        "A few lanes a row: neighbouring rows side by side in a warp, shuffles within each row's lanes")
        .matrix().combine(C::Outputs).indexing(I::RowSegments).tree(T::Segments).vectors().narrow(),
    kernel("thread-per-row", A::ThreadPerRow, F::Matrix, kShortRows,
        "A thread a row: a block copies a tile of rows into shared memory, then each thread adds its own row")
        .matrix().combine(C::Outputs).indexing(I::RowTile).tree(T::None),
    kernel("redux-sync", A::ReduxSync, F::Hopper, kShuffle,
        "The warp's reduction in one instruction: __reduce_add_sync (redux.sync)")
        .tree(T::Redux).ints_only(),
    kernel("cluster-dsmem", A::ClusterDsmem, F::Hopper, kShuffle,
        "Thread block clusters: a cluster's first block reads the others' shared memory (DSMEM), one result a cluster")
        .tree(T::Cluster).clusters(4),  // the middle of the sizes offered (2, 4, 8; up to 8 is portable)
    kernel("bulk-async", A::BulkAsync, F::Hopper, kShuffle,
        "Bulk asynchronous copies: tiles stream into shared memory through an mbarrier, one bulk reduction a block")
        .combine(C::BulkReduce).indexing(I::Vectors).tree(T::Shuffle).vectors().bulk_copy(0, 4),
    kernel("vectorized-ordered", A::VectorizedOrdered, F::WarpShuffle, kShuffle,
        "Vectorized loads, shuffle, the last block folds the blocks' totals in a fixed order")
        .combine(C::LastBlock).indexing(I::Vectors).tree(T::Shuffle).vectors(),
    kernel("compensated", A::Compensated, F::WarpShuffle, kShuffle,
        "Compensated (Neumaier) sums in each thread's loop, then vectorized-ordered's fixed order")
        .combine(C::LastBlock).indexing(I::Vectors).tree(T::Shuffle).vectors().compensated(),
    // The Hopper kernels' streaming forms: tiles, clusters and stages from measurements
    // (docs/benchmarks.md, "The Hopper kernels streaming").
    kernel("redux-sync-streaming", A::ReduxSyncStreaming, F::Hopper, kShuffle,
        "redux.sync where the bytes stream: 16-byte loads by grid stride, one instruction a warp, one atomic a block")
        .combine(C::Atomics).indexing(I::Vectors).tree(T::Redux).vectors().ints_only(),
    kernel("cluster-dsmem-streaming", A::ClusterDsmemStreaming, F::Hopper, kShuffle,
        "Clusters where the bytes stream: grid-stride blocks meet through DSMEM, the last cluster folds in a fixed order")
        .combine(C::LastBlock).indexing(I::Vectors).tree(T::Cluster).vectors().clusters(2),
    kernel("bulk-async-streaming", A::BulkAsyncStreaming, F::Hopper, kShuffle,
        "Bulk copies where the bytes stream: 32 KB tiles, two in flight a block, one bulk reduction a block")
        .combine(C::BulkReduce).indexing(I::Vectors).tree(T::Shuffle).vectors().bulk_copy(32768, 2),
    // Rows of any length: the tiles and stages of bulk-async-streaming (docs/benchmarks.md,
    // "A flat row kernel").
    kernel("flat-rows", A::FlatRows, F::Matrix, kFlatRows,
        "Flat rows: bulk copies bring the matrix in flat tiles whatever a row's length; a few threads add each row")
        .matrix().combine(C::Outputs).indexing(I::FlatTiles).tree(T::Segments).bulk_copy(32768, 2).narrow(),
    baseline("cub", B::Cub, "CUB DeviceReduce")
        .narrow(),
    baseline("thrust", B::Thrust, "thrust::reduce"),
    baseline("cpu", B::Cpu, "CPU std::reduce")
        .no_gpu(),
    baseline("copy", B::Copy, "Device copy (a bandwidth reference)"),
    baseline("cub-segmented", B::CubSegmented, "CUB DeviceSegmentedReduce (each row a segment)")
        .matrix().indexing(I::RowPerBlock),
    baseline("cublas-gemv-rows", B::CublasRows, "cuBLAS gemv: the matrix times a ones vector")
        .matrix().indexing(I::RowPerBlock),
    baseline("cublas-gemv-columns", B::CublasColumns, "cuBLAS gemv: the transpose times a ones vector")
        .matrix().indexing(I::RowPerBlock),
};
// clang-format on

}  // namespace table
using table::kAlgorithms;

// kLastAlgo is the enum's last: the kernel rows are as many as Algo 0..kLastAlgo and each of
// those has exactly one (an Algo added past kLastAlgo, with its row, stops the build).
constexpr bool rows_follow_the_enum() {
  std::size_t kernels = 0;
  for (const auto& r : kAlgorithms) kernels += r.family != Family::Baseline;
  for (int a = 0; a <= int(kLastAlgo); ++a) {
    int found = 0;
    for (const auto& r : kAlgorithms) found += r.family != Family::Baseline && r.algo == Algo(a);
    if (found != 1) return false;
  }
  return kernels == std::size_t(kLastAlgo) + 1;
}
static_assert(rows_follow_the_enum(), "kernels/algorithms.h: one row for each Algo, and kLastAlgo the last");

constexpr bool is_baseline(const AlgorithmRow& r) { return r.family == Family::Baseline; }

// The row of a kernel. Every Algo has one (a test walks the enum).
constexpr const AlgorithmRow& row(Algo algo) {
  for (const auto& r : kAlgorithms)
    if (!is_baseline(r) && r.algo == algo) return r;
  return kAlgorithms[0];  // unreachable: kAlgorithms holds every Algo
}

// A pitfall that races (its row names a fix), or the fix of one: the kernels with a
// race-revealing recording. Header-only, so the core layer can ask it too.
constexpr bool race_recordable(Algo algo) {
  if (!row(algo).fix.empty()) return true;
  for (const auto& r : kAlgorithms)
    if (!is_baseline(r) && r.fix == row(algo).id) return true;
  return false;
}

constexpr const AlgorithmRow* find_row(std::string_view id) {
  for (const auto& r : kAlgorithms)
    if (r.id == id) return &r;
  return nullptr;
}

constexpr std::string_view to_string(Family f) {
  switch (f) {
    case Family::Tree: return "tree";
    case Family::WarpShuffle: return "warp-shuffle";
    case Family::CooperativeGroups: return "cooperative-groups";
    case Family::SinglePass: return "single-pass";
    case Family::Pitfall: return "pitfall";
    case Family::Matrix: return "matrix";
    case Family::Hopper: return "hopper";
    case Family::Baseline: return "baseline";
  }
  return "?";
}

// What a matrix kernel's outputs are, by how its threads pick their elements: a result a row, a
// column, or one for the whole matrix (and an array's one).
constexpr Lines lines_of(Indexing i) {
  switch (i) {
    case Indexing::RowPerBlock:
    case Indexing::RowChunks:
    case Indexing::RowSegments:
    case Indexing::RowTile:
    case Indexing::FlatTiles: return Lines::Rows;
    case Indexing::ColumnTiles:
    case Indexing::ColumnWalk: return Lines::Columns;
    default: return Lines::Whole;
  }
}

// The names traces carry in JSON ("indexing").
constexpr std::string_view to_string(Indexing i) {
  switch (i) {
    case Indexing::Tile: return "tile";
    case Indexing::PairTile: return "pair-tile";
    case Indexing::GridStride: return "grid-stride";
    case Indexing::GridStridePairs: return "grid-stride-pairs";
    case Indexing::Vectors: return "vectors";
    case Indexing::Tickets: return "tickets";
    case Indexing::WholeArray: return "whole-array";
    case Indexing::RowPerBlock: return "row-per-block";
    case Indexing::RowChunks: return "row-chunks";
    case Indexing::ColumnTiles: return "column-tiles";
    case Indexing::ColumnWalk: return "column-walk";
    case Indexing::Tile2d: return "tile-2d";
    case Indexing::RowSegments: return "row-segments";
    case Indexing::RowTile: return "row-tile";
    case Indexing::FlatTiles: return "flat-tiles";
    case Indexing::Own: return "own";
  }
  return "?";
}

// The names traces carry in JSON ("tree").
constexpr std::string_view to_string(Tree t) {
  switch (t) {
    case Tree::Sequential: return "sequential";
    case Tree::Interleaved: return "interleaved";
    case Tree::Strided: return "strided";
    case Tree::AnyBlock: return "any-block";
    case Tree::LastWarp: return "last-warp";
    case Tree::Serial: return "serial";
    case Tree::Shuffle: return "shuffle";
    case Tree::Redux: return "redux";
    case Tree::Cluster: return "cluster";
    case Tree::CgTiles: return "cg-tiles";
    case Tree::CgTilesAsync: return "cg-tiles-async";
    case Tree::CgBlock: return "cg-block";
    case Tree::Halving: return "halving";
    case Tree::Segments: return "segments";
    case Tree::None: return "none";
    case Tree::Own: return "own";
  }
  return "?";
}

// From the row: a pitfall promises nothing; atomics and bulk reductions meet in arrival order;
// every other combine has a fixed order; the libraries promise what their lessons say.
constexpr RunToRun run_to_run(const AlgorithmRow& r) {
  if (r.family == Family::Baseline)
    return r.baseline == Baseline::Copy  ? RunToRun::None
           : r.baseline == Baseline::Cpu ? RunToRun::Fixed
                                         : RunToRun::Library;
  if (r.family == Family::Pitfall) return RunToRun::Pitfall;
  return unordered(r.combine) ? RunToRun::Arrival : RunToRun::Fixed;
}

constexpr std::string_view to_string(RunToRun r) {
  switch (r) {
    case RunToRun::Fixed: return "fixed";
    case RunToRun::Arrival: return "arrival";
    case RunToRun::Pitfall: return "pitfall";
    case RunToRun::Library: return "library";
    case RunToRun::None: return "none";
  }
  return "?";
}

// The names traces carry in JSON ("combine").
constexpr std::string_view to_string(Combine c) {
  switch (c) {
    case Combine::Passes: return "passes";
    case Combine::SecondKernel: return "second-kernel";
    case Combine::Atomics: return "atomics";
    case Combine::LastBlock: return "last-block";
    case Combine::GridSync: return "grid-sync";
    case Combine::Halving: return "halving";
    case Combine::Outputs: return "outputs";
    case Combine::BulkReduce: return "bulk-reduce";
    case Combine::None: return "none";
  }
  return "?";
}

}  // namespace rl::kernels
