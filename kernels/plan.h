// One run's launch, decided once from its catalog row and its request: the launchers launch it,
// the CPU model models it, the trace records it as its geometry and the panel previews it
// (implemented in kernels/model/plan.cpp). An array of n elements is a 1 x n problem.
#pragma once
#include <cstddef>
#include <vector>

#include "algorithms.h"
#include "matrix_shapes.h"
#include "shapes.h"

namespace rl::kernels {

struct Plan {
  const AlgorithmRow* row = nullptr;
  Matrix shape;                // rows x cols, row-major; an array's is 1 x n
  std::size_t elem_bytes = 4;  // the input element's: what one 16-byte load holds
  int block = 0;               // threads a block: block_x along x, block_y along y
  int block_x = 0, block_y = 1;
  Grid2 grid;                                 // the first pass's blocks
  int cluster = 1;                            // blocks a cluster (1: the kernel launches none)
  int trace_block = 0;                        // the block a traced run records (numbered x fastest)
  std::size_t asked_grid = 0;                 // the request's grid (0: none asked)
  const std::vector<int>* tickets = nullptr;  // work-queue: the recorded hand-out the model replays
  std::vector<Pass> passes;  // the first pass; combined in passes, every later launch over partials too
  // Passes over the data: each pass; or the first and the fold of its partials (by a second
  // kernel, the last block, or block 0 after grid.sync(), in the same launch); or one.
  int pass_count = 1;
  std::size_t outputs = 1;                    // values a run leaves: 1, or one a row or a column
  int lanes = 0;                              // row segments: lanes a row
  int tile_cols = 0;                          // thread-per-row: columns a tile of rows holds
  std::size_t traced_output = 0;              // the output the traced block's first value lands in

  Algo algo() const { return row->algo; }
  bool matrix() const { return row->shape == Shape::Matrix; }
  std::size_t size() const { return shape.size(); }
  std::size_t per_vector() const { return vector_elements(elem_bytes); }
  // The first pass's partials a block leaves: one, or one a warp (cg-warp).
  int outputs_per_block() const { return kernels::outputs_per_block(algo(), block); }
  // The launch the launchers take: the plan's grid, or the asked one where the GPU settles the
  // grid at launch (cg-grid-sync: occupancy caps it).
  Launch launch() const;
};

// The plan of `algo` over `shape` (an array: 1 x n) for a device; throws std::invalid_argument
// naming what the kernel cannot take (check_launch, check_matrix_launch). traced: the run records
// asked.trace_block, which must lie in the grid.
Plan make_plan(Algo algo, Matrix shape, const Launch& asked, DeviceShape device, std::size_t elem_bytes, bool traced);
// The plan a run carried out: `grid` blocks in its first pass, as its trace recorded them.
Plan recorded_plan(Algo algo, Matrix shape, int block, std::size_t grid, int trace_block, std::size_t elem_bytes,
                   int cluster = 0);

// Indices (row * cols + col) of the elements the traced block of the first pass reads, in the
// order its threads load them (traced_elements, matrix_traced_elements); tickets: work-queue's
// record of which block took each ticket.
std::vector<std::size_t> traced_elements(const Plan& plan, const std::vector<int>& tickets);

}  // namespace rl::kernels
