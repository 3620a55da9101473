// How a matrix reduction is launched and what each block reads (implemented in
// kernels/model/matrix_shapes.cpp).
#pragma once
#include <cstddef>
#include <vector>

#include "algorithms.h"
#include "raw_trace.h"
#include "reduce_ops.h"
#include "shapes.h"

namespace rl::kernels {

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
// elem_bytes: the element's size, which sets the lanes a row of lanes-per-row takes (row_lanes).
Grid2 matrix_grid(Algo algo, Matrix m, int block, std::size_t grid, DeviceShape device, std::size_t elem_bytes = 4);
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
TraceShape matrix_trace_shape(Algo algo, int block, Matrix m, std::size_t elem_bytes);
// Row segments: the lanes a row's segment holds: 32 for a warp a row (warp-per-row); for
// lanes-per-row the largest power of two at or below the row's length over a lane's share (rounded
// up), 1 to kMaxRowLanes. A lane's share is 4 elements, one 16-byte load of floats or ints (two of
// doubles), or 8 halves or bfloat16: one load of them. Where rows hold 16-byte vectors and a lane
// would load two or three of them, fewer lanes, each with kRowLoadsInFlight or more.
constexpr int kMaxRowLanes = 16;
int row_lanes(Algo algo, std::size_t cols, std::size_t elem_bytes = 4);
// thread-per-row: the columns of each row a block copies into shared memory at a time, its tile
// (at most kTileRowBytes of a row, and a tile of at most kTileBytes), and the tile's row pitch:
// the columns rounded up to an odd number, so the rows a warp's threads walk start in different
// banks (bank = cell mod 32 for 4-byte cells).
constexpr int kTileRowBytes = 512;
constexpr std::size_t kTileBytes = 48 * 1024;  // dynamic shared memory a block gets without opting in
int row_tile_cols(std::size_t cols, int block, std::size_t elem_bytes);
constexpr RL_HD int row_tile_pitch(int tile_cols) { return tile_cols | 1; }
// thread-per-row: elements a load of the copy reads: a 16-byte vector's where a tile holds whole
// rows (one run of memory), else 1.
std::size_t row_tile_load_elements(std::size_t cols, int block, std::size_t elem_bytes);
// Row segments: elements one load of a lane reads: a 16-byte vector's where the row allows and
// the algorithm asks for them, else 1.
std::size_t segment_load_elements(Algo algo, std::size_t cols, std::size_t elem_bytes);
// Throws std::invalid_argument naming the problem: an empty or too large shape, a block size
// the kernel cannot take, a traced block outside the grid. Returns the first pass's grid.
Grid2 check_matrix_launch(Algo algo, Matrix m, const Launch& launch, DeviceShape device, bool traced,
                          std::size_t elem_bytes = 4);
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
// A row of `cols` elements whose first is element `start` of a 16-byte aligned array, in vectors
// of `per`: `head` elements before its first 16-byte boundary, `body` elements of whole vectors
// after them, then `tail` elements (batched-rows-vectorized: 16-byte loads whatever the row's
// alignment). A row whose bytes are a multiple of 16 in such a matrix has no head and no tail.
struct RowVectors {
  std::size_t head, body, tail;
};
constexpr RL_HD RowVectors row_vectors(std::size_t start, std::size_t cols, std::size_t per) {
  const std::size_t to_boundary = (per - start % per) % per, head = to_boundary < cols ? to_boundary : cols;
  const std::size_t body = (cols - head) / per * per;
  return {head, body, cols - head - body};
}
// flat-rows: block b of `grid` takes rows [first, end), elements [lo, hi) of the flat matrix; its
// tiles start at `base`, lo rounded down to a kFlatAlignBytes boundary, so bulk copies take them
// whatever a row's length: copies from sources on 16-byte boundaries alone measured far slower
// (docs/benchmarks.md, "flat-rows' copies on 128-byte boundaries"). rows / grid * b + ... keeps
// rows * b from overflowing.
constexpr std::size_t kFlatAlignBytes = 128;
struct FlatRun {
  std::size_t first, end, lo, hi, base;
};
constexpr RL_HD FlatRun flat_run(std::size_t rows, std::size_t cols, std::size_t grid, std::size_t b,
                                 std::size_t elem_bytes) {
  const auto row_at = [&](std::size_t k) { return rows / grid * k + rows % grid * k / grid; };
  const std::size_t first = row_at(b), end = row_at(b + 1), align = kFlatAlignBytes / elem_bytes;
  return {first, end, first * cols, end * cols, first * cols / align * align};
}
// flat-rows, tile k of run r (tiles of `tile` elements from r.base), as the host walks it (the
// kernel keeps the same numbers from tile to tile): where it starts (t0); the run's part of it,
// [from, to) from t0; the row holding its first element of the run and where that row starts,
// from t0 (f0: negative where the row began in an earlier tile); its tasks, `lanes` a row with
// elements there.
struct FlatTile {
  std::size_t t0, first_row;
  int from, to, f0, tasks;
};
constexpr RL_HD FlatTile flat_tile(const FlatRun& r, std::size_t cols, std::size_t tile, std::size_t k, int lanes) {
  const std::size_t t0 = r.base + k * tile, lo = t0 > r.lo ? t0 : r.lo, hi = r.hi < t0 + tile ? r.hi : t0 + tile;
  const std::size_t first = lo / cols, rows = (hi - 1) / cols - first + 1;
  return {
      t0, first, int(lo - t0), int(hi - t0), int(std::ptrdiff_t(first * cols) - std::ptrdiff_t(t0)), int(rows) * lanes};
}
// flat-rows: the end of what run r's bulk copies bring: the 16-byte boundary at or after the run's
// end, and never past the matrix's last whole 16-byte vector (its last elements, fewer than a
// vector, are loaded one a thread). So a copy reads no more than a vector of the next run.
constexpr RL_HD std::size_t flat_copy_end(const FlatRun& r, std::size_t n, std::size_t per) {
  const std::size_t run_end = (r.hi + per - 1) / per * per, whole = n / per * per;
  return run_end < whole ? run_end : whole;
}
// flat-rows: lanes that add each row of a tile, a power of two. A warp's reads of 4-byte cells
// fall in 32 different banks where the lanes are the 2-adic part of the row's length (rows start
// 2-adic part x odd cells apart) or 32 (a row's lanes on neighbouring cells); fewer lanes where
// that would leave a lane under kFlatLaneElements elements; more, doubling up to 32, while a lane
// would add more than kFlatLaneLimit (longer rows: their lanes then share banks two ways or so).
// Rows of 65 and 127 floats went straight to 32 lanes before, five shuffles a row, and read at
// 36-47 % of peak (docs/benchmarks.md, "Row sums held in flat-rows").
constexpr int kFlatLaneElements = 4;
constexpr int kFlatLaneLimit = 64;
constexpr RL_HD int flat_row_lanes(std::size_t cols) {
  int g = 1;
  while (g < 32 && cols % std::size_t(2 * g) == 0 && cols / std::size_t(2 * g) >= std::size_t(kFlatLaneElements))
    g *= 2;
  while (g < 32 && (cols + std::size_t(g) - 1) / std::size_t(g) > std::size_t(kFlatLaneLimit)) g *= 2;
  return g;
}
// flat-rows: its row's tile bytes and buffers, as constants for the kernel; elements a tile holds.
constexpr int kFlatTileBytes = row(Algo::FlatRows).tile_bytes;
constexpr int kFlatStages = row(Algo::FlatRows).stages;
constexpr RL_HD std::size_t flat_tile_elements(std::size_t elem_bytes) {
  return std::size_t(kFlatTileBytes) / elem_bytes;
}
// flat-rows: the most rows that can end in one tile.
constexpr RL_HD std::size_t flat_tile_rows(std::size_t cols, std::size_t elem_bytes) {
  return flat_tile_elements(elem_bytes) / cols + 1;
}
// flat-rows: whether a warp's reads of 4-byte cells in a tile fall in 32 different banks: its
// lanes are 32 (a row's lanes on neighbouring cells) or the 2-adic part of the row's length (see
// flat_row_lanes), not fewer nor more.
constexpr RL_HD bool flat_lanes_apart(std::size_t cols) {
  const auto g = std::size_t(flat_row_lanes(cols));
  return g == 32 || (cols % g == 0 && cols % (2 * g) != 0);
}
// flat-rows' timed kernel holds its row sums in a ring of kFlatHeldBytes past its buffers (three
// blocks an SM still fit) and writes them in runs of whole lines: row sums written a line at a
// time amid the reads cost several times their bytes (docs/benchmarks.md, "What the row sums'
// writes cost"; "Row sums held in flat-rows"). Held where a tile ends at most an eighth of the
// ring's rows (rows of 33 elements or more where the sums are the elements' type; 65 for halves
// and bfloat16 added in float), so a block writes runs of at least three quarters of the ring:
// rows of 15 and 17 floats, writing runs of 4-6 KB, ran level or slower held. Not where the lanes share banks (rows of
// 64 floats): there the adds already take longer than the copies, and the writes out of the ring measured slower (same
// section). Returns the ring's rows (a power of two), or 0. elem_bytes: the elements'; sum_bytes: the sums' (4 for
// halves added in float; 0: the elements').
constexpr int kFlatHeldBytes = 8192, kFlatHeldTiles = 8;
constexpr RL_HD int flat_held_rows(std::size_t cols, std::size_t elem_bytes, std::size_t sum_bytes = 0) {
  const std::size_t ring = std::size_t(kFlatHeldBytes) / (sum_bytes ? sum_bytes : elem_bytes);
  return flat_lanes_apart(cols) && kFlatHeldTiles * flat_tile_rows(cols, elem_bytes) <= ring ? int(ring) : 0;
}
// flat-rows, held: whether a block with `pending` rows ended and not yet written writes them now.
// Not yet only while the next two tiles' rows still fit beside them: the rows written now are read
// during the next tile, and the ones after wait for the flush after it (the ring never holds a
// row still being read: Matrix.FlatRowsHeldSumsNeverShareARingPlaceInUse).
constexpr RL_HD bool flat_flush_due(std::size_t pending, std::size_t tile_rows, int ring) {
  return pending + 2 * tile_rows > std::size_t(ring);
}
// flat-rows' timed kernel: a block a run of about a tile and a half (kFlatRunBytes, so both
// buffers' copies start as the block starts) where such runs outnumber the blocks of the plan's one
// wave; else that wave. As the blocks end, the GPU hands the next runs to the SMs that
// are free, where a wave's blocks each walked dozens of tiles and the last ended well after the rest.
// A row longer than a run takes a block (no row is split). Runs of one tile or of two, or of under
// a tile, measured slower at most shapes. The wave stays (flat_runs) in blocks over
// kFlatRunMaxBlock threads, where runs read far slower, and for halves and bfloat16 on rows of
// 16-byte multiples: lanes-per-row and batched-rows-vectorized read those rows faster, and runs
// measured slower at most of them (docs/benchmarks.md, "flat-rows, a tile and a half a block").
constexpr int kFlatRunBytes = kFlatTileBytes * 3 / 2, kFlatRunMaxBlock = 512;
constexpr RL_HD bool flat_runs(std::size_t cols, std::size_t elem_bytes, int block) {
  return block <= kFlatRunMaxBlock && (elem_bytes >= 4 || !rows_hold_vectors(cols, elem_bytes));
}
std::size_t flat_timed_grid(Matrix m, int block, DeviceShape device, std::size_t elem_bytes);

// The matrix kernels that size their own grid aim for this many waves of blocks (a wave: every
// SM filled once); batched-rows-split cuts no chunk below kSplitLoads loads a thread; chunks
// start a multiple of kChunkAlignCols columns into their row (a 32-byte sector for every type).
constexpr int kGridWaves = 2;
constexpr int kSplitLoads = 8;
constexpr int kChunkAlignCols = 64;
// batched-rows-vectorized's loads in flight a thread: this many 16-byte loads before adding any.
constexpr int kRowLoadsInFlight = 4;
// batched-rows-vectorized ends a row with its first block waiting for the others (first-waits)
// only from this many chunks a row: measured ahead of the ticket at every shape from 16, ahead or
// behind by turns with fewer (docs/benchmarks.md, "The row's first block waiting, as its own
// instantiation").
constexpr std::size_t kFirstWaitsMinChunks = 16;
// Whether the rows may end so by their shape alone (first_waits_fit adds the cooperative launch's
// fit): 4-byte results, a word a thread of the row's first block, a block of one row of threads.
constexpr RL_HD bool first_waits_shape(std::size_t chunks, unsigned block_x, unsigned block_y,
                                       std::size_t result_bytes) {
  return result_bytes == 4 && chunks >= kFirstWaitsMinChunks && chunks <= block_x && block_y == 1;
}
// lanes-per-row's timed kernel on long rows of floats, summed: a lane with 8 or 16 or more 16-byte
// loads of its row (kMaxRowLanes lanes a row) takes the first 8 or 16 in one batch, in blocks of
// at most kLongRowBlock threads (16 loads hold 64 registers). The same loads and adds in the same
// order as four at a time. Measured faster for float sums on rows of 512 to 4096 floats; level or
// slower for ints, halves and doubles, which keep four (docs/benchmarks.md, "Long rows' first batch").
constexpr int kLongRowLoads = 16;
constexpr int kLongRowBlock = 256;
constexpr int row_first_batch(std::size_t cols, int lanes, int block) {
  if (!rows_hold_vectors(cols, 4) || lanes != kMaxRowLanes || block > kLongRowBlock) return kRowLoadsInFlight;
  const std::size_t share = cols * 4 / kVectorBytes / std::size_t(lanes);  // a lane's loads of its row
  return share >= std::size_t(kLongRowLoads)       ? kLongRowLoads
         : share >= std::size_t(kLongRowLoads / 2) ? kLongRowLoads / 2
                                                   : kRowLoadsInFlight;
}
// lanes-per-row's timed kernel holds a block's row sums in shared memory and writes them at its
// end, one run of memory a block, where the block's share of the rows (rows over the grid's
// blocks, rounded up) is at least kHeldMinRows and its sums take at most kHeldSumBytes (and, at its
// launch, leave the blocks an SM holds as they are): the sums then reach DRAM in bursts, not a line
// at a time amid the reads. Measured faster at rows of 64 to 1024 in whole waves of blocks, over
// every type; at 2^18 x 1024 with 66 rows a block slower (86.8 % against 92.9 with 63, not held);
// rows of 16 held in three waves slower over halves and bfloat16, faster over floats (docs/
// benchmarks.md, "Row sums held in shared memory", "Whole waves", "Held in the fewest whole waves").
// kHeldSumBytes: 48 KiB, the dynamic shared memory a block takes without opting in; fewer, larger
// shares measured faster. Returns the share, or 0: not held.
// A share of at most one round (row_round) is held as well: a block a round, below.
constexpr std::size_t kHeldMinRows = 256, kHeldSumBytes = 49152;
constexpr std::size_t held_row_share(std::size_t rows, std::size_t blocks, std::size_t sum_bytes,
                                     std::size_t round = 0) {
  const std::size_t share = blocks ? (rows + blocks - 1) / blocks : 0;
  return (share >= kHeldMinRows || share <= round) && share * sum_bytes <= kHeldSumBytes ? share : 0;
}
// lanes-per-row's timed kernel on rows of 16-byte loads of at most kRoundRowBytes (row_rounds): a
// block takes one round of rows, the rows its warps walk at once, and the grid is as many blocks as
// rounds, so the hardware, not a loop, hands the rows out (as cuBLAS gemv's blocks of 8 rows of 256
// floats take them, in Nsight Compute's view). A round: each warp takes kRowLoadsInFlight groups of
// 32 / lanes rows where a lane loads its row in one go, else one group.
// Measured on H100s against whole waves, held or not: faster at rows of 16 and 256 floats and of
// 16 and 64 halves, level at 64 floats, slower on rows of one element a load (docs/benchmarks.md,
// "A round of rows a block"). Taken only where the rounds fill kGridWaves waves, and on a GPU
// whose memory's peak is at most kRoundMaxGbpsPerSm an SM (rounds_pay).
constexpr std::size_t kRoundRowBytes = 1024;
constexpr RL_HD bool row_rounds(std::size_t cols, std::size_t elem_bytes) {
  return rows_hold_vectors(cols, elem_bytes) && cols * elem_bytes <= kRoundRowBytes;
}
// Whether a round of rows a block pays on this GPU: on an H100 SXM (3352 GB/s over 132 SMs, 25.4 an
// SM) the rounds read faster than whole waves; on H200s (4814 GB/s, 36.5 an SM) whole waves read
// faster at most rows the rounds take (docs/benchmarks.md, "Rounds on an H200"). The line is set
// between the two GPUs measured, not derived; a GPU whose peak is not known (0) keeps the rounds.
constexpr int kRoundMaxGbpsPerSm = 30;
constexpr bool rounds_pay(DeviceShape device) {
  return device.peak_gbps <= kRoundMaxGbpsPerSm * device.sm_count;  // an unknown peak (0) too
}
constexpr std::size_t row_round(std::size_t cols, std::size_t elem_bytes, int lanes, int block) {
  const std::size_t per = rows_hold_vectors(cols, elem_bytes) ? vector_elements(elem_bytes) : 1;
  const bool one_load = cols / per <= std::size_t(lanes);  // reduce_row_segments' one_load
  return std::size_t(block / 32) * std::size_t(32 / lanes) * (one_load ? std::size_t(kRowLoadsInFlight) : 1);
}
// lanes-per-row's timed grid (MatrixLaunch<LanesPerRow>::timed_grid), given `wave`, the blocks of its
// kernel the device holds at once, and held(grid), whether a block's share of the rows is held in
// that grid: a block a round where row_rounds says so, the rounds fill kGridWaves waves and they pay
// on `device`; where they do not pay, kGridWaves whole waves (one held wave read far slower at some
// row lengths on an H200: docs/benchmarks.md, "Rounds on an H200"); other rows the fewest whole
// waves, up to kGridWaves, in which the share is held, else kGridWaves waves ("Whole waves", "Held
// in the fewest whole waves", "A round of rows a block").
template <class Held>
std::size_t lanes_timed_grid(Matrix m, std::size_t elem_bytes, int block, std::size_t wave, DeviceShape device,
                             Held held) {
  const std::size_t waves = std::size_t(kGridWaves) * wave;
  const std::size_t round = row_round(m.cols, elem_bytes, row_lanes(Algo::LanesPerRow, m.cols, elem_bytes), block);
  const std::size_t rounds = round ? (m.rows + round - 1) / round : 0;  // no round in blocks under a warp
  if (row_rounds(m.cols, elem_bytes) && round && rounds >= waves) return rounds_pay(device) ? rounds : waves;
  for (std::size_t w = 1; w <= std::size_t(kGridWaves); ++w)
    if (held(w * wave)) return w * wave;
  return waves;
}
// 32-bit registers an SM holds on every GPU from compute capability 5.0 to 9.0 (Programming
// Guide, "Technical Specifications per Compute Capability").
constexpr int kRegistersPerSm = 65536;
// batched-rows-vectorized cuts rows into chunks that give each thread at least this many
// elements: short chunks, as many blocks as they make, the row's last block folding their
// results (measured: docs/benchmarks.md). Halves and bfloat16 by default four times as many,
// twice the bytes: their blocks of 512 then take 128 KB a chunk, as floats' blocks of 1024 do; twice
// as many (`few_blocks`) where that would leave an SM without a block (measured: docs/benchmarks.md,
// "Chunks of 128 KB for halves and bfloat16"). An asked-for grid keeps the floats' limit, so every
// grid the default gives maps back to itself.
constexpr int kRowChunkElements = 32;
constexpr RL_HD int row_chunk_elements(std::size_t elem_bytes, bool few_blocks = false) {
  return elem_bytes == 2 ? (few_blocks ? 2 : 4) * kRowChunkElements : kRowChunkElements;
}
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
Lines matrix_lines(Algo algo);
Lines matrix_lines(Baseline b);
std::size_t line_count(Lines lines, Matrix m);
// The block a matrix benchmark uses when none is asked for (measured, docs/benchmarks.md).
int preferred_matrix_block(Algo algo, Matrix m, DeviceShape device, DType type = DType::Float);

}  // namespace rl::kernels
