// The warp lanes view: one warp's 32 registers enlarged, values printed, and above them where
// each shuffle's operand came from; a strip of the whole block shows which warp it is.
#pragma once
#include "memory_view.h"
#include "view_parts.h"

namespace rl::render {

// Draws the lanes of warp options.warp (clamped); says how many warps the block has to page.
ViewDrawn draw_lanes(const ViewContext& ctx);

}  // namespace rl::render
