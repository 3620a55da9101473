#include "geometry.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "../../kernels/algorithms.h"
#include "../../kernels/matrix_shapes.h"
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

// thread-per-row: the tile, and each thread's fold over the rows it adds (one a tile of rows,
// its whole row), not the elements it copies for the others.
core::Geometry row_tile_geometry(core::Geometry g, const kernels::Plan& plan) {
  const kernels::Matrix m = plan.shape;
  g.tile_cols = plan.tile_cols;
  g.tile_pitch = kernels::row_tile_pitch(g.tile_cols);
  const std::size_t B = std::size_t(plan.block);
  for (std::size_t t = 0; t < B; ++t) {
    const std::size_t rows = count(std::size_t(plan.trace_block) * B + t, m.rows, plan.grid.count() * B);
    g.folds.push_back({rows * m.cols, rows * (m.cols - 1), 1});
  }
  return g;
}

// flat-rows: each thread's pieces of rows, tile by tile (tasks t, t + block, ... of each tile's
// rows x lanes), `lanes` cells apart; a piece's first element starts its fold.
core::Geometry flat_geometry(core::Geometry g, const kernels::Plan& plan) {
  const kernels::Matrix m = plan.shape;
  const std::size_t tile = kernels::flat_tile_elements(plan.elem_bytes);
  const kernels::FlatRun run =
      kernels::flat_run(m.rows, m.cols, plan.grid.count(), std::size_t(plan.trace_block), plan.elem_bytes);
  const std::size_t lanes = std::size_t(plan.lanes), B = std::size_t(plan.block);
  g.folds.assign(B, {0, 0, 1});
  for (std::size_t k = 0; k * tile < run.hi - run.base; ++k) {
    const kernels::FlatTile at = kernels::flat_tile(run, m.cols, tile, k, plan.lanes);
    const std::size_t from = at.t0 + std::size_t(at.from), to = at.t0 + std::size_t(at.to);
    for (std::size_t task = 0; task < std::size_t(at.tasks); ++task) {
      const std::size_t r = at.first_row + task / lanes, a = std::max(r * m.cols, from),
                        z = std::min((r + 1) * m.cols, to);
      const std::size_t e = count(a + task % lanes, z, lanes);
      core::ThreadFold& f = g.folds[task % B];
      f.elements += e, f.additions += e ? e - 1 : 0;
    }
  }
  return g;
}

// What each thread of the traced block folds, for the array kernels.
std::vector<core::ThreadFold> array_folds(const kernels::Plan& plan, const std::vector<int>& tickets) {
  const ArrayRun r{plan.size(), std::size_t(plan.block), plan.grid.x, std::size_t(plan.trace_block), plan.per_vector()};
  switch (plan.row->indexing) {
    case Indexing::GridStride: return strided(r);
    case Indexing::GridStridePairs: return pairs(r);
    case Indexing::Vectors: return vectorized(r);
    case Indexing::Tickets: return queue(r, tickets);
    default: return {};  // one element, or one pair, a thread
  }
}

// The same for the matrix kernels: each thread's elements, and the sums it keeps.
std::vector<core::ThreadFold> matrix_folds(const core::Geometry& g, const kernels::Plan& plan) {
  const kernels::Algo algo = plan.algo();
  const kernels::Matrix m = plan.shape;
  const bool columns = plan.row->indexing == Indexing::ColumnTiles;
  const std::size_t tile = std::size_t(plan.trace_block) % plan.grid.x;
  std::vector<core::ThreadFold> folds;
  for (int t = 0; t < plan.block; ++t) {
    const auto elements =
        kernels::matrix_thread_elements(algo, m, plan.block, plan.grid, plan.trace_block, t, plan.elem_bytes);
    std::set<std::size_t> sums;  // the values the thread's fold keeps: a column each, or one
    for (std::size_t e : elements) sums.insert(g.thread_cols > 1 ? e % m.cols : 0);
    std::size_t held = 1;
    if (columns) {  // a lane past the last column holds padding no result takes
      held = 0;
      for (std::size_t c :
           kernels::matrix_thread_columns(algo, plan.block, m.cols, tile, std::size_t(t % g.block_x), plan.elem_bytes))
        held += c < m.cols;
    }
    folds.push_back({elements.size(), elements.size() - sums.size(), held});
  }
  return folds;
}

}  // namespace

core::Geometry geometry(const kernels::Plan& plan, const std::vector<int>& tickets) {
  core::Geometry g;
  g.grid_x = plan.grid.x, g.block_x = plan.block_x;
  g.indexing = plan.row->indexing;
  g.tree = plan.row->tree;
  g.passes = plan.pass_count;
  if (!plan.matrix()) {
    g.cluster = plan.cluster > 1 ? plan.cluster : 0;
    g.folds = array_folds(plan, tickets);
    return g;
  }
  g.grid_y = plan.grid.y, g.block_y = plan.block_y;
  g.thread_cols = kernels::matrix_thread_cols(plan.algo());
  g.segment_lanes = plan.lanes;
  if (g.indexing == Indexing::RowTile) return row_tile_geometry(g, plan);
  if (g.indexing == Indexing::FlatTiles) return flat_geometry(g, plan);
  g.folds = matrix_folds(g, plan);
  return g;
}

void complete_geometry(core::Trace& t) {
  if (t.geometry.known() || t.collective) return;  // an all-reduce across GPUs has no block to lay out
  const auto* row = kernels::find_row(t.algorithm);
  if (!row || kernels::is_baseline(*row))
    throw std::runtime_error("the trace of '" + core::printable(t.algorithm) +
                             "' was recorded without its layout (grid, block, indexing), and this build has no such "
                             "kernel to take it from");
  const kernels::Matrix shape = t.rows == 0 ? kernels::Matrix{1, t.size} : kernels::Matrix{t.rows, t.cols};
  try {
    const kernels::Plan plan =
        kernels::recorded_plan(row->algo, shape, t.block, t.grid, t.trace_block, core::element_bytes(t.type));
    t.geometry = geometry(plan, t.tickets);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error("the trace of '" + core::printable(t.algorithm) +
                             "' records a layout its kernel cannot have: " + core::printable(e.what()));
  }
}

}  // namespace rl::backend
