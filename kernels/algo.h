// The kernels this project has, the operations they reduce with, and the baselines timed
// beside them: plain C++, included by host code that never needs nvcc.
#pragma once

namespace rl::kernels {

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
};
constexpr Algo kLastAlgo = Algo::Compensated;  // every Algo has a row (static_assert in algorithms.h)
enum class OpKind { Sum, Min, Max };
// Baselines over the same data: the library reductions, a device copy (a bandwidth reference:
// it reads and writes, a reduction only reads; checked element for element), and the matrix
// anchors (CUB's segmented reduce, cuBLAS gemv with a ones vector).
enum class Baseline { Cub, Thrust, Cpu, Copy, CubSegmented, CublasRows, CublasColumns };

}  // namespace rl::kernels
