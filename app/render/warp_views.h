// The stage views beside the memory view: warp lanes (registers and shuffles), divergence
// (which lanes of each warp worked), banks (the 32 banks of each shared-memory access), and
// the grid (grid_view.h).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "../core/trace.h"
#include "canvas.h"
#include "memory_view.h"

namespace rl::render {

enum class View { Memory, Lanes, Divergence, Banks, Grid, Coalescing };
constexpr int kViewCount = 6;
constexpr View kViews[] = {View::Memory, View::Lanes, View::Divergence, View::Banks, View::Grid, View::Coalescing};

// "memory", "lanes", "divergence", "banks", "grid", "coalescing"
std::optional<View> parse_view(std::string_view name);
const char* to_string(View view);
// Why a view has nothing to show for this trace ("" when it applies): the lanes view needs
// recorded registers, the banks view shared-memory accesses, the coalescing view global loads.
std::string why_not(View view, const core::Trace& trace);
// The next view after `view` that applies (V cycles through these).
View next_view(View view, const core::Trace* trace);

// The rows the banks or coalescing view pages through at this stage (0 for other views), and
// how many a page shows.
int paged_rows(View view, const core::Trace& trace, int stage);
int page_rows(View view);

// Draws one view of a stage into the current target; says whether it enlarged one warp.
ViewDrawn draw_stage_view(Canvas& canvas, View view, const core::Trace& trace, int stage, int width, int height,
                          const ViewOptions& options = {});

}  // namespace rl::render
