// The stage views beside the memory view: warp lanes (registers and shuffles), divergence
// (which lanes of each warp worked), banks (the 32 banks of each shared-memory access), and
// the grid (grid_view.h).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "../core/trace.h"
#include "../core/views.h"
#include "canvas.h"
#include "memory_view.h"

namespace rl::render {

// The views are core's registry (core/views.h); render draws them.
using core::View;
using core::kViewCount;
using core::parse_view;
using core::to_string;
using core::why_not;
using core::next_view;

// The rows the banks or coalescing view pages through at this stage (0 for other views), and
// how many a page shows.
int paged_rows(View view, const core::Trace& trace, int stage);
int page_rows(View view);

// Draws one view of a stage into the current target; says whether it enlarged one warp.
ViewDrawn draw_stage_view(Canvas& canvas, View view, const core::Trace& trace, int stage, int width, int height,
                          const ViewOptions& options = {});

}  // namespace rl::render
