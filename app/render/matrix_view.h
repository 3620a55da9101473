// The memory view's upper part for a matrix trace: the window of the matrix around the traced
// block as a grid, rows and columns labelled with their indices, the cells the block reads in
// colour, the cells loaded in the stage framed, and the output vector its results land in.
// Everything shown comes from the trace (window, loads, outputs, partials).
#pragma once
#include <string>
#include <vector>

#include "../../kernels/raw_trace.h"
#include "../../kernels/matrix_shapes.h"
#include "../core/trace.h"
#include "canvas.h"
#include "view_parts.h"

namespace rl::render {

// What one block of the algorithm leaves: a row's result, its columns' results, or one partial
// (from the trace's geometry; Whole for a flat array).
using MatrixLines = kernels::Lines;
MatrixLines matrix_lines(const core::Trace& t);

// One output cell: its label ("out[17]"), its value, and whether the traced block writes it.
struct OutputCell {
  std::size_t index = 0;
  double value = 0;
  bool own = false;
  bool known = true;  // false past what the trace kept (kernels::kMaxPartials)
};
// A named row (or, for Rows, column) of output cells beside or under the window.
struct OutputLine {
  std::string name;  // "column sums", "partials of chunk 2"
  std::vector<OutputCell> cells;  // Columns: one per window column; Rows: one per window row; Whole: one
};
std::vector<OutputLine> output_lines(const core::Trace& t);

struct MatrixLayout {
  MatrixLines kind = MatrixLines::Whole;
  Rect heading;       // "matrix 33 x 257: rows 0-15, columns 96-127 shown"
  Rect grid;          // the window's cells
  float cell_w = 0, cell_h = 0, gap = 0;
  float label_px = 0;  // row and column labels
  int row_step = 1, col_step = 1;  // every how many rows and columns carry a label
  Rect outputs;        // the output lines: right of the grid (Rows) or under it
  float out_w = 0;     // Rows and Whole: the width of an output cell
  float name_w = 0;    // Whole: the width of an output's name, left of its cell
  Rect summary;        // "block 3 writes out[17] = 1234"
  Rect shared_heading; // "block 3's shared memory", above the shared cells
  // The window's rows drawn: all of them, or where cells would be too low to read, as many as
  // fit from the block's first row on.
  int first_row = 0, rows = 0;
  Rect cell(int r, int c) const;  // window-relative row (first_row <= r < first_row + rows) and column
  Rect row_label(int r) const;
  bool shows_row(int r) const { return r >= first_row && r < first_row + rows; }
  Rect col_label(int c) const;
  Rect output(int line, int i) const;  // output line `line`, cell i
};

// The matrix part of the memory view in `area` (the top of the free area).
MatrixLayout layout_matrix(Canvas& c, const core::Trace& t, const Rect& area, float label_px, float min_px);
// The least height layout_matrix needs, `width` wide, for its headings, one row of cells
// readable at min_px and the output lines under it: the memory view gives it no less.
float matrix_min_height(const core::Trace& t, float width, float label_px, float min_px);
// Draws it for v.stage in L (v.L is the memory view's frame around it); returns the legend
// entries it needs.
std::vector<LegendEntry> draw_matrix(const ViewContext& v, const MatrixLayout& L);

}  // namespace rl::render
