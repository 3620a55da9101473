// Reductions over a row-major matrix: each row (batched rows), each column (column sums), or
// the whole matrix with 2D blocks. Same markers and probes as tree.cuh. The rows whose blocks
// meet through warp shuffles are in shuffle_rows.cuh.
#pragma once
#include <cstddef>

#include "probe.cuh"
#include "reduce_ops.h"
#include "shuffle.cuh"
#include "block_common.cuh"

namespace rl::kernels {

// <<< fold-strided
// Adds in[i], in[i + step], ... (count elements) onto v: eight loads issued before any is
// added, so eight are in flight a thread, then added in order: the same additions, in the
// same order, as one load at a time. Records each load (stage 0, from `slot` on).
template <class T, class Op, class Probe>
__device__ __forceinline__ T fold_strided(T v, const T* in, std::size_t i, std::size_t step, std::size_t count,
                                          const Probe& probe, int& slot) {
  constexpr std::size_t K = 8;
  std::size_t j = 0;
  for (; j + K <= count; j += K) {
    T x[K];
#pragma unroll
    for (std::size_t k = 0; k < K; ++k) x[k] = in[i + (j + k) * step];
#pragma unroll
    for (std::size_t k = 0; k < K; ++k) {
      v = Op{}(v, x[k]);
      probe.load(0, slot++, i + (j + k) * step);
    }
  }
  for (; j < count; ++j) {
    v = Op{}(v, in[i + j * step]);
    probe.load(0, slot++, i + j * step);
  }
  return v;
}
// >>>

// Elements a stride loop from `first` by `step` visits below `end`.
__device__ __forceinline__ std::size_t strided_count(std::size_t first, std::size_t step, std::size_t end) {
  return first < end ? (end - first + step - 1) / step : 0;
}

// <<< block-tree
// Sequential addressing over the block's cells, by linear thread id: half the threads add the
// upper half onto the lower, until cell 0 holds the block's result.
template <class T, class Op, class Probe>
__device__ __forceinline__ T block_tree(T* smem, unsigned tid, unsigned threads, const Probe& probe, int& stage) {
  for (unsigned s = threads / 2; s > 0; s >>= 1, ++stage) {
    const bool work = tid < s;
    if (work) {
      smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, threads);
  }
  return smem[0];
}
// >>>

// <<< row-span
// The block's threads add in[first], in[first + 1], ... (count elements) a block apart into
// registers, store them to shared memory, and the tree leaves the span's result in cell 0.
template <class T, class Op, class Probe>
__device__ __forceinline__ T reduce_span(const T* in, std::size_t first, std::size_t count, const Probe& probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  int slot = 0;
  T v = fold_strided<T, Op>(Op::template identity<T>(), in, first + tid, blockDim.x,  // [row-stride]
                            strided_count(tid, blockDim.x, count), probe, slot);  // see <<< fold-strided
  smem[tid] = v;
  probe.stage(0, kTagRowStride, 0), probe.work(0, tid < count), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  return block_tree<T, Op>(smem, tid, blockDim.x, probe, stage);  // see <<< block-tree
}
// >>>

// <<< batched-rows
// One block per row: each thread adds the row's elements a block apart, then the tree.
template <class T, class Op, class Probe>
__global__ void batched_rows(const T* in, T* out, std::size_t cols, Probe probe) {
  const T v = reduce_span<T, Op>(in, std::size_t(blockIdx.x) * cols, cols, probe);  // see <<< row-span
  if (threadIdx.x == 0) out[blockIdx.x] = v;
  if (threadIdx.x == 0) probe.partial(blockIdx.x, v);
}
// >>>

// <<< batched-rows-split
// Few rows leave most SMs idle with a block per row: here each row is split into `chunks`
// chunks of chunk_cols columns (a multiple of 64), a block each (block b: row b / chunks,
// chunk b % chunks), and out[b] is the chunk's result. Phase 2 is batched-rows over those
// partials, a row of chunks. With one chunk a row the launcher runs batched-rows alone.
template <class T, class Op, class Probe>
__global__ void batched_rows_split(const T* in, T* out, std::size_t cols, std::size_t chunk_cols, std::size_t chunks,
                                   Probe probe) {
  const std::size_t row = blockIdx.x / chunks, begin = (blockIdx.x % chunks) * chunk_cols;
  const std::size_t end = begin + chunk_cols < cols ? begin + chunk_cols : cols;
  const T v = reduce_span<T, Op>(in, row * cols + begin, end - begin, probe);  // see <<< row-span
  if (threadIdx.x == 0) out[blockIdx.x] = v;
  if (threadIdx.x == 0) probe.partial(blockIdx.x, v);
}
// >>>

// <<< column-sums
// Blocks of X x (B/X) threads, X = 32 or the power of two at or above a narrower matrix's
// columns: a warp reads up to 32 neighbouring elements (of one row, or whole rows); y splits the
// block's chunk of rows, and the tree runs down them. out[chunk][col]: a row of partial column
// sums per chunk; with several chunks, phase 2 is this kernel again over them, with one chunk.
template <class T, class Op, class Probe>
__global__ void column_sums(const T* in, T* out, std::size_t rows, std::size_t cols, std::size_t chunk_rows,
                            Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tx = threadIdx.x, ty = threadIdx.y, tid = ty * blockDim.x + tx;
  const std::size_t col = std::size_t(blockIdx.x) * blockDim.x + tx;
  const std::size_t first = std::size_t(blockIdx.y) * chunk_rows;
  const std::size_t last = first + chunk_rows < rows ? first + chunk_rows : rows;
  const std::size_t count = col < cols ? strided_count(first + ty, blockDim.y, last) : 0;
  int slot = 0;
  T v = fold_strided<T, Op>(Op::template identity<T>(), in, (first + ty) * cols + col,  // [column-stride]
                            std::size_t(blockDim.y) * cols, count, probe, slot);
  smem[tid] = v;
  probe.stage(0, kTagColumnStride, 0), probe.work(0, col < cols && first + ty < last), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x * blockDim.y);

  int stage = 1;
  for (unsigned s = blockDim.y / 2; s > 0; s >>= 1, ++stage) {
    const bool work = ty < s;  // each step halves the rows; columns never mix
    if (work) {
      smem[tid] = Op{}(smem[tid], smem[tid + s * blockDim.x]);  // [column-step]
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s * blockDim.x), probe.write(stage, 2, tid);
    }
    probe.stage(stage, kTagColumnStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x * blockDim.y);
  }
  if (ty == 0 && col < cols) out[std::size_t(blockIdx.y) * cols + col] = smem[tx];
  if (ty == 0 && col < cols) probe.partial(std::size_t(blockIdx.y) * cols + col, smem[tx]);
}
// >>>

// A 16-byte load with the cache-streaming hint (ld.global.cs: lines allocated evict-first, for
// data read once). Not volatile, unlike __ldcs: the input does not change during the kernel, so
// the compiler may schedule and predicate it as a plain load and keep its registers few.
__device__ __forceinline__ float4 load_streaming(const float4* p) {
  float4 q;
  asm("ld.global.cs.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w) : "l"(p));
  return q;
}
__device__ __forceinline__ int4 load_streaming(const int4* p) {
  int4 q;
  asm("ld.global.cs.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "l"(p));
  return q;
}
__device__ __forceinline__ double2 load_streaming(const double2* p) {
  double2 q;
  asm("ld.global.cs.v2.f64 {%0,%1}, [%2];" : "=d"(q.x), "=d"(q.y) : "l"(p));
  return q;
}

// <<< fold-columns
// Adds rows r, r + step, ... (K of them) of the thread's 4 columns onto v[0..3]: all K rows'
// loads issued before any is added. Rows of a multiple of 16 bytes all start on a 16-byte
// boundary, so a row's 4 columns are one float4 or int4 (or two double2, a row of threads' width
// apart, so its lanes read neighbouring bytes); Streaming gives those loads the cache-streaming
// hint.
template <int K, bool Streaming, class T, class Op, class Probe>
__device__ __forceinline__ void fold_vectors(T (&v)[kVectorColumns], const T* in, std::size_t r, std::size_t step, std::size_t cols,
                                             std::size_t col0, std::size_t apart, const Probe& probe, int& slot) {
  using V = typename Vec16<T>::type;
  constexpr int per = sizeof(V) / sizeof(T), loads = kVectorColumns / per;  // a vector's elements; vectors a row
  const auto column = [&](int c) { return vector_column(col0, apart, per, c); };  // the thread's c-th column
  V q[K][loads];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int j = 0; j < loads; ++j)
      if (column(j * per) < cols) {
        const V* p = reinterpret_cast<const V*>(in + (r + k * step) * cols + column(j * per));
        q[k][j] = Streaming ? load_streaming(p) : *p;
      }
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int c = 0; c < kVectorColumns; ++c)
      if (column(c) < cols) v[c] = Op{}(v[c], reinterpret_cast<const T*>(&q[k][c / per])[c % per]);
  for (int i = 0; i < K * loads; ++i) if (column(i % loads * per) < cols) probe.load(0, slot + i, (r + i / loads * step) * cols + column(i % loads * per), per);
  slot += K * loads;  // a column past the edge keeps its slot: lanes' n-th loads stay one warp-wide load
}

// Rows of other widths: each of the 4 columns loaded alone, K rows' loads before any add.
template <int K, class T, class Op, class Probe>
__device__ __forceinline__ void fold_singles(T (&v)[kVectorColumns], const T* in, std::size_t r, std::size_t step, std::size_t cols,
                                             std::size_t col0, std::size_t apart, const Probe& probe, int& slot) {
  constexpr int per = sizeof(typename Vec16<T>::type) / sizeof(T);
  const auto column = [&](int c) { return vector_column(col0, apart, per, c); };
  T x[K][kVectorColumns];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int c = 0; c < kVectorColumns; ++c)
      if (column(c) < cols) x[k][c] = in[(r + k * step) * cols + column(c)];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int c = 0; c < kVectorColumns; ++c)
      if (column(c) < cols) v[c] = Op{}(v[c], x[k][c]);
  for (int i = 0; i < K * kVectorColumns; ++i) if (column(i % kVectorColumns) < cols) probe.load(0, slot + i, (r + i / kVectorColumns * step) * cols + column(i % kVectorColumns));
  slot += K * kVectorColumns;
}
// >>>

// <<< column-sums-vectorized
// column-sums with 16-byte loads: each thread sums 4 columns, so a block of X x (B/X) threads
// covers 4X columns; with X = 32 and rows a multiple of 16 bytes a warp loads 512 neighbouring
// bytes of a row at once.
// Shared memory holds 4 cells a thread, column c of thread t at c * B + t, and the tree runs
// down the rows for all 4. Phase 2, with several chunks of rows, is this kernel again.
// Deep: blocks of up to kDeepColumnBlock threads, with registers for twice the 16-byte loads in
// flight, and those loads streaming (column_batch_bytes).
template <class T, class Op, bool Deep, class Probe>
__global__ void __launch_bounds__(Deep ? kDeepColumnBlock : 1024, Deep ? 1 : 0) column_sums_vectorized(
    const T* in, T* out, std::size_t rows, std::size_t cols, std::size_t chunk_rows, Probe probe) {
  constexpr int per = sizeof(typename Vec16<T>::type) / sizeof(T);
  T* smem = shared_array<T>();
  const unsigned tx = threadIdx.x, ty = threadIdx.y, B = blockDim.x * blockDim.y, tid = ty * blockDim.x + tx;
  const std::size_t tile = std::size_t(blockIdx.x) * kVectorColumns * blockDim.x, col0 = tile + per * tx, apart = per * blockDim.x;
  const std::size_t first = std::size_t(blockIdx.y) * chunk_rows;
  const std::size_t last = first + chunk_rows < rows ? first + chunk_rows : rows;
  T v[kVectorColumns];
  for (int c = 0; c < kVectorColumns; ++c) v[c] = Op::template identity<T>();
  int slot = 0;
  constexpr int block = Deep ? kDeepColumnBlock : 1024;  // the most threads this instantiation takes
  constexpr int KV = column_batch_rows(block, sizeof(T), true), KS = column_batch_rows(block, sizeof(T), false);
  const std::size_t Y = blockDim.y;
  std::size_t r = first + ty;
  if (rows_hold_vectors(cols, sizeof(T))) {  // [column-vector]
    for (; r + (KV - 1) * Y < last; r += KV * Y) fold_vectors<KV, Deep, T, Op>(v, in, r, Y, cols, col0, apart, probe, slot);  // see <<< fold-columns
    for (; r < last; r += Y) fold_vectors<1, Deep, T, Op>(v, in, r, Y, cols, col0, apart, probe, slot);
  } else {
    for (; r + (KS - 1) * Y < last; r += KS * Y) fold_singles<KS, T, Op>(v, in, r, Y, cols, col0, apart, probe, slot);
    for (; r < last; r += Y) fold_singles<1, T, Op>(v, in, r, Y, cols, col0, apart, probe, slot);
  }
  for (int c = 0; c < kVectorColumns; ++c) smem[c * B + tid] = v[c];
  for (int c = 0; c < kVectorColumns; ++c) probe.write(0, c, c * B + tid);
  probe.stage(0, kTagColumnVector, 0), probe.work(0, col0 < cols && first + ty < last);
  __syncthreads();
  probe.shared(0, smem, kVectorColumns * B);

  int stage = 1;
  for (unsigned s = blockDim.y / 2; s > 0; s >>= 1, ++stage) {
    const bool work = ty < s;  // each step halves the rows, for all 4 columns
    if (work)
      for (int c = 0; c < kVectorColumns; ++c) {
        const unsigned a = c * B + tid, b = a + s * blockDim.x;
        smem[a] = Op{}(smem[a], smem[b]);  // [column-step]
        probe.read(stage, 3 * c, a), probe.read(stage, 3 * c + 1, b), probe.write(stage, 3 * c + 2, a);
      }
    probe.stage(stage, kTagColumnStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, kVectorColumns * B);
  }
  for (int c = 0; c < kVectorColumns && ty == 0; ++c) {
    const std::size_t col = vector_column(col0, apart, per, c);
    if (col < cols) out[std::size_t(blockIdx.y) * cols + col] = smem[c * B + tx];
    if (col < cols) probe.partial(std::size_t(blockIdx.y) * cols + col, smem[c * B + tx]);
  }
}
// >>>

// <<< column-sums-naive
// One thread per column walks down the whole column: as many threads as columns, no more.
template <class T, class Op, class Probe>
__global__ void column_sums_naive(const T* in, T* out, std::size_t rows, std::size_t cols, Probe probe) {
  const std::size_t col = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int slot = 0;
  T v = fold_strided<T, Op>(Op::template identity<T>(), in, col, cols, col < cols ? rows : 0, probe,  // [column-walk]
                            slot);  // see <<< fold-strided
  probe.stage(0, kTagColumnWalk, 0), probe.work(0, col < cols), probe.lane(0, v);
  if (col < cols) out[col] = v;
  if (col < cols) probe.partial(col, v);
}
// >>>

// <<< block-2d
// 2D blocks over a 2D grid: each thread strides over the matrix by the grid's width and
// height, then the block's threads, numbered x fastest, run the tree. One partial per block.
template <class T, class Op, class Probe>
__global__ void block_2d(const T* in, T* out, std::size_t rows, std::size_t cols, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;  // the linearised thread id
  const std::size_t x0 = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t y0 = std::size_t(blockIdx.y) * blockDim.y + threadIdx.y;
  const std::size_t width = std::size_t(gridDim.x) * blockDim.x, height = std::size_t(gridDim.y) * blockDim.y;
  T v = Op::template identity<T>();
  int slot = 0;
  for (std::size_t y = y0; y < rows; y += height)
    for (std::size_t x = x0; x < cols; x += width, ++slot) {
      v = Op{}(v, in[y * cols + x]);  // [tile-stride]
      probe.load(0, slot, y * cols + x);
    }
  smem[tid] = v;
  probe.stage(0, kTagTileStride, 0), probe.work(0, x0 < cols && y0 < rows), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x * blockDim.y);

  int stage = 1;
  v = block_tree<T, Op>(smem, tid, blockDim.x * blockDim.y, probe, stage);  // see <<< block-tree
  const std::size_t b = std::size_t(blockIdx.y) * gridDim.x + blockIdx.x;
  if (tid == 0) out[b] = v;
  if (tid == 0) probe.partial(b, v);
}
// >>>

#ifndef __CUDACC_RTC__  // NVRTC compiles the kernels alone: no host launches
// The launch table's entries for this file's matrix kernels (launch_table.cuh).
template <>
struct MatrixLaunch<Algo::BatchedRows> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    batched_rows<T, Op><<<a.grid_2d(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.m.cols, p);
  }
};

template <>
struct MatrixLaunch<Algo::BatchedRowsSplit> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    if (a.grid.x == 1) {  // one chunk a row is batched-rows, without the split's index arithmetic
      batched_rows<T, Op><<<a.blocks(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.m.cols, p);
      return;
    }
    batched_rows_split<T, Op><<<a.blocks(), a.block, a.shared(1), a.stream>>>(
        a.in, a.out, a.m.cols, split_chunk_cols(a.m, a.grid.x), a.grid.x, p);
  }
  // Phase 2: batched-rows over the partials, a block a row of chunk results.
  template <class T, class Op>
  static void fold(const LaunchArgs<T, T>& a) {
    const auto threads = unsigned(a.threads);
    batched_rows<T, Op>
        <<<unsigned(a.m.rows), threads, threads * sizeof(T), a.stream>>>(a.in, a.out, a.grid.x, NoProbe{});
  }
};

// The column kernels' phase 2: the same kernel over the partials' columns, in one chunk.
template <class Entry>
struct ColumnPartials : LaunchEntry {
  template <class T, class Op>
  static void fold(const LaunchArgs<T, T>& a) {
    LaunchArgs<T, T> b = a;
    b.m = {a.grid.y, a.m.cols};
    b.grid = {a.grid.x, 1};
    Entry::template launch<T, Op>(b, NoProbe{});
  }
};

template <>
struct MatrixLaunch<Algo::ColumnSums> : ColumnPartials<MatrixLaunch<Algo::ColumnSums>> {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    column_sums<T, Op><<<a.grid_2d(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.m.rows, a.m.cols,
                                                                        column_chunk_rows(a.m, a.threads, a.grid.y), p);
  }
};

template <>
struct MatrixLaunch<Algo::ColumnSumsVectorized> : ColumnPartials<MatrixLaunch<Algo::ColumnSumsVectorized>> {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {  // a cell a column a thread
    const std::size_t chunk = column_chunk_rows(a.m, a.threads, a.grid.y), sh = kVectorColumns * a.shared(1);
    if (a.block.x * a.block.y <= unsigned(kDeepColumnBlock))
      column_sums_vectorized<T, Op, true>
          <<<a.grid_2d(), a.block, sh, a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, chunk, p);
    else
      column_sums_vectorized<T, Op, false>
          <<<a.grid_2d(), a.block, sh, a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, chunk, p);
  }
};

template <>
struct MatrixLaunch<Algo::ColumnSumsNaive> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    column_sums_naive<T, Op><<<a.grid_2d(), a.block, 0, a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, p);
  }
};

template <>
struct MatrixLaunch<Algo::Block2d> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    block_2d<T, Op><<<a.grid_2d(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.m.rows, a.m.cols, p);
  }
  // Phase 2: one block, a row of the plan's threads, over the partials.
  template <class T, class Op>
  static void fold(const LaunchArgs<T, T>& a) {
    LaunchArgs<T, T> b = a;
    b.m = {1, a.grid.count()};
    b.grid = {1, 1};
    b.block = dim3(unsigned(a.threads), 1);
    launch<T, Op>(b, NoProbe{});
  }
};
#endif

}  // namespace rl::kernels
