// The one table of algorithms: every fact about an algorithm that code uses lives in its row.
// The CLI's ids, the catalog, block checks, launch and model dispatch, the embedded sources,
// the PTX probe check and the Harris order all read it. A new algorithm is its kernel (marked
// `// <<< id` in its source), its model, its lesson (kernels/lessons/ID.md) and one row here.
#pragma once
#include <string_view>

#include "reduce_api.h"

namespace rl::kernels {

enum class Family { Tree, WarpShuffle, CooperativeGroups, SinglePass, Pitfall, Matrix, Baseline };

// How the blocks' results become one.
enum class Combine {
  Passes,        // the same kernel again over the partials, until one is left
  SecondKernel,  // one block over the partials
  Atomics,       // each block adds its result atomically
  LastBlock,     // a retirement counter: the last block folds the partials
  GridSync,      // a cooperative launch: after grid.sync() block 0 folds them
  Halving,       // global-halving: one launch per halving, no per-block result
  Outputs,       // matrix rows or columns: each block's result is an output of its own
  None,          // baselines
};

enum class BlockRule { PowerOfTwo, Any };  // 32..1024 in powers of two, or 2..1024
enum class Shape { Array, Matrix };        // takes --size, or --rows and --cols

struct AlgorithmRow {
  std::string_view id;
  Algo algo;          // kernels (unused for baselines)
  Baseline baseline;  // baselines (unused for kernels)
  Family family;
  std::string_view title;
  std::string_view source;  // the kernel's file, holding `// <<< id`; empty for baselines
  Combine combine;
  bool adds_on_load;  // each thread adds two elements a block apart while loading
  BlockRule blocks;
  bool gpu;         // launched on a GPU (syncthreads-in-branch is modelled only)
  int harris_step;  // 1..7: the kernel of Harris' "Optimizing Parallel Reduction"; 0 otherwise
  Shape shape;
  std::string_view fix = {};  // a pitfall that races: the corrected algorithm, shown beside it
};

namespace table {
using A = Algo;
using B = Baseline;
using F = Family;
using C = Combine;
constexpr auto P2 = BlockRule::PowerOfTwo, Any = BlockRule::Any;
constexpr auto Arr = Shape::Array, Mat = Shape::Matrix;
constexpr std::string_view kTree = "kernels/tree.cuh", kShuffle = "kernels/shuffle.cuh", kCg = "kernels/cg.cuh",
                           kSingle = "kernels/single_pass.cuh", kMatrix = "kernels/matrix.cuh";

inline constexpr AlgorithmRow kAlgorithms[] = {
    // id, algo, baseline, family, title, source, combine, adds on load, blocks, gpu, Harris, shape
    {"naive-serial", A::NaiveSerial, {}, F::Tree, "Naive: one thread adds the block",
     kTree, C::Passes, false, P2, true, 0, Arr},
    {"global-halving", A::GlobalHalving, {}, F::Tree,
     "Halving in global memory, launches as barriers", kTree, C::Halving, false,
     P2, true, 0, Arr},
    {"interleaved-divergent", A::InterleavedDivergent, {}, F::Tree,
     "Interleaved addressing, divergent branch", kTree, C::Passes, false, P2,
     true, 1, Arr},
    {"interleaved-bank-conflicts", A::InterleavedBankConflicts, {}, F::Tree,
     "Interleaved addressing, strided index", kTree, C::Passes, false, P2,
     true, 2, Arr},
    {"sequential", A::Sequential, {}, F::Tree, "Sequential addressing", kTree,
     C::Passes, false, P2, true, 3, Arr},
    {"first-add-on-load", A::FirstAddOnLoad, {}, F::Tree, "First add during load",
     kTree, C::Passes, true, P2, true, 4, Arr},
    {"unroll-last-warp", A::UnrollLastWarp, {}, F::Tree, "Last warp without block-wide barriers",
     kTree, C::Passes, true, P2, true, 5, Arr},
    {"complete-unroll", A::CompleteUnroll, {}, F::Tree,
     "Complete unroll (block size as a template parameter)", kTree, C::Passes, true,
     P2, true, 6, Arr},
    {"multiple-per-thread", A::MultiplePerThread, {}, F::Tree,
     "Multiple elements per thread (algorithm cascading)", kTree, C::SecondKernel, false,
     P2, true, 7, Arr},
    {"non-pow2-block", A::NonPow2Block, {}, F::Tree, "Any block size", kTree,
     C::Passes, false, Any, true, 0, Arr},
    {"warp-shuffle", A::WarpShuffle, {}, F::WarpShuffle, "Warp shuffle",
     kShuffle, C::Passes, false, P2, true, 0, Arr},
    {"warp-shuffle-vectorized", A::WarpShuffleVectorized, {}, F::WarpShuffle,
     "Vectorized loads, shuffle, one atomic per block", kShuffle, C::Atomics, false,
     P2, true, 0, Arr},
    {"work-queue", A::WorkQueue, {}, F::WarpShuffle,
     "A work queue: blocks take tickets from a counter", kShuffle, C::Atomics, false,
     P2, true, 0, Arr},
    {"cg-warp", A::CgWarp, {}, F::CooperativeGroups, "Cooperative groups: warp tiles",
     kCg, C::Passes, false, P2, true, 0, Arr},
    {"cg-block", A::CgBlock, {}, F::CooperativeGroups,
     "Cooperative groups: tiles, then the block", kCg, C::Passes, false, P2,
     true, 0, Arr},
    {"cg-two-phase", A::CgTwoPhase, {}, F::CooperativeGroups,
     "Cooperative groups: two phases", kCg, C::SecondKernel, false, P2, true,
     0, Arr},
    {"cg-reduce-update-async", A::CgReduceUpdateAsync, {}, F::CooperativeGroups,
     "Cooperative groups: reduce_update_async", kCg, C::Atomics, false, P2,
     true, 0, Arr},
    {"cg-grid-sync", A::CgGridSync, {}, F::CooperativeGroups,
     "Cooperative groups: grid sync", kCg, C::GridSync, false, P2, true, 0,
     Arr},
    {"threadfence-single-pass", A::ThreadfenceSinglePass, {}, F::SinglePass,
     "Single pass with __threadfence()", kSingle, C::LastBlock, false, P2,
     true, 0, Arr},
    {"missing-syncthreads", A::MissingSyncthreads, {}, F::Pitfall,
     "Pitfall: the missing barrier", kTree, C::Passes, false, P2, true, 0,
     Arr, "sequential"},
    {"legacy-warp-synchronous", A::LegacyWarpSynchronous, {}, F::Pitfall,
     "Pitfall: pre-Volta warp-synchronous code", kTree, C::Passes, true, P2,
     true, 0, Arr, "unroll-last-warp"},
    {"syncthreads-in-branch", A::SyncthreadsInBranch, {}, F::Pitfall,
     "Pitfall: a barrier inside a branch", kTree, C::Passes, false, P2, false,
     0, Arr},
    {"batched-rows", A::BatchedRows, {}, F::Matrix, "Batched rows: a block per row, shared-memory tree",
     kMatrix, C::Outputs, false, P2, true, 0, Mat},
    {"batched-rows-shuffle", A::BatchedRowsShuffle, {}, F::Matrix, "Batched rows: a block per row, warp shuffles",
     kShuffle, C::Outputs, false, P2, true, 0, Mat},
    {"batched-rows-split", A::BatchedRowsSplit, {}, F::Matrix,
     "Batched rows split: several blocks a row when rows are few, then a block per row over their partials",
     kMatrix, C::SecondKernel, false, P2, true, 0, Mat},
    {"batched-rows-vectorized", A::BatchedRowsVectorized, {}, F::Matrix,
     "Batched rows with 16-byte loads: a block a chunk of a row, shuffles; a row's last block folds the chunks",
     kShuffle, C::LastBlock, false, P2, true, 0, Mat},
    {"column-sums", A::ColumnSums, {}, F::Matrix, "Column sums in two phases: chunks of rows, then their partials",
     kMatrix, C::SecondKernel, false, P2, true, 0, Mat},
    {"column-sums-vectorized", A::ColumnSumsVectorized, {}, F::Matrix,
     "Column sums with 16-byte loads: 4 neighbouring columns a thread, then their partials", kMatrix,
     C::SecondKernel, false, P2, true, 0, Mat},
    {"column-sums-naive", A::ColumnSumsNaive, {}, F::Matrix, "Column sums: one thread walks each column",
     kMatrix, C::Outputs, false, P2, true, 0, Mat},
    {"block-2d", A::Block2d, {}, F::Matrix, "2D blocks and a 2D grid stride over the whole matrix",
     kMatrix, C::SecondKernel, false, P2, true, 0, Mat},
    {"cub", {}, B::Cub, F::Baseline, "CUB DeviceReduce", {}, C::None, false,
     P2, true, 0, Arr},
    {"thrust", {}, B::Thrust, F::Baseline, "thrust::reduce", {}, C::None,
     false, P2, true, 0, Arr},
    {"cpu", {}, B::Cpu, F::Baseline, "CPU std::reduce", {}, C::None, false,
     P2, false, 0, Arr},
    {"copy", {}, B::Copy, F::Baseline, "Device copy (a bandwidth reference)", {},
     C::None, false, P2, true, 0, Arr},
    {"cub-segmented", {}, B::CubSegmented, F::Baseline, "CUB DeviceSegmentedReduce (each row a segment)", {},
     C::None, false, P2, true, 0, Mat},
    {"cublas-gemv-rows", {}, B::CublasRows, F::Baseline, "cuBLAS gemv: the matrix times a ones vector", {},
     C::None, false, P2, true, 0, Mat},
    {"cublas-gemv-columns", {}, B::CublasColumns, F::Baseline, "cuBLAS gemv: the transpose times a ones vector", {},
     C::None, false, P2, true, 0, Mat},
};

}  // namespace table
using table::kAlgorithms;

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
    case Family::Baseline: return "baseline";
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
    case Combine::None: return "none";
  }
  return "?";
}

}  // namespace rl::kernels
