// The one place a run's launch is decided (kernels/plan.h), over the rules of shapes.cpp and
// matrix_shapes.cpp.
#include "../plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace rl::kernels {
namespace {

// Passes over the data (Plan::pass_count): every pass; or the first and the fold of its partials
// (a second kernel, the last block, block 0 after grid.sync()); or one.
int array_pass_count(const Plan& p) {
  switch (p.row->combine) {
    case Combine::Passes: return int(p.passes.size());
    case Combine::SecondKernel:
    case Combine::LastBlock:
    case Combine::GridSync: return 2;
    default: return 1;
  }
}

void plan_array(Plan& p, DeviceShape device, bool traced) {
  const Algo algo = p.algo();
  const std::size_t n = p.size();
  if (p.shape.rows != 1)
    throw std::invalid_argument(std::string(p.row->id) + " reduces an array: it takes a size, not rows and columns");
  if (n == 0) throw std::invalid_argument("size must be at least 1");
  std::size_t grid = p.asked_grid ? p.asked_grid : first_pass_grid(algo, n, p.block, device, p.cluster);
  if (p.row->combine == Combine::GridSync && !p.asked_grid)  // co-residency: one full wave at most
    grid = std::min(grid, std::size_t(std::max(1, device.threads_per_sm / p.block)) * std::size_t(device.sm_count));
  check_launch(algo, n, {p.block, grid, p.trace_block, nullptr, p.cluster}, traced);
  p.grid = {grid, 1};
  p.block_x = p.block;
  if (p.row->combine == Combine::Passes)
    p.passes = pass_plan(algo, n, p.block, p.cluster);
  else
    p.passes = {{n, grid, grid * std::size_t(p.outputs_per_block()) / std::size_t(std::max(p.cluster, 1))}};
  p.pass_count = array_pass_count(p);
}

// The output the traced block's first value lands in (a matrix's row or column).
std::size_t traced_output(const Plan& p) {
  const std::size_t b = std::size_t(p.trace_block), B = std::size_t(p.block), cols = p.shape.cols;
  switch (p.row->indexing) {
    case Indexing::RowPerBlock: return b;
    case Indexing::RowChunks: return b / p.grid.x;
    case Indexing::ColumnTiles: return std::min(cols - 1, (b % p.grid.x) * matrix_tile_cols(p.algo(), p.block, cols));
    case Indexing::ColumnWalk: return std::min(cols - 1, b * B);
    case Indexing::RowTile: return b * B;  // the first row of the block's first tile
    case Indexing::RowSegments: return b * (B / 32) * std::size_t(32 / p.lanes);  // its first warp's first row
    case Indexing::FlatTiles:
      return flat_run(p.shape.rows, cols, p.grid.count(), b, p.elem_bytes).first;  // its first row
    default: return 0;
  }
}

void plan_matrix(Plan& p, DeviceShape device, bool traced) {
  const Algo algo = p.algo();
  const Launch asked{p.block, p.asked_grid, p.trace_block, nullptr, p.cluster};
  p.grid = check_matrix_launch(algo, p.shape, asked, device, traced, p.elem_bytes);
  p.block_x = matrix_block_x(algo, p.block, p.shape.cols);
  p.block_y = p.block / p.block_x;
  const bool second = matrix_second_pass(algo, p.grid);
  p.pass_count = second ? 2 : 1;
  p.outputs = matrix_outputs(algo, p.shape);
  p.passes = {{p.size(), p.grid.count(), matrix_partials(algo, p.shape, p.grid)}};
  if (p.row->indexing == Indexing::RowSegments) p.lanes = row_lanes(algo, p.shape.cols, p.elem_bytes);
  if (p.row->indexing == Indexing::RowTile) p.tile_cols = row_tile_cols(p.shape.cols, p.block, p.elem_bytes);
  if (p.row->indexing == Indexing::FlatTiles) p.lanes = flat_row_lanes(p.shape.cols);
  p.traced_output = traced_output(p);
}

}  // namespace

Launch Plan::launch() const {
  const bool at_launch = row->combine == Combine::GridSync;
  return {block, at_launch ? asked_grid : grid.count(), trace_block, tickets, cluster};
}

Plan make_plan(Algo algo, Matrix shape, const Launch& asked, DeviceShape device, std::size_t elem_bytes, bool traced) {
  Plan p;
  p.row = &row(algo);
  p.shape = shape;
  p.elem_bytes = elem_bytes;
  p.block = asked.block;
  p.trace_block = asked.trace_block;
  p.asked_grid = asked.grid;
  p.tickets = asked.tickets;
  p.cluster = cluster_blocks(algo, asked.cluster);
  if (p.matrix())
    plan_matrix(p, device, traced);
  else
    plan_array(p, device, traced);
  return p;
}

Plan recorded_plan(Algo algo, Matrix shape, int block, std::size_t grid, int trace_block, std::size_t elem_bytes,
                   int cluster) {
  // A recorded grid maps back to itself on any device (Matrix.BatchedRowsSplitChunksAreAlignedAndMapBack).
  Plan p = make_plan(algo, shape, {block, grid, trace_block, nullptr, cluster}, DeviceShape(1), elem_bytes, false);
  if (p.grid.count() != grid)
    throw std::invalid_argument("a grid of " + std::to_string(grid) + " blocks is not one " + std::string(p.row->id) +
                                " lays out over " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols));
  return p;
}

std::vector<std::size_t> traced_elements(const Plan& plan, const std::vector<int>& tickets) {
  if (plan.matrix())
    return matrix_traced_elements(plan.algo(), plan.shape, plan.block, plan.grid, plan.trace_block, plan.elem_bytes);
  return traced_elements(plan.algo(), plan.size(), plan.block, plan.grid.x, plan.trace_block, plan.per_vector(),
                         tickets);
}

}  // namespace rl::kernels
