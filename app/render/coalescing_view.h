// The coalescing view: each warp-wide global load of a stage (core::warp_loads), its lanes'
// elements in the 32-byte sectors they fall in, drawn as boxes along the address line, and
// how many sectors the load touched against the fewest its lanes could have.
#pragma once
#include <vector>

#include "../core/facts.h"
#include "canvas.h"
#include "view_parts.h"

namespace rl::render {

// One 32-byte sector a warp-wide load touched: lane_at[k] is the lane that loaded its k-th
// element (-1: no lane did).
struct SectorBox {
  long long sector = 0;
  std::vector<int> lane_at;
};
struct LoadRow {
  core::WarpLoad load;
  std::vector<SectorBox> sectors;  // in address order
};
// The stage's warp-wide loads, from the recorded addresses only.
std::vector<LoadRow> load_rows(const core::Stage& stage, std::size_t element_bytes);

// Warp-wide loads a page of the view shows (the window pages through the rest).
constexpr int kLoadRowsShown = 8;

// The line above the loads: "warp-wide loads 1-8 of 64; 4 to 32 sectors each" ("of the first 64
// recorded" where some thread loaded more than the trace keeps).
std::string coalescing_note(const core::Trace& t, int stage, int first, int page = kLoadRowsShown);
// Draws a page of the stage's loads from v.options.first_bank_row on: kLoadRowsShown, or fewer
// where that many rows would leave no room for each sector's first element and lanes (presenter
// mode). Returns the sector boxes drawn, row by row (what the tests count), and the page's size.
struct CoalescingDrawn {
  std::vector<Rect> boxes;
  int page = kLoadRowsShown;
};
CoalescingDrawn draw_coalescing(const ViewContext& v);

}  // namespace rl::render
