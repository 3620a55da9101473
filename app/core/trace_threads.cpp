// Which threads of a traced block a view highlights: the lane a shuffle reads from, and the
// threads that add up one matrix row (trace.h declares them). They follow the kernels' indexing,
// which the recorded loads show, beside the trace's reading and writing in trace.cpp.
#include "trace.h"

#include <algorithm>

#include "../../kernels/matrix_shapes.h"

namespace rl::core {

int shuffle_source(const Trace& t, int thread, int offset) {
  const int width = t.geometry.segment_lanes > 0 ? t.geometry.segment_lanes : 32;
  if (thread % width + offset >= width || thread + offset >= t.block) return -1;
  return thread + offset;
}

namespace {
// flat-rows: the block whose run holds the row, the tile holding the row's first element, and
// the lanes that tile gives the row (tasks go to threads in turn, `lanes` a row).
std::optional<RowThreads> flat_row_threads(const Trace& t, std::size_t row, std::size_t grid) {
  const std::size_t lanes = std::size_t(t.geometry.segment_lanes);
  const auto run = kernels::flat_run(t.rows, t.cols, grid, std::size_t(t.trace_block), element_bytes(t.type));
  if (row < run.first || row >= run.end || lanes == 0 || t.cols == 0) return std::nullopt;
  const std::size_t tile = kernels::flat_tile_elements(element_bytes(t.type));
  const auto at = kernels::flat_tile(run, t.cols, tile, (row * t.cols - run.base) / tile, int(lanes));
  const std::size_t task = (row - at.first_row) * lanes;
  return RowThreads{int(task % std::size_t(t.block)), int(lanes)};
}
}  // namespace

// The kernels' indexing (kernels/short_rows.cuh), which the recorded loads show: a tile of rows
// is a block's `block` rows in turn, by grid stride; row segments go 32 / k rows a warp, groups of
// them to the grid's warps in turn.
std::optional<RowThreads> row_threads(const Trace& t, std::size_t row) {
  const Geometry& g = t.geometry;
  const std::size_t grid = g.known() ? g.grid_x : t.grid, block = std::size_t(std::max(t.block, 0));
  if (row >= t.rows || grid == 0 || block == 0) return std::nullopt;
  if (g.indexing == kernels::Indexing::RowTile) {
    if ((row / block) % grid != std::size_t(t.trace_block)) return std::nullopt;
    return RowThreads{int(row % block), 1};
  }
  if (g.indexing == kernels::Indexing::FlatTiles) return flat_row_threads(t, row, grid);
  const int k = g.segment_lanes;
  if (k <= 0 || k > 32 || block % 32 != 0) return std::nullopt;
  const std::size_t per_warp = std::size_t(32 / k), warps = block / 32;
  const std::size_t warp = (row / per_warp) % (grid * warps);
  if (warp / warps != std::size_t(t.trace_block)) return std::nullopt;
  return RowThreads{int((warp % warps) * 32 + (row % per_warp) * std::size_t(k)), k};
}

}  // namespace rl::core
