#include "geometry.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "../../kernels/algorithms.h"
#include "../core/text.h"

namespace rl::backend {
namespace {

using kernels::Indexing;

// How many of first, first + stride, ... lie below limit.
std::size_t count(std::size_t first, std::size_t limit, std::size_t stride) {
  return first < limit ? (limit - 1 - first) / stride + 1 : 0;
}

// A fold of e elements in a applications (the first onto the identity only copies).
core::ThreadFold fold(std::size_t elements, std::size_t applications) {
  return {elements, applications ? applications - 1 : 0, 1};
}

struct ArrayRun {
  std::size_t n, b, grid, k, per;  // elements, block, grid, traced block, elements a 16-byte vector
};

// A block's tile of every grid-wide stride (cg's grid-stride loop).
std::vector<core::ThreadFold> strided(const ArrayRun& r) {
  std::vector<core::ThreadFold> out(r.b);
  for (std::size_t i = 0; i < r.b; ++i) {
    const std::size_t e = count(r.k * r.b + i, r.n, r.grid * r.b);
    out[i] = fold(e, e);
  }
  return out;
}

// Pairs a block apart, every stride of grid x 2B: two applications a pair (a missing second
// is the identity).
std::vector<core::ThreadFold> pairs(const ArrayRun& r) {
  const std::size_t stride = r.grid * 2 * r.b, first = r.k * 2 * r.b;
  std::vector<core::ThreadFold> out(r.b);
  for (std::size_t i = 0; i < r.b; ++i) {
    const std::size_t pair_count = count(first + i, r.n, stride);
    out[i] = fold(pair_count + count(first + i + r.b, r.n, stride), 2 * pair_count);
  }
  return out;
}

// vector_count[i] whole vectors for thread i, then the scalar tail by grid stride.
std::vector<core::ThreadFold> vectors(const ArrayRun& r, const std::vector<std::size_t>& vector_count) {
  std::vector<core::ThreadFold> out(vector_count.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t tail = count(r.per * (r.n / r.per) + r.k * r.b + i, r.n, r.grid * r.b);
    const std::size_t e = r.per * vector_count[i] + tail;
    out[i] = fold(e, e);
  }
  return out;
}

std::vector<core::ThreadFold> vectorized(const ArrayRun& r) {
  std::vector<std::size_t> v(r.b);
  for (std::size_t i = 0; i < r.b; ++i) v[i] = count(r.k * r.b + i, r.n / r.per, r.grid * r.b);
  return vectors(r, v);
}

// The vectors of every ticket the block took, then the scalar tail; none when the record of
// tickets was cut short.
std::vector<core::ThreadFold> queue(const ArrayRun& r, const std::vector<int>& tickets) {
  const std::size_t vecs = r.n / r.per, chunk = std::size_t(kernels::kQueueVectors) * r.b;
  if (tickets.size() != (vecs + chunk - 1) / chunk) return {};
  std::vector<std::size_t> v(r.b);
  for (std::size_t c = 0; c < tickets.size(); ++c)
    if (std::size_t(tickets[c]) == r.k)
      for (std::size_t i = 0; i < r.b; ++i) v[i] += count(c * chunk + i, std::min(vecs, (c + 1) * chunk), r.b);
  return vectors(r, v);
}

int array_passes(kernels::Algo algo, std::size_t n, int block, std::size_t grid, int cluster) {
  switch (kernels::row(algo).combine) {
    case kernels::Combine::Passes: return int(kernels::pass_outputs(algo, n, block, grid, cluster).size());
    case kernels::Combine::SecondKernel:
    case kernels::Combine::LastBlock:
    case kernels::Combine::GridSync: return 2;
    default: return 1;
  }
}

// thread-per-row: the tile, and each thread's fold over the rows it adds (one a tile of rows,
// its whole row), not the elements it copies for the others.
core::Geometry row_tile_geometry(core::Geometry g, kernels::Matrix m, int block, kernels::Grid2 grid, int traced,
                                 std::size_t elem_bytes) {
  g.tile_cols = kernels::row_tile_cols(m.cols, block, elem_bytes);
  g.tile_pitch = kernels::row_tile_pitch(g.tile_cols);
  const std::size_t B = std::size_t(block);
  for (std::size_t t = 0; t < B; ++t) {
    const std::size_t rows = count(std::size_t(traced) * B + t, m.rows, grid.count() * B);
    g.folds.push_back({rows * m.cols, rows * (m.cols - 1), 1});
  }
  return g;
}

}  // namespace

core::Geometry array_geometry(kernels::Algo algo, std::size_t n, int block, std::size_t grid, int traced,
                              std::size_t elem_bytes, const std::vector<int>& tickets, int cluster) {
  core::Geometry g;
  g.grid_x = grid, g.block_x = block;
  g.indexing = kernels::row(algo).indexing;
  g.tree = kernels::row(algo).tree;
  g.cluster = cluster > 1 ? cluster : 0;
  g.passes = array_passes(algo, n, block, grid, cluster);
  const ArrayRun r{n, std::size_t(block), grid, std::size_t(traced), kernels::vector_elements(elem_bytes)};
  switch (g.indexing) {
    case Indexing::GridStride: g.folds = strided(r); break;
    case Indexing::GridStridePairs: g.folds = pairs(r); break;
    case Indexing::Vectors: g.folds = vectorized(r); break;
    case Indexing::Tickets: g.folds = queue(r, tickets); break;
    default: break;  // one element, or one pair, a thread
  }
  return g;
}

core::Geometry matrix_geometry(kernels::Algo algo, kernels::Matrix m, int block, kernels::Grid2 grid, int traced,
                               std::size_t elem_bytes) {
  core::Geometry g;
  g.grid_x = grid.x, g.grid_y = grid.y;
  g.block_x = kernels::matrix_block_x(algo, block, m.cols), g.block_y = block / g.block_x;
  g.indexing = kernels::row(algo).indexing;
  g.tree = kernels::row(algo).tree;
  g.thread_cols = kernels::matrix_thread_cols(algo);
  if (kernels::row(algo).indexing == kernels::Indexing::RowSegments)
    g.segment_lanes = kernels::row_lanes(algo, m.cols, elem_bytes);
  g.passes = kernels::matrix_second_pass(algo, grid) ? 2 : 1;
  if (g.indexing == Indexing::RowTile) return row_tile_geometry(g, m, block, grid, traced, elem_bytes);
  const bool columns = kernels::is_column_sums(algo);
  const std::size_t tile = std::size_t(traced) % grid.x;
  for (int t = 0; t < block; ++t) {
    const auto elements = kernels::matrix_thread_elements(algo, m, block, grid, traced, t, elem_bytes);
    std::set<std::size_t> sums;  // the values the thread's fold keeps: a column each, or one
    for (std::size_t e : elements) sums.insert(g.thread_cols > 1 ? e % m.cols : 0);
    std::size_t held = 1;
    if (columns) {  // a lane past the last column holds padding no result takes
      held = 0;
      for (std::size_t c : kernels::matrix_thread_columns(algo, block, m.cols, tile, std::size_t(t % g.block_x), elem_bytes))
        held += c < m.cols;
    }
    g.folds.push_back({elements.size(), elements.size() - sums.size(), held});
  }
  return g;
}

void complete_geometry(core::Trace& t) {
  if (t.geometry.known()) return;
  const auto* row = kernels::find_row(t.algorithm);
  if (!row || kernels::is_baseline(*row))
    throw std::runtime_error("the trace of '" + core::printable(t.algorithm) +
                             "' was recorded without its layout (grid, block, indexing), and this build has no such "
                             "kernel to take it from");
  const std::size_t bytes = core::element_bytes(t.type);
  if (t.rows == 0) {
    t.geometry = array_geometry(row->algo, t.size, t.block, t.grid, t.trace_block, bytes, t.tickets);
    return;
  }
  const kernels::Matrix m{t.rows, t.cols};
  const auto grid = kernels::matrix_grid(row->algo, m, t.block, t.grid, kernels::DeviceShape(1), bytes);
  if (grid.count() != t.grid)
    throw std::runtime_error("the trace of '" + core::printable(t.algorithm) + "' records a grid of " + std::to_string(t.grid) +
                             " blocks, which its kernel does not lay out over " + std::to_string(t.rows) + " x " +
                             std::to_string(t.cols));
  t.geometry = matrix_geometry(row->algo, m, t.block, grid, t.trace_block, bytes);
}

}  // namespace rl::backend
