// The shared-memory view: the traced block's array after a stage, one row per warp, each
// cell with its value; cells read and written by active threads marked; each thread's
// strip green when it worked and grey when it idled.
#pragma once
#include "../core/trace.h"
#include "canvas.h"

namespace rl::render {

struct ViewOptions {
  bool high_contrast = false;
  // While playing, how far the animation is towards the next stage (0..1): cells that change
  // fade from their colour now to their colour then.
  float blend = 0;
  // Text size against the default (presenter mode: larger, for the back of the room).
  float text_scale = 1;
  // The banks view shows kBankRowsShown warp-wide accesses from this one on (the window pages).
  int first_bank_row = 0;
};
constexpr int kBankRowsShown = 16;

void draw_memory_view(Canvas& canvas, const core::Trace& trace, int stage, int width, int height,
                      const ViewOptions& options = {});

}  // namespace rl::render
