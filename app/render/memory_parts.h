// What the memory view (memory_view.cpp) and its choice of layout (memory_layout.cpp) share: the
// array a stage shows, the texts its cells print at one size, and the lanes its arrows keep.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "../core/trace.h"
#include "canvas.h"
#include "layout.h"
#include "view_parts.h"

namespace rl::render::memory_parts {

// What a stage shows: its shared (or global) array, or else the threads' registers.
struct Shown {
  const std::vector<double>* values = nullptr;
  std::string what;
  bool per_thread = false;                          // cell i is thread i's (bands and padding apply)
  std::shared_ptr<const std::vector<double>> kept;  // values made for the view (the tile in flight)
};

Shown shown_array(const core::Trace& t, const core::Stage& s);

constexpr int kMaxCells = 1024;  // larger arrays (global-halving) show their start
// The cells the view draws of a stage: its array, or its registers, up to kMaxCells.
int shown_count(const Shown& shown);

// An access arrow's line width in cells of this layout.
float arrow_line(const MemoryLayout& L);

// The margin an arrow's lane needs beside a cell's frame mark: the line and a pixel clear of
// the digits (a seed had the line's edge on the first digit, issue 47).
float lane_margin(const MemoryLayout& L, float mark);

// The value texts of cells lo..hi-1, and one text size for them all: the largest at which the
// widest fits its cell; floats with three significant digits, or two where three would fall
// below min_px (as the lanes view does).
struct CellTexts {
  std::vector<std::string> texts;  // from cell lo on
  float px = 0;
  float widest = 0;  // the widest text's width at px
};

CellTexts cell_texts(Canvas& c, const MemoryLayout& L, const Shown& shown, core::DType type, int lo, int hi,
                     float min_px, bool lanes = false);

// Where arrows run clear of the values drawn in the cells, as offsets from a cell's corner: a
// column in each cell's left margin (tree arrows) and one in its right margin (shuffles), a row
// in its top and one in its bottom margin. A cell whose text leaves no side margin has its
// arrows in the gaps beside it; with no gap either, the middle, where an arrow crosses the digits.
struct Lanes {
  float left = 0, right = 0, top = 0, bottom = 0;
  float head = 0;  // an arrowhead's length: its strokes spread 0.6 of it to each side
};

// Values drawn small enough to leave each side of a cell a lane for the arrows, where they stay
// readable at that size: floats and halves at 32 threads filled their cells, and tree arrows
// crossed their digits (issue 47). Every stage keeps the same size, arrows or not.
CellTexts leave_room_for_arrows(CellTexts text, const MemoryLayout& L, float min_px, float mark);

// Where the arrows run in cells of this layout, beside values drawn at `text`.
Lanes arrow_lanes(const MemoryLayout& L, const CellTexts& text, bool values, float min_px, float mark);

// The whole block's layout where its values are readable; else fewer cells a row, each larger
// (a block of one warp), or one warp enlarged, or half or a quarter of it: values are drawn
// larger, never dropped, wherever some layout has room for them (issue 32, item 5). Of the row
// widths at one extent, one whose values leave the arrows a lane each side comes first: floats
// that fill their cells at the minimum size had the tree's arrows across their digits (issue 47).
MemoryLayout choose_layout(Canvas& c, const Shown& shown, core::DType type, int count, int width, int height,
                           const ViewOptions& o, float reserve);
// A matrix trace: the pixels under the caption its window of the matrix takes (0 for an array):
// as many as leave the shared cells readable, the whole block where it can stay whole.
float matrix_space(Canvas& c, const core::Trace& t, const Shown& shown, int count, int width, int height,
                   const ViewOptions& o);

}  // namespace rl::render::memory_parts
