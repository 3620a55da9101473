// The gpus view: an all-reduce across GPUs (kernels/collectives.h), one level up from the grid
// view. GPUs as rows, chunks as cells holding their first values, and arrows for what moved
// over which link in the stage; a cell holding its chunk's whole sum is outlined.
#pragma once
#include "view_parts.h"

namespace rl::render {

// Draws between the frame's caption and legend; the trace must hold a collective.
void draw_gpus(const ViewContext& v);

}  // namespace rl::render
