// Plain C++ face of the CUDA kernels and their CPU model: host code includes this and never
// needs nvcc.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "reduce_ops.h"

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
};
enum class OpKind { Sum, Min, Max };
// Baselines over the same data: the library reductions, a device copy (a bandwidth reference:
// it reads and writes, a reduction only reads; checked element for element), and the matrix
// anchors (CUB's segmented reduce, cuBLAS gemv with a ones vector).
enum class Baseline { Cub, Thrust, Cpu, Copy, CubSegmented, CublasRows, CublasColumns };


// Global loads a trace records per thread and stage: the first ones, enough for the
// coalescing view's warp-wide accesses.
constexpr int kLoadSlots = 16;
// A recorded global load: the index of its first element and how many elements it read (1, or a
// 16-byte vector's 4 floats or ints, 2 doubles), as one number.
constexpr long long kLoadWidths = 32;
constexpr RL_HD long long load_code(std::size_t index, int width) { return static_cast<long long>(index) * kLoadWidths + width; }
constexpr RL_HD std::size_t load_index(long long code) { return static_cast<std::size_t>(code / kLoadWidths); }
constexpr RL_HD int load_width(long long code) { return static_cast<int>(code % kLoadWidths); }

// Sizes of one trace: stages, access slots per thread and stage, cells of shared memory.
struct TraceShape {
  int stages = 0;
  int slots = 0;
  int shared_size = 0;
  int load_slots = 0;  // global loads recorded per thread and stage (the first ones)
};

// What one instrumented block recorded, stage by stage. Per-stage arrays are [stage];
// per-thread ones [stage][thread]; shared [stage][cell]; access [stage][thread][slot], in the
// thread's program order: -1 none, else 2*index for a read and 2*index+1 for a write.
// loads [stage][thread][load slot]: each global load's load_code, in program order, -1 none
// (only the first load_slots of a thread's stage).
template <class T>
struct RawTrace {
  int block = 0;
  std::size_t grid = 0;
  TraceShape shape;
  std::vector<int> tags, params;
  std::vector<std::uint8_t> has_shared, has_lanes;
  std::vector<T> shared, lanes;
  std::vector<std::uint8_t> active;
  std::vector<int> access;
  std::vector<long long> loads;
  std::vector<T> partials;  // every block's result of the first pass (up to kMaxPartials)
  std::vector<int> tickets;  // work-queue: the block that took each ticket (up to kMaxTickets)

  void reset(TraceShape s, int threads) {
    shape = s;
    block = threads;
    const std::size_t st = std::size_t(s.stages), cells = st * threads;
    tags.assign(st, -1);
    params.assign(st, 0);
    has_shared.assign(st, 0);
    has_lanes.assign(st, 0);
    shared.assign(st * s.shared_size, T{});
    lanes.assign(cells, T{});
    active.assign(cells, 0);
    access.assign(cells * s.slots, -1);
    loads.assign(cells * s.load_slots, -1);
    partials.clear();
    tickets.clear();
  }
};

// Traces keep at most this many first-pass partials (the grid view shows far fewer).
constexpr std::size_t kMaxPartials = 4096;
// And at most this many work-queue tickets: twice what the largest trace the app takes needs
// (2^27 doubles in blocks of 32), so a GPU record is always whole.
constexpr std::size_t kMaxTickets = std::size_t(1) << 20;

// work-queue: 16-byte vectors a thread loads per ticket (measured, docs/perf-notes.md).
constexpr int kQueueVectors = 4;

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
};

// What sizing a fixed grid needs to know of a device: its SMs, and the threads one SM holds at
// once (2048 on sm_80 and sm_90, 1536 on sm_86 and sm_89, 1024 on sm_75). The GPU path reads
// both from the device (cuda_device_shape); a bare SM count means an SM of 2048 threads, as the
// CPU model's own device has.
struct DeviceShape {
  int sm_count = 1;
  int threads_per_sm = 2048;
  DeviceShape(int sms, int threads = 2048) : sm_count(sms), threads_per_sm(threads) {}  // NOLINT: an SM count converts
};

TraceShape trace_shape(Algo algo, int block, std::size_t n);
// Blocks the first pass launches: derived from n, or the fixed grid for a given SM count.
std::size_t first_pass_grid(Algo algo, std::size_t n, int block, DeviceShape device);
// How many additions (each a rounding for floats) an element's value goes through in a run, on
// average over the elements, rounded up. A float sum is within u * sum(|x_i| * depth_i) of the
// exact one; for identically drawn inputs that is u * sum|x| * this depth.
std::size_t rounding_depth(Algo algo, std::size_t n, int block, DeviceShape device);
// The block size a benchmark uses when none is asked for: 256, or an algorithm's own choice
// where measurements favour another (warp-shuffle-vectorized on large arrays).
int preferred_block(Algo algo, std::size_t n, int sm_count);
// Whether the first pass leaves per-block results a trace can record (cg-reduce-update-async
// folds inside the atomic call; global-halving has no per-block result).
bool records_partials(Algo algo);
// How many results each launch leaves, first pass first: for "passes", every launch down to
// the one that leaves a single value; otherwise only the first pass (grid x outputs per block).
std::vector<std::size_t> pass_outputs(Algo algo, std::size_t n, int block, std::size_t grid);
// How many results the first pass leaves per block: one, or one per warp (cg-warp).
int outputs_per_block(Algo algo, int block);
// True for the tree kernels whose threads add two elements a block apart while loading.
bool adds_on_load(Algo algo);
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

// A row-major matrix of rows x cols elements (the matrix family).
struct Matrix {
  std::size_t rows = 0, cols = 0;
  std::size_t size() const { return rows * cols; }
};

// What a matrix algorithm leaves: one value per row (batched-rows*), per column (column-sums*),
// or one for the whole matrix (block-2d).
std::size_t matrix_outputs(Algo algo, Matrix m);
// Threads a block of a matrix kernel has along x (the rest along y): 32 for block-2d, whose warps
// read 32 neighbouring columns of one row; for column-sums 32, or the power of two at or above
// `cols` when fewer, so a warp reads whole rows of a narrow matrix; else the whole block.
int matrix_block_x(Algo algo, int block, std::size_t cols);
// The first pass's grid: x and y blocks. grid (from Launch; 0 = two waves of the device, one for
// batched-rows-vectorized) is about how many blocks the kernels that choose their grid launch (matrix_chooses_grid).
struct Grid2 {
  std::size_t x = 1, y = 1;
  std::size_t count() const { return x * y; }
};
Grid2 matrix_grid(Algo algo, Matrix m, int block, std::size_t grid, DeviceShape device);
// column-sums (chunks of rows), batched-rows-split and -vectorized (chunks of each row) and
// block-2d size their grids; batched-rows and -shuffle launch a block per row and column-sums-naive a thread per column.
bool matrix_chooses_grid(Algo algo);
// Whether the first pass leaves several partials a line, so a second launch combines them:
// column-sums with several chunks of rows, batched-rows-split or -vectorized with several chunks
// a row, block-2d always. The others write their outputs in the first pass.
bool matrix_second_pass(Algo algo, Grid2 grid);
// How many first-pass results a matrix trace records: one per row (batched rows) or column
// (column-sums-naive), one per chunk and column (column-sums), one per block (block-2d, and the
// chunks of batched-rows-split and -vectorized).
std::size_t matrix_partials(Algo algo, Matrix m, Grid2 grid);
// batched-rows-split and -vectorized: columns each chunk of a row covers, for `chunks` chunks a
// row: a multiple of 64 (the last chunk takes what is left).
std::size_t split_chunk_cols(Matrix m, std::size_t chunks);
// column-sums: rows each block of the first pass covers.
std::size_t column_chunk_rows(Matrix m, int block, std::size_t chunks);
TraceShape matrix_trace_shape(Algo algo, int block, Matrix m);
// Throws std::invalid_argument naming the problem: an empty or too large shape, a block size
// the kernel cannot take, a traced block outside the grid. Returns the first pass's grid.
Grid2 check_matrix_launch(Algo algo, Matrix m, const Launch& launch, DeviceShape device, bool traced);
// Indices (row * cols + col) of the elements block `traced` of the first pass reads, in the
// order each thread loads them, thread by thread; elem_bytes: the element's size (it decides
// column-sums-vectorized's columns and batched-rows-vectorized's vectors).
std::vector<std::size_t> matrix_traced_elements(Algo algo, Matrix m, int block, Grid2 grid, int traced,
                                                std::size_t elem_bytes);
// The same for one thread of that block, in the order it loads them.
std::vector<std::size_t> matrix_thread_elements(Algo algo, Matrix m, int block, Grid2 grid, int traced, int thread,
                                                std::size_t elem_bytes);
bool is_matrix(Algo algo);
// column-sums or column-sums-vectorized: chunks of rows, a row of partials per chunk.
bool is_column_sums(Algo algo);
// batched-rows-split or batched-rows-vectorized: chunks of each row, a partial per chunk.
bool is_row_chunks(Algo algo);
// Columns each thread sums: kVectorColumns for column-sums-vectorized (16-byte loads), else 1.
constexpr int kVectorColumns = 4;
int matrix_thread_cols(Algo algo);
// The vector loads' width (float4, int4, double2) and how many elements one holds: 4 or 2.
constexpr std::size_t kVectorBytes = 16;
constexpr RL_HD std::size_t vector_elements(std::size_t elem_bytes) { return kVectorBytes / elem_bytes; }
// Whether every row of a row-major matrix from cudaMalloc (aligned to 256 bytes) starts on a
// 16-byte boundary, so 16-byte loads may read it: a row's length in bytes is a multiple of 16.
constexpr RL_HD bool rows_hold_vectors(std::size_t cols, std::size_t elem_bytes) { return cols * elem_bytes % kVectorBytes == 0; }
// batched-rows-vectorized cuts rows into chunks that give each thread at least this many
// elements: short chunks, as many blocks as they make, the row's last block folding their
// results (measured: docs/benchmarks.md).
constexpr int kRowChunkElements = 32;
// column-sums-vectorized: bytes of loads a thread issues before adding any. Blocks of up to
// kDeepColumnBlock threads compile with registers for 256 bytes of 16-byte loads (16 float4), and
// give them the cache-streaming hint; 1024 threads of a 65536-register file get 64 registers each,
// room for 128. Rows loaded a column at a time issue 128 bytes (measured: docs/benchmarks.md).
constexpr int kDeepColumnBlock = 256;
constexpr RL_HD int column_batch_bytes(int block, bool vectors) { return vectors && block <= kDeepColumnBlock ? 256 : 128; }
// Rows in one batch: each row gives a thread kVectorColumns elements.
constexpr RL_HD int column_batch_rows(int block, std::size_t elem_bytes, bool vectors) {
  return int(std::size_t(column_batch_bytes(block, vectors)) / (kVectorColumns * elem_bytes));
}
// column-sums-vectorized: the c-th column (0..3) of a thread whose first column is col0 (its
// tile's first + per * tx), per elements a 16-byte vector, its vectors `apart` columns apart (a
// row of threads' width, per * bx): 4tx..4tx+3, or for doubles 2tx, 2tx+1 and the same 2bx further on.
constexpr RL_HD std::size_t vector_column(std::size_t col0, std::size_t apart, int per, int c) {
  return col0 + (c / per) * apart + c % per;  // as ints first: c and per are small and non-negative
}
// Columns one block covers across: its threads along x times their columns each.
std::size_t matrix_tile_cols(Algo algo, int block, std::size_t cols);
// The columns thread tx of column tile `tile` sums, in its cells' order (column-sums-vectorized:
// vector_column with vector_elements(elem_bytes) elements a vector).
std::vector<std::size_t> matrix_thread_columns(Algo algo, int block, std::size_t cols, std::size_t tile, std::size_t tx,
                                               std::size_t elem_bytes);
// Which outputs a matrix reduction leaves: one per row, one per column, or one in all.
enum class Lines { Rows, Columns, Whole };
Lines matrix_lines(Algo algo);
Lines matrix_lines(Baseline b);
std::size_t line_count(Lines lines, Matrix m);
// The block a matrix benchmark uses when none is asked for (measured, docs/benchmarks.md).
int preferred_matrix_block(Algo algo, Matrix m, DeviceShape device);

// The race-revealing recording (kernels/probe.cuh, RaceProbe): every block of the first pass
// logs, per stage and thread, the two values the thread read from shared memory and the value
// it wrote (a load: the value written), adding no barrier. missing-syncthreads and
// legacy-warp-synchronous, and their fixes sequential and unroll-last-warp (race_recordable,
// kernels/algorithms.h).
constexpr int kRaceSlots = 3;
// A recording logs every thread of every block: at most this many first-pass blocks (the
// model's partials, which it is checked against, keep as many).
constexpr std::size_t kMaxRaceBlocks = kMaxPartials;
// The most runs one recording takes (`trace --runs`, the window's Race section).
constexpr int kMaxRaceRuns = 10000;
// Throws std::invalid_argument naming the problem when a recording cannot be made: an
// algorithm without one, a launch check_launch refuses, more than kMaxRaceBlocks blocks.
// Returns the first pass's grid.
std::size_t check_race_launch(Algo algo, std::size_t n, const Launch& launch);

template <class T>
struct RaceRuns {
  std::vector<T> results;           // [run] the whole reduction's result
  std::vector<int> wrong_blocks;    // [run] first-pass blocks whose result differed from `expected`
  int first_wrong = -1;             // the first run with a wrong block; -1: none
  int block = 0;                    // the block whose log is kept: from first_wrong (the traced block
                                    // if it went wrong, else the first that did), else the traced block
  std::vector<T> partials;          // the kept run's first-pass results
  std::vector<T> log;               // the kept block's [stage][thread][kRaceSlots]
};

// Runs the whole reduction `runs` times on one input, the first pass recorded by every block,
// and compares each run's first-pass results with `expected` (the model's, one per block).
template <class T>
RaceRuns<T> gpu_race_runs(Algo algo, OpKind op, const T* host_in, std::size_t n, const Launch& launch, int runs,
                          const std::vector<T>& expected);

// Thrown for any failing CUDA call, with the call, file and line in the message.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// True when a CUDA device can be used; otherwise *why says what is missing.
bool cuda_available(std::string* why);
std::string cuda_device_name();
// Bytes of the current device's memory in use (by every process): the soak watches it.
std::size_t cuda_memory_used();
int cuda_sm_count();
DeviceShape cuda_device_shape();  // the current device's SMs and threads per SM

// Reduces host_in[0..n) on the GPU to one value. With trace non-null, block
// launch.trace_block of the first pass runs the instrumented instantiation.
template <class T>
T gpu_reduce(Algo algo, OpKind op, const T* host_in, std::size_t n, const Launch& launch,
             RawTrace<T>* trace);

// Reduces each row, each column or the whole of the row-major matrix host_in on the GPU
// (matrix_outputs values). With trace non-null, block launch.trace_block of the first pass
// (numbered x fastest) runs the instrumented instantiation.
template <class T>
std::vector<T> gpu_reduce_matrix(Algo algo, OpKind op, const T* host_in, Matrix m, const Launch& launch,
                                 RawTrace<T>* trace);
// Several matrices of one shape, one after another through one prepared reducer, as a
// benchmark's back-to-back runs go: each one's outputs. Whatever a launch leaves for the next
// (batched-rows-vectorized's ticket counters) must not change the next one's results.
template <class T>
std::vector<std::vector<T>> gpu_reduce_matrices(Algo algo, OpKind op, const std::vector<const T*>& host_ins, Matrix m,
                                                const Launch& launch);

template <class T>
T cub_reduce(OpKind op, const T* host_in, std::size_t n);
template <class T>
T thrust_reduce(OpKind op, const T* host_in, std::size_t n);
// Copies host_in through the GPU with 16-byte loads and stores; true when every element
// arrived unchanged.
template <class T>
bool copy_roundtrip(const T* host_in, std::size_t n);

}  // namespace rl::kernels
