// The shared-memory view: the traced block's array after a stage, one row per warp, each
// cell with its value; cells read and written by active threads marked; each thread's
// strip green when it worked and grey when it idled.
#pragma once
#include <optional>

#include "../core/trace.h"
#include "canvas.h"
#include "matrix_view.h"
#include "view_parts.h"

namespace rl::render {

// The window's minimum text size in its views: 18 px in presenter mode and kMinTextPx otherwise
// at 1600x900, times `scale` (the window's size past 1600x900 and the user's zoom).
float min_text_px(bool presenter, float scale);
// Presenter mode's text against the normal layout's.
constexpr float kPresenterTextScale = 1.5f;

// What a view drew: `warps` > 0 when it enlarged warp `warp` of that many (a block too wide
// to read), 0 when it showed the whole block; `cols` cells a row (render::layout_warp, or
// render::layout_memory's `cols` for the whole block; 0 from views without rows of cells).
struct ViewDrawn {
  int warps = 0, warp = 0, cols = 0;
  int parts = 1, part = 0;  // the enlarged warp is shown in `parts` parts; this is `part`
  int page = 0;  // the banks or coalescing view: rows a page shows at this size (0: the default)
};

// Where the memory view puts a matrix trace's window of the matrix (tests find its cells with
// it); nullopt for an array trace.
std::optional<MatrixLayout> matrix_view_layout(Canvas& canvas, const core::Trace& trace, int stage, int width, int height,
                                               const ViewOptions& options = {});

ViewDrawn draw_memory_view(Canvas& canvas, const core::Trace& trace, int stage, int width, int height,
                           const ViewOptions& options = {});

}  // namespace rl::render
