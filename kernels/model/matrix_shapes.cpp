// Launch shapes of the matrix family, shared by the GPU launchers and the CPU model.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "../algorithms.h"
#include "../raw_trace.h"
#include "../shapes.h"
#include "../matrix_shapes.h"

namespace rl::kernels {
namespace {

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

int log2_of(int block) {
  int k = 0;
  while ((1 << k) < block) ++k;
  return k;
}

constexpr std::size_t kMaxGridY = 65535;                  // CUDA's limit on gridDim.y
constexpr std::size_t kMaxGridX = 2147483647;             // and on gridDim.x
constexpr std::size_t kWarpColumns = 32 * kVectorColumns;  // column-sums-vectorized: a full warp's columns
constexpr std::size_t kMaxElements = std::size_t(1) << 34;
constexpr std::size_t kFlatMaxCols = std::size_t(1)
                                     << 29;  // the app's cap (64 GiB of floats); allocation decides below it

// Blocks one wave of the device holds.
std::size_t wave_blocks(int block, DeviceShape device) {
  return std::size_t(std::max(1, device.threads_per_sm / block)) * std::size_t(std::max(1, device.sm_count));
}

// kGridWaves waves: enough for the fixed grids to cover every SM while each thread still loads several
// elements.
std::size_t wanted_blocks(int block, DeviceShape device) { return kGridWaves * wave_blocks(block, device); }

// The largest power of two from `least` to `most` that still gives each of that many threads (or
// rows of threads) `each` of `items`; `least` where none does.
int largest_share(std::size_t items, std::size_t each, int least, int most) {
  int n = least;
  while (n < most && std::size_t(n) * 2 * each <= items) n *= 2;
  return n;
}

// Chunks a row for batched-rows-split and batched-rows-vectorized: as many as `want` blocks
// allow over the rows (at least one), while a full chunk leaves each thread `least` elements.
Grid2 row_chunks(Matrix m, int block, std::size_t want, std::size_t least) {
  const std::size_t most = std::max<std::size_t>(1, m.cols / (std::size_t(block) * least));
  const std::size_t chunks = std::clamp<std::size_t>(want / m.rows, 1, most);
  return {ceil_div(m.cols, split_chunk_cols(m, chunks)), m.rows};  // no chunk empty: a recorded grid maps back
}

// batched-rows-vectorized's default chunks: row_chunk_elements a thread; halves' and bfloat16's
// longer chunks only where they still give every SM a block, else their shorter ones (3 x (2^20 +
// 1) kept its 7.7 us: docs/benchmarks.md, "Chunks of 128 KB for halves and bfloat16").
Grid2 default_row_chunks(Matrix m, int block, std::size_t elem_bytes, DeviceShape device) {
  constexpr std::size_t kAny = std::numeric_limits<std::size_t>::max();
  const Grid2 chunks = row_chunks(m, block, kAny, row_chunk_elements(elem_bytes));
  if (chunks.count() >= std::size_t(std::max(1, device.sm_count))) return chunks;
  return row_chunks(m, block, kAny, row_chunk_elements(elem_bytes, true));
}

}  // namespace

bool is_matrix(Algo algo) { return row(algo).shape == Shape::Matrix; }

int row_lanes(Algo algo, std::size_t cols, std::size_t elem_bytes) {
  if (row(algo).indexing != Indexing::RowSegments) return 0;
  if (!row(algo).vectors) return 32;
  const std::size_t share = std::max<std::size_t>(4, vector_elements(elem_bytes));  // a lane's elements
  const std::size_t shares = (cols + share - 1) / share;
  int lanes = 1;
  while (lanes < kMaxRowLanes && std::size_t(lanes) * 2 <= shares) lanes *= 2;
  // A lane with two or three vectors of its row loads them one at a time (reduce_row_segments keeps
  // kRowLoadsInFlight of a row in flight only where a lane has that many): fewer lanes, each with
  // that many (measured: docs/benchmarks.md, "lanes-per-row: loads in flight on rows of halves").
  const std::size_t vectors = rows_hold_vectors(cols, elem_bytes) ? cols / vector_elements(elem_bytes) : 0;
  while (lanes > 1 && vectors > std::size_t(lanes) && vectors < std::size_t(lanes) * kRowLoadsInFlight) lanes /= 2;
  return lanes;
}

int row_tile_cols(std::size_t cols, int block, std::size_t elem_bytes) {
  const std::size_t budget = kTileBytes / (std::size_t(block) * elem_bytes);  // cells a row of the tile may take
  const int w = int(std::min({cols, std::size_t(kTileRowBytes) / elem_bytes, budget}));
  return std::size_t(row_tile_pitch(w)) > budget ? w - 1 : w;  // an even w would pad past the budget
}

std::size_t row_tile_load_elements(std::size_t cols, int block, std::size_t elem_bytes) {
  return cols <= std::size_t(row_tile_cols(cols, block, elem_bytes)) ? vector_elements(elem_bytes) : 1;
}

std::size_t segment_load_elements(Algo algo, std::size_t cols, std::size_t elem_bytes) {
  return row(algo).vectors && rows_hold_vectors(cols, elem_bytes) ? vector_elements(elem_bytes) : 1;
}

bool is_column_sums(Algo algo) { return row(algo).indexing == Indexing::ColumnTiles; }

bool is_row_chunks(Algo algo) { return row(algo).indexing == Indexing::RowChunks; }

// 16-byte loads over column tiles: a thread holds kVectorColumns neighbouring columns.
int matrix_thread_cols(Algo algo) { return is_column_sums(algo) && row(algo).vectors ? kVectorColumns : 1; }

std::size_t matrix_tile_cols(Algo algo, int block, std::size_t cols) {
  return std::size_t(matrix_block_x(algo, block, cols)) * std::size_t(matrix_thread_cols(algo));
}

std::vector<std::size_t> matrix_thread_columns(Algo algo, int block, std::size_t cols, std::size_t tile, std::size_t tx,
                                        std::size_t elem_bytes) {
  const std::size_t bx = std::size_t(matrix_block_x(algo, block, cols)), first = tile * matrix_tile_cols(algo, block, cols);
  if (matrix_thread_cols(algo) == 1) return {first + tx};
  std::vector<std::size_t> out;
  const int per = int(vector_elements(elem_bytes));
  for (int c = 0; c < kVectorColumns; ++c) out.push_back(vector_column(first + std::size_t(per) * tx, std::size_t(per) * bx, per, c));
  return out;
}

Lines matrix_lines(Algo algo) { return lines_of(row(algo).indexing); }

Lines matrix_lines(Baseline b) { return b == Baseline::CublasColumns ? Lines::Columns : Lines::Rows; }

std::size_t line_count(Lines lines, Matrix m) { return lines == Lines::Rows ? m.rows : lines == Lines::Columns ? m.cols : 1; }

std::size_t matrix_outputs(Algo algo, Matrix m) { return line_count(matrix_lines(algo), m); }

int preferred_matrix_block(Algo algo, Matrix m, DeviceShape device, DType type) {
  const std::size_t elem_bytes = std::size_t(type_bytes(type));
  // column-sums: 128 threads (4 rows of 32) for wide matrices, 1024 for tall ones.
  // column-sums-vectorized: the most threads that take the deep batch (kDeepColumnBlock, 32 x 8)
  // while each row of threads still gets one full batch (16 rows of floats); fewer rows, fewer
  // rows of threads. But a warp a block where one-warp blocks all run at once, 8 to 16 an SM:
  // 2048 blocks of 256 would fill 7.8 waves of the 264 an H100 holds (88 registers a thread).
  // Measured: docs/benchmarks.md, "Where the matrix rules come from".
  if (is_column_sums(algo) && row(algo).vectors) {
    const std::size_t batch = std::size_t(column_batch_rows(kDeepColumnBlock, sizeof(float), true));
    const std::size_t tiles = ceil_div(m.cols, kWarpColumns), sms = std::size_t(std::max(1, device.sm_count));
    if (m.rows >= batch && tiles >= 8 * sms && tiles <= 16 * sms) return 32;
    return 32 * largest_share(m.rows, batch, 1, kDeepColumnBlock / 32);
  }
  if (is_column_sums(algo)) return m.cols > m.rows ? 128 : m.rows > m.cols ? 1024 : 256;
  // thread-per-row: a warp a block. Its barriers then hold up one warp, and an SM holds many such
  // blocks: ahead of 64 to 256 threads at rows of 15, 16 and 100 floats, behind 64 at
  // rows of 64 (measured: docs/benchmarks.md, "Results: short rows").
  if (row(algo).indexing == Indexing::RowTile) return 32;
  if (matrix_lines(algo) != Lines::Rows || row(algo).indexing == Indexing::RowSegments ||
      row(algo).indexing == Indexing::FlatTiles)
    return 256;
  // A block per row: the largest block (32 to 1024) that still gives each thread at least eight
  // elements of the row: eight loads in flight (fold_strided); batched-rows-vectorized's threads
  // then hold two or three 16-byte vectors of 4-byte elements below 1024 threads (measured:
  // docs/benchmarks.md, "Where the matrix rules come from"). Halves and bfloat16: 32 elements, four
  // vectors (measured: docs/benchmarks.md, "Matrices of halves"), in blocks of at most 512 (measured
  // with their chunks of 128 KB: "Chunks of 128 KB for halves and bfloat16").
  const int block = largest_share(m.cols, elem_bytes == 2 ? 32 : 8, 32, elem_bytes == 2 ? 512 : 1024);
  // batched-rows-vectorized: where its large blocks' chunks leave SMs without a block and blocks of
  // 256 cut more, it takes those (3 x (2^20 + 1): 8.8 against 9.5 us; docs/benchmarks.md, "rows of
  // any alignment").
  const auto blocks_at = [&](int b) { return default_row_chunks(m, b, elem_bytes, device).count(); };
  const std::size_t sms = std::size_t(std::max(1, device.sm_count));
  if (is_row_chunks(algo) && row(algo).combine == Combine::LastBlock && block > 256 && blocks_at(block) < sms &&
      blocks_at(256) > blocks_at(block))
    return 256;
  return block;
}

int matrix_block_x(Algo algo, int block, std::size_t cols) {
  // column-sums on a narrow matrix: a warp as wide as the rows, so none of its lanes idles past
  // the last column (measured: docs/benchmarks.md, "Where the matrix rules come from").
  if (is_column_sums(algo)) {
    const std::size_t per_thread = std::size_t(matrix_thread_cols(algo));
    int x = 1;
    while (x < 32 && std::size_t(x) * per_thread < cols) x *= 2;
    return std::min(block, x);
  }
  return row(algo).indexing == Indexing::Tile2d ? std::min(block, 32) : block;
}

std::size_t matrix_partials(Algo algo, Matrix m, Grid2 grid) {
  switch (row(algo).indexing) {
    case Indexing::ColumnTiles: return grid.y * m.cols;
    case Indexing::Tile2d:
    case Indexing::RowChunks: return grid.count();
    default: return matrix_outputs(algo, m);
  }
}

// ceil(cols / chunks) rounded up to a multiple of 64 elements, so every chunk starts on a 32-byte
// sector when its row does (measured: docs/benchmarks.md, "Where the matrix rules come from").
std::size_t split_chunk_cols(Matrix m, std::size_t chunks) {
  constexpr auto kAlign = std::size_t(kChunkAlignCols);
  const std::size_t width = ceil_div(m.cols, std::max<std::size_t>(chunks, 1));
  return std::min(m.cols, ceil_div(width, kAlign) * kAlign);
}

std::size_t column_chunk_rows(Matrix m, int, std::size_t chunks) { return ceil_div(m.rows, std::max<std::size_t>(chunks, 1)); }

Grid2 matrix_grid(Algo algo, Matrix m, int block, std::size_t grid, DeviceShape device, std::size_t elem_bytes) {
  const std::size_t bx = std::size_t(matrix_block_x(algo, block, m.cols)), by = std::size_t(block) / bx;
  const std::size_t tiles_x = ceil_div(m.cols, matrix_tile_cols(algo, block, m.cols)), tiles_y = ceil_div(m.rows, by);
  const std::size_t want = grid ? grid : wanted_blocks(block, device);
  switch (row(algo).indexing) {
    case Indexing::RowPerBlock: return {m.rows, 1};
    case Indexing::ColumnWalk: return {tiles_x, 1};
    case Indexing::RowTile:  // a block a tile of rows, up to kGridWaves waves; blocks then loop over tiles
      return {std::clamp<std::size_t>(ceil_div(m.rows, std::size_t(block)), 1, std::min(want, kMaxGridX)), 1};
    case Indexing::FlatTiles: {  // one wave of the blocks whose buffers an SM holds at once; a row a block at least
      const std::size_t sms = std::size_t(std::max(1, device.sm_count));
      const std::size_t by_shared =
          blocks_by_shared(std::size_t(kFlatTileBytes) * std::size_t(kFlatStages) + kFlatHeldBytes);
      const std::size_t fit = std::max<std::size_t>(1, std::min(wave_blocks(block, device) / sms, by_shared));
      return {std::clamp<std::size_t>(grid ? grid : fit * sms, 1, std::min(m.rows, kMaxGridX)), 1};
    }
    case Indexing::RowSegments: {  // a warp a group of rows, up to kGridWaves waves; warps then loop over groups
      const std::size_t per_warp = std::size_t(32 / row_lanes(algo, m.cols, elem_bytes)),
                        warps = std::size_t(std::max(1, block / 32));
      const std::size_t blocks = ceil_div(ceil_div(m.rows, per_warp), warps);
      return {std::clamp<std::size_t>(blocks, 1, std::min(want, kMaxGridX)), 1};
    }
    case Indexing::RowChunks:
      if (row(algo).combine != Combine::LastBlock) return row_chunks(m, block, want, kSplitLoads);
      // Short chunks, however many blocks they make: the row's last block folds their results
      // inside the same launch (measured: docs/benchmarks.md, "Where the matrix rules come from").
      if (grid) return row_chunks(m, block, grid, kRowChunkElements);
      return default_row_chunks(m, block, elem_bytes, device);
    case Indexing::ColumnTiles: {
      // Chunks of rows; ceil(rows / ceil(rows / c)) so a recorded grid maps back to itself.
      // column-sums-vectorized: about one block an SM, so a second pass only where the column
      // tiles alone leave SMs idle; its deep batch keeps enough loads in flight with one block.
      // Rows narrower than a warp's 128 columns: four an SM (measured: docs/benchmarks.md,
      // "Where the matrix rules come from").
      const std::size_t per_sm = m.cols < kWarpColumns ? 4 : 1;
      const std::size_t blocks = grid || !row(algo).vectors ? want : per_sm * std::size_t(std::max(1, device.sm_count));
      const std::size_t chunks = std::clamp<std::size_t>(blocks / std::max<std::size_t>(tiles_x, 1), 1, std::min(tiles_y, kMaxGridY));
      return {tiles_x, ceil_div(m.rows, column_chunk_rows(m, block, chunks))};
    }
    default: {  // block-2d: as wide as the matrix allows, then as tall as the rest asks
      const std::size_t x = std::clamp<std::size_t>(std::min(tiles_x, want), 1, kMaxGridX);
      return {x, std::clamp<std::size_t>(want / x, 1, std::min(tiles_y, kMaxGridY))};
    }
  }
}

std::size_t flat_timed_grid(Matrix m, int block, DeviceShape device, std::size_t elem_bytes) {
  const std::size_t wave = matrix_grid(Algo::FlatRows, m, block, 0, device, elem_bytes).x;
  if (!flat_runs(m.cols, elem_bytes, block)) return wave;
  const std::size_t run = std::size_t(kFlatRunBytes) / elem_bytes;
  return std::max(std::min(ceil_div(m.size(), run), std::min(m.rows, kMaxGridX)), wave);
}

bool matrix_second_pass(Algo algo, Grid2 grid) {
  return (is_column_sums(algo) && grid.y > 1) || (is_row_chunks(algo) && grid.x > 1) || row(algo).indexing == Indexing::Tile2d;
}

bool matrix_chooses_grid(Algo algo) {
  const Indexing i = row(algo).indexing;
  return is_column_sums(algo) || is_row_chunks(algo) || i == Indexing::Tile2d || i == Indexing::RowSegments ||
         i == Indexing::RowTile || i == Indexing::FlatTiles;
}

TraceShape matrix_trace_shape(Algo algo, int block, Matrix m, std::size_t elem_bytes) {
  const int steps = log2_of(block), warps = block / 32;
  if (row(algo).indexing == Indexing::RowTile) {  // the copy, then the walk
    // A thread stores at most w cells rounded up to whole vectors, a last element and its pad cell.
    const int w = row_tile_cols(m.cols, block, elem_bytes);
    return {2, w + int(vector_elements(elem_bytes)) + 1, block * row_tile_pitch(w), kLoadSlots};
  }
  if (row(algo).indexing == Indexing::FlatTiles) {  // the first tile, the lanes' folds, a shuffle a halving
    const std::size_t g = std::size_t(flat_row_lanes(m.cols)), tile = flat_tile_elements(elem_bytes);
    return {2 + log2_of(int(g)), int((std::min(m.cols, tile) + g - 1) / g), int(tile), kLoadSlots};
  }
  if (row(algo).indexing == Indexing::RowSegments)  // the lanes' folds, then a shuffle a halving of the segment
    return {1 + log2_of(row_lanes(algo, m.cols, elem_bytes)), 0, 0, kLoadSlots};
  if (row(algo).tree == Tree::Shuffle) return {1 + 5 + 1 + 1 + 5, 1, warps, kLoadSlots};
  switch (row(algo).indexing) {
    case Indexing::ColumnTiles: {  // a cell a column a thread; a read, a read and a write a cell and step
      const int held = matrix_thread_cols(algo);
      return {1 + log2_of(block / matrix_block_x(algo, block, m.cols)), 3 * held, held * block, kLoadSlots};
    }
    case Indexing::ColumnWalk: return {1, 0, 0, kLoadSlots};
    default: return {1 + steps, 3, block, kLoadSlots};
  }
}

Grid2 check_matrix_launch(Algo algo, Matrix m, const Launch& launch, DeviceShape device, bool traced,
                          std::size_t elem_bytes) {
  const std::string id(row(algo).id);
  if (!is_matrix(algo)) throw std::invalid_argument(id + " reduces an array: give it --size, not --rows and --cols");
  if (m.rows == 0 || m.cols == 0)
    throw std::invalid_argument("a matrix needs at least 1 row and 1 column, got " + std::to_string(m.rows) + " x " +
                                std::to_string(m.cols));
  if (m.cols > kMaxElements / m.rows)
    throw std::invalid_argument("a matrix of " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                                " elements is past this app's limit of 2^34 elements");
  const int b = launch.block;
  if (b < 32 || b > 1024 || (b & (b - 1)) != 0)
    throw std::invalid_argument("block size must be a power of two from 32 to 1024, got " + std::to_string(b));
  if (row(algo).indexing == Indexing::FlatTiles && m.cols > kFlatMaxCols)
    throw std::invalid_argument(id + " adds rows of at most 2^29 elements (its offsets in a tile are 32-bit), got " +
                                std::to_string(m.cols));
  if (matrix_lines(algo) == Lines::Rows && m.rows > kMaxGridX)
    throw std::invalid_argument(id + " launches a block per row: at most 2^31 - 1 rows");
  const Grid2 grid = matrix_grid(algo, m, b, launch.grid, device, elem_bytes);
  if (traced && (launch.trace_block < 0 || std::size_t(launch.trace_block) >= grid.count()))
    throw std::invalid_argument("trace block " + std::to_string(launch.trace_block) + " is outside the grid of " +
                                std::to_string(grid.count()) + " block(s)");
  return grid;
}

namespace {
// Thread t of block b of a kernel of row chunks: its elements of the block's chunk of a row, a
// block apart; batched-rows-vectorized: the chunk's vectors of the row's body, then (the row's
// first chunk) one element of its head and one of its tail (row_vectors).
std::vector<std::size_t> chunk_elements(Algo algo, Matrix m, int block, Grid2 grid, std::size_t b, std::size_t t,
                                        std::size_t elem_bytes) {
  std::vector<std::size_t> out;
  const std::size_t w = split_chunk_cols(m, grid.x), gx = b % grid.x, start = b / grid.x * m.cols;
  if (!row(algo).vectors) {
    for (std::size_t c = gx * w + t; c < std::min(m.cols, (gx + 1) * w); c += std::size_t(block))
      out.push_back(start + c);
    return out;
  }
  const std::size_t per = vector_elements(elem_bytes);
  const RowVectors rv = row_vectors(start, m.cols, per);
  const std::size_t end = start + rv.head + std::min(rv.body, (gx + 1) * w);
  for (std::size_t i = start + rv.head + gx * w + per * t; i < end; i += per * std::size_t(block))
    for (std::size_t e = 0; e < per; ++e) out.push_back(i + e);
  if (gx == 0 && t < rv.head) out.push_back(start + t);
  if (gx == 0 && t < rv.tail) out.push_back(start + rv.head + rv.body + t);
  return out;
}
}  // namespace

std::vector<std::size_t> matrix_thread_elements(Algo algo, Matrix m, int block, Grid2 grid, int traced, int thread,
                                                std::size_t elem_bytes) {
  std::vector<std::size_t> out;
  const std::size_t b = std::size_t(traced), t = std::size_t(thread);
  const std::size_t bx = std::size_t(matrix_block_x(algo, block, m.cols)), by = std::size_t(block) / bx;
  const std::size_t gx = b % grid.x, gy = b / grid.x, tx = t % bx, ty = t / bx;
  switch (row(algo).indexing) {
    case Indexing::RowPerBlock:
      for (std::size_t c = t; c < m.cols; c += std::size_t(block)) out.push_back(b * m.cols + c);
      break;
    case Indexing::RowChunks: return chunk_elements(algo, m, block, grid, b, t, elem_bytes);
    case Indexing::RowSegments: {  // the groups warp w of the grid takes, in the order its loops load them
      const std::size_t lanes = std::size_t(row_lanes(algo, m.cols, elem_bytes)),
                        per = segment_load_elements(algo, m.cols, elem_bytes);
      const std::size_t per_warp = 32 / lanes, warps = grid.count() * (std::size_t(block) / 32);
      const std::size_t warp = b * (std::size_t(block) / 32) + t / 32, seg = t % 32 % lanes, vecs = m.cols / per;
      const bool one_load = vecs <= lanes;
      const std::size_t rounds = one_load ? std::size_t(kRowLoadsInFlight) : 1;
      for (std::size_t g = warp; g * per_warp < m.rows; g += rounds * warps)
        for (std::size_t u = 0; u < rounds; ++u) {
          const std::size_t r = (g + u * warps) * per_warp + t % 32 / lanes;
          if (r >= m.rows) continue;
          for (std::size_t v = seg; v < vecs; v += lanes)
            for (std::size_t e = 0; e < per; ++e) out.push_back(r * m.cols + v * per + e);
        }
      break;
    }
    case Indexing::RowTile: {  // the copies of each tile (rows b * block on, by grid stride), tile_cols at a time
      const std::size_t w = std::size_t(row_tile_cols(m.cols, block, elem_bytes)), B = std::size_t(block);
      const std::size_t per = row_tile_load_elements(m.cols, block, elem_bytes);
      for (std::size_t r0 = b * B; r0 < m.rows; r0 += grid.count() * B)
        for (std::size_t c0 = 0, rows = std::min(B, m.rows - r0); c0 < m.cols; c0 += w) {
          const std::size_t width = std::min(w, m.cols - c0), count = rows * width, vectors = per > 1 ? count / per : 0;
          for (std::size_t j = t; j < vectors; j += B)  // whole rows: one run from r0's first element
            for (std::size_t e = 0; e < per; ++e) out.push_back(r0 * m.cols + j * per + e);
          for (std::size_t i = vectors * per + t; i < count; i += B)
            out.push_back((r0 + i / width) * m.cols + c0 + i % width);
        }
      break;
    }
    case Indexing::FlatTiles: {  // the matrix's last elements past its last whole vector (of its tile), one a thread
      const std::size_t per = vector_elements(elem_bytes);
      const FlatRun r = flat_run(m.rows, m.cols, grid.count(), b, elem_bytes);
      for (std::size_t e = std::max(flat_copy_end(r, m.size(), per), r.base) + t; e < r.hi; e += std::size_t(block))
        out.push_back(e);
      break;
    }
    case Indexing::ColumnWalk:
      if (b * std::size_t(block) + t < m.cols)
        for (std::size_t r = 0; r < m.rows; ++r) out.push_back(r * m.cols + b * std::size_t(block) + t);
      break;
    case Indexing::ColumnTiles: {
      const std::size_t chunk = column_chunk_rows(m, block, grid.y);
      for (std::size_t r = gy * chunk + ty; r < std::min(m.rows, (gy + 1) * chunk); r += by)
        for (std::size_t col : matrix_thread_columns(algo, block, m.cols, gx, tx, elem_bytes))
          if (col < m.cols) out.push_back(r * m.cols + col);
      break;
    }
    default:
      for (std::size_t y = gy * by + ty; y < m.rows; y += grid.y * by)
        for (std::size_t x = gx * bx + tx; x < m.cols; x += grid.x * bx) out.push_back(y * m.cols + x);
  }
  return out;
}

std::vector<std::size_t> matrix_traced_elements(Algo algo, Matrix m, int block, Grid2 grid, int traced,
                                                std::size_t elem_bytes) {
  std::vector<std::size_t> out;
  if (row(algo).indexing == Indexing::FlatTiles) {  // the block's rows, as its tiles bring them
    const FlatRun r = flat_run(m.rows, m.cols, grid.count(), std::size_t(traced), elem_bytes);
    for (std::size_t e = r.lo; e < r.hi; ++e) out.push_back(e);
    return out;
  }
  for (int t = 0; t < block; ++t) {
    const auto mine = matrix_thread_elements(algo, m, block, grid, traced, t, elem_bytes);
    out.insert(out.end(), mine.begin(), mine.end());
  }
  return out;
}

}  // namespace rl::kernels
