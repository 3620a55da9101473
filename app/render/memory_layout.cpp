// The memory view's layout: which cells, how many a row and how large, so that values print at
// the minimum size or larger; and the array a stage shows.
#include <algorithm>
#include <initializer_list>
#include <optional>

#include "../../kernels/stage_tags.h"
#include "matrix_view.h"
#include "memory_parts.h"

namespace rl::render::memory_parts {
namespace {

// A bulk copy's stage: the tile in global memory that the copy brings, its first `param` bytes of
// the block's elements (the trace's input holds the block's tiles in order).
Shown tile_in_flight(const core::Trace& t, const core::Stage& s) {
  const std::size_t cells = std::min(std::size_t(s.param) / core::element_bytes(t.type), t.input.size());
  if (cells == 0) return {};
  Shown out;
  out.kept = std::make_shared<const std::vector<double>>(t.input.begin(), t.input.begin() + std::ptrdiff_t(cells));
  out.values = out.kept.get();
  out.what = "global memory: the tile on its way (the mbarrier expects " + std::to_string(s.param) + " bytes)";
  return out;
}

// Whether the shared cells, laid out below `reserve`, show their values at the minimum size:
// the whole block (`whole`), or at least one warp enlarged.
bool readable(Canvas& c, const Shown& shown, core::DType type, int count, int width, int height, const ViewOptions& o,
              float reserve, bool whole) {
  if (!shown.values) return true;
  const MemoryLayout L = whole ? layout_memory(count, width, height, o.text_scale, o.min_text_px, reserve)
                               : choose_layout(c, shown, type, count, width, height, o, reserve);
  return cell_texts(c, L, shown, type, L.first, L.first + L.block, o.min_text_px).px >= o.min_text_px;
}

}  // namespace

Shown shown_array(const core::Trace& t, const core::Stage& s) {
  if (s.tag == kernels::kTagBulkCopy && !s.shared) return tile_in_flight(t, s);
  if (s.shared) {
    const bool global = t.memory == core::Memory::Global;
    return {&*s.shared,
            global ? "global array (live part)" : "shared memory",
            global || int(s.shared->size()) == t.block,
            {}};
  }
  if (s.lanes) return {&*s.lanes, "registers, one per thread", true, {}};
  return {};
}

// The cells the view draws of a stage: its array, or its registers, up to kMaxCells.
int shown_count(const Shown& shown) {
  return std::max(1, std::min(shown.values ? int(shown.values->size()) : 0, kMaxCells));
}

// An access arrow's line width in cells of this layout.
float arrow_line(const MemoryLayout& L) { return std::max(1.5f, std::min(L.cell_w, L.cell_h) * 0.06f); }

// The margin an arrow's lane needs beside a cell's frame mark: the line and a pixel clear of
// the digits (a seed had the line's edge on the first digit, issue 47).
float lane_margin(const MemoryLayout& L, float mark) { return mark + arrow_line(L) + 2; }

CellTexts cell_texts(Canvas& c, const MemoryLayout& L, const Shown& shown, core::DType type, int lo, int hi,
                     float min_px, bool lanes) {
  const float mark = std::max(1.5f, std::min(L.cell_w, L.cell_h) * 0.09f);
  const float probe_px = 20;
  CellTexts out;
  for (int digits : {3, 2}) {
    out = {std::vector<std::string>(std::size_t(hi - lo)), 0, 0};
    float widest = 0;
    for (int i = lo; i < hi && shown.values; ++i) {
      out.texts[std::size_t(i - lo)] = short_value((*shown.values)[i], type, digits);
      widest = std::max(widest, c.text_width(out.texts[std::size_t(i - lo)], probe_px));
    }
    out.px = std::min(L.cell_h * 0.6f, L.cell_w * 0.45f);
    // Drawn (`lanes`), the widest leaves each side a lane for the arrows, floats falling back to
    // two digits first; choosing a layout, it need only clear the cell's frame.
    const float room = lanes ? L.cell_w - 2 * lane_margin(L, mark) : L.cell_w - 3 * mark;
    if (widest > 0) out.px = std::min(out.px, probe_px * room / widest);
    out.widest = widest * out.px / probe_px;
    if (out.px >= min_px || type == core::DType::Int) break;
  }
  return out;
}

// The whole block's layout where its values are readable; else fewer cells a row, each larger
// (a block of one warp), or one warp enlarged, or half or a quarter of it: values are drawn
// larger, never dropped, wherever some layout has room for them (issue 32, item 5). Of the row
// widths at one extent, one whose values leave the arrows a lane each side comes first: floats
// that fill their cells at the minimum size had the tree's arrows across their digits (issue 47).
MemoryLayout choose_layout(Canvas& c, const Shown& shown, core::DType type, int count, int width, int height,
                           const ViewOptions& o, float reserve) {
  const MemoryLayout whole = layout_memory(count, width, height, o.text_scale, o.min_text_px, reserve);
  auto px_of = [&](const MemoryLayout& L, bool lanes) {
    return cell_texts(c, L, shown, type, L.first, L.first + L.block, o.min_text_px, lanes).px;
  };
  if (!shown.values || px_of(whole, true) >= o.min_text_px) return whole;
  // Of the row widths that make the values readable (with lanes, or at all), the one that draws
  // them largest: the same choice at any size, so an export at 1600x900 lays a warp out as the
  // window's view does.
  const auto largest = [&](auto layout, std::initializer_list<int> widths, int most,
                           bool lanes) -> std::optional<MemoryLayout> {
    std::optional<MemoryLayout> pick;
    float pick_px = o.min_text_px;
    for (int cols : widths) {
      if (cols > most) continue;
      const MemoryLayout L = layout(cols);
      if (const float px = px_of(L, lanes); px >= pick_px) pick = L, pick_px = px;
    }
    return pick;
  };
  const bool whole_reads = px_of(whole, false) >= o.min_text_px;
  if (count <= 32) {
    const auto rows_of = [&](int cols) {
      return layout_memory(count, width, height, o.text_scale, o.min_text_px, reserve, cols);
    };
    if (const auto L = largest(rows_of, {16, 8, 4}, whole.cols - 1, true)) return *L;
    if (whole_reads) return whole;
    if (const auto L = largest(rows_of, {16, 8, 4}, whole.cols - 1, false)) return *L;
  } else if (whole_reads) {
    return whole;
  }
  // The most cells at which the values are readable; where none is, the layout whose values come
  // nearest (a small block keeps its largest cells).
  MemoryLayout best = whole;
  float best_px = px_of(whole, false);
  for (int span : {32, 16, 8}) {
    if (span >= count) continue;
    const auto warp = [&](int cols) {
      return layout_warp(count, o.warp, width, height, o.text_scale, o.min_text_px, cols, reserve, span, o.part);
    };
    for (bool lanes : {true, false})
      if (const auto L = largest(warp, {32, 16, 8, 4}, span, lanes)) return *L;
    for (int cols : {32, 16, 8, 4})
      if (cols <= span && count > 32)
        if (const MemoryLayout L = warp(cols); px_of(L, false) > best_px) best = L, best_px = px_of(L, false);
  }
  return best;
}

// A matrix trace: the pixels under the caption its window of the matrix takes (0 for an array):
// as many as leave the shared cells readable, the whole block where it can stay whole.
float matrix_space(Canvas& c, const core::Trace& t, const Shown& shown, int count, int width, int height,
                   const ViewOptions& o) {
  if (t.rows == 0 || t.window.rows == 0 || t.window.cols == 0) return 0;
  const MemoryLayout base = layout_memory(1, width, height, o.text_scale, o.min_text_px);
  const float free_h = free_area(base).h;
  const float least = std::min(matrix_min_height(t, base.title.w, base.label_px, o.min_text_px), free_h * 0.85f);
  for (bool whole : {true, false})
    for (float share : {0.8f, 0.72f, 0.64f, 0.56f})
      if (readable(c, shown, core::value_type(t), count, width, height, o, std::max(free_h * share, least), whole))
        return std::max(free_h * share, least);
  return std::max(free_h * 0.48f, least);
}

// Values drawn small enough to leave each side of a cell a lane for the arrows, where they stay
// readable at that size: floats and halves at 32 threads filled their cells, and tree arrows
// crossed their digits (issue 47). Every stage keeps the same size, arrows or not.
CellTexts leave_room_for_arrows(CellTexts text, const MemoryLayout& L, float min_px, float mark) {
  const float room = L.cell_w - 2 * lane_margin(L, mark);
  if (text.widest <= room || room <= 0) return text;
  const float fits = text.px * room / text.widest;
  if (fits >= min_px) text.px = fits, text.widest = room;
  return text;
}

Lanes arrow_lanes(const MemoryLayout& L, const CellTexts& text, bool values, float min_px, float mark) {
  const float w = L.cell_w, h = L.cell_h;
  Lanes lanes{w * 0.5f, w * 0.5f, h * 0.2f, h * 0.8f, std::min(w, h) * 0.3f};
  if (!values || text.px < min_px) return lanes;
  const float side = (w - text.widest) / 2, above = (h - text.px * 0.8f) / 2;  // digits: about 0.8 of the size tall
  const float least = lane_margin(L, mark);
  if (above >= least) lanes.top = mark + (above - mark) / 2, lanes.bottom = h - lanes.top;
  // An arrowhead ends in the top margin; its strokes stay off the digits where they end above
  // them (a vertical arrow) or beside them: at least 6 pixels long.
  const float over = above >= least ? above - lanes.top : 0.0f;
  const auto head_within = [&](float half_width) {
    lanes.head = std::min(lanes.head, std::max({6.0f, half_width / 0.6f, over}));
  };
  if (side >= least) {
    lanes.left = mark + (side - mark) / 2, lanes.right = w - lanes.left;
    head_within(side - lanes.left);
  } else if (L.gap >= 2) {
    // Values at the minimum size that still fill their cells (floats at 32 threads in the
    // window): the arrows run in the gaps between the columns instead of through the digits.
    lanes.left = -L.gap / 2, lanes.right = w + L.gap / 2;
    head_within(L.gap / 2 + mark);
  }
  return lanes;
}

}  // namespace rl::render::memory_parts
