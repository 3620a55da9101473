// The grid view: every block's first-pass result as the run recorded it, and how the
// algorithm combines them (more launches, a second kernel, atomics, a retirement counter,
// grid sync) down to the result.
#pragma once
#include "../core/trace.h"
#include "canvas.h"
#include "layout.h"
#include "view_parts.h"

namespace rl::render {

// The caption under the view's title: the blocks, and how their results combine ("16 blocks; a
// second launch of one block reduces their results").
std::string grid_how(const core::Trace& trace);

// Draws between begin() and end() of the canvas; v.L gives the frame's title, caption and footer.
// No text is smaller than v.min_px: fewer first-pass results are drawn where theirs would be.
void draw_grid(const ViewContext& v);

}  // namespace rl::render
