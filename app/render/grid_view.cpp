#include "grid_view.h"

#include <algorithm>
#include <string>
#include <vector>

#include "view_parts.h"

namespace rl::render {
namespace {

constexpr int kMaxBoxes = 32;  // first-pass results drawn; the rest are counted

// The atomic each block's result goes through (kernels/atomics.cuh): ints have atomicMin and
// atomicMax; float and double min and max loop on atomicCAS until their value is in.
std::string op_name(core::Op op, core::DType type, const std::string& algorithm) {
  // Cooperative groups' update is a hardware atomic for integers only (CUDA 13).
  if (algorithm == "cg-reduce-update-async" && type != core::DType::Int) return "a compare-and-swap loop";
  if (op == core::Op::Sum) return "atomicAdd";
  if (type != core::DType::Int) return std::string("an atomicCAS loop (") + (op == core::Op::Min ? "min" : "max") + ")";
  return op == core::Op::Min ? "atomicMin" : "atomicMax";
}

std::string how(const core::Trace& t) {
  const std::string g = std::to_string(t.grid) + (t.grid == 1 ? " block" : " blocks");
  if (!t.tickets.empty())
    return g + " take " + std::to_string(t.tickets.size()) + " tickets from a counter (under each: how many it took); " +
           op_name(t.op, t.type, t.algorithm) + " combines: one launch";
  if (t.combine == kernels::Combine::Atomics)
    return g + "; each block (or warp tile) adds its result to one value with " + op_name(t.op, t.type, t.algorithm) +
           ", in whatever order the blocks finish: one launch";
  if (t.combine == kernels::Combine::SecondKernel) return g + "; a second launch of one block reduces their results";
  if (t.combine == kernels::Combine::LastBlock)
    return g + "; each block writes its result and takes a ticket (atomicInc); the block that draws the last "
               "ticket reduces all results: one launch";
  if (t.combine == kernels::Combine::GridSync)
    return g + "; all blocks resident at once (cooperative launch); after grid.sync() block 0 reduces the results";
  return g + "; the same kernel runs again over their results until one value is left";
}

}  // namespace

void draw_grid(Canvas& c, const core::Trace& t, const MemoryLayout& L, const Palette& pal) {
  const float top = L.caption.y + L.caption.h + L.label_px;
  const Rect area{L.title.x, top, L.title.w, std::max(1.0f, L.legend.y - top - L.label_px * 0.5f)};
  const std::string title = t.algorithm + "  -  the grid: how the blocks' results become one";
  c.text(L.title.x, L.title.cy(), title, fit_px(c, title, L.title_px, L.title.w), pal.text);
  const std::string caption = how(t);
  c.text(L.caption.x, L.caption.cy(), caption, fit_px(c, caption, L.label_px, L.caption.w), pal.muted);
  c.text(L.source.x, L.source.cy(), source_line(t), L.label_px, pal.text);
  if (t.combine == kernels::Combine::Halving || !t.combine) {
    c.text(area.cx(), area.cy(),
           !t.combine ? "this trace does not say how its blocks combine (recorded by an older version)"
                             : "global-halving has no per-block results: each launch halves the live array (memory view)",
           L.label_px * 1.1f, pal.muted, Align::Center);
    return;
  }

  // Row 1: what each block (each warp, for cg-warp) of the first pass left.
  const std::size_t outputs = t.pass_outputs.empty() ? t.grid : t.pass_outputs.front();
  const int boxes = int(std::min<std::size_t>({t.partials.empty() ? outputs : t.partials.size(), outputs, kMaxBoxes}));
  const float gap = std::max(2.0f, area.w * 0.004f);
  const float box_w = std::min((area.w - (kMaxBoxes - 1) * gap) / kMaxBoxes * 1.0f, area.w / 8);
  const float box_h = std::min(box_w * 0.9f, area.h * 0.16f);
  const float row1 = area.y + L.label_px * 1.6f;
  const float left = area.x + (area.w - boxes * (box_w + gap) + gap) / 2;
  const bool per_warp = outputs > t.grid;
  c.text(area.x, area.y + L.label_px * 0.5f,
         std::string("first pass: ") + std::to_string(outputs) + (per_warp ? " warp results" : " block results") +
             (outputs > std::size_t(boxes) ? " (the first " + std::to_string(boxes) + " shown)" : ""),
         L.label_px * 0.9f, pal.muted);
  const Scale scale = value_scale(&t.partials, t.partials.size());
  const int per_block = per_warp ? int(outputs / std::max<std::size_t>(t.grid, 1)) : 1;
  std::vector<int> taken(std::size_t(boxes), 0);  // work-queue: tickets each block took
  for (int b : t.tickets)
    if (b >= 0 && b < boxes) ++taken[std::size_t(b)];
  float value_px = std::min(box_h * 0.4f, box_w * 0.3f);
  for (int i = 0; i < boxes; ++i) {
    const Rect r{left + i * (box_w + gap), row1, box_w, box_h};
    const bool traced = i / per_block == t.trace_block;
    if (i < int(t.partials.size())) {
      const Color fill = value_color(scale.at(t.partials[i]));
      c.rect(r, fill, traced ? pal.written : fill, traced ? std::max(2.0f, box_w * 0.06f) : 0);
      const std::string v = short_value(t.partials[i], t.type);
      value_px = std::min(value_px, 20 * box_w * 0.85f / std::max(1.0f, c.text_width(v, 20)));
      c.text(r.cx(), r.cy(), v, std::max(value_px, 6.0f), text_on(fill), Align::Center);
    } else {
      c.rect(r, pal.padding, traced ? pal.written : pal.padding, traced ? 2.0f : 0);
    }
    if (box_w > L.label_px * 1.5f)
      c.text(r.cx(), r.y + r.h + L.label_px * 0.6f,
             std::to_string(i / per_block) + (t.tickets.empty() ? "" : ": " + std::to_string(taken[std::size_t(i)])),
             L.label_px * 0.6f, pal.muted, Align::Center);
  }

  // Row 2 (and on): how they are combined, down to the result.
  const Color tint = pal.read;
  const float lw = std::max(1.5f, box_w * 0.04f);
  const float res_w = std::min(area.w * 0.3f, L.label_px * 14), res_h = box_h;
  const Rect result{area.cx() - res_w / 2, area.y + area.h - res_h, res_w, res_h};
  const float mid = row1 + box_h + (result.y - row1 - box_h) * 0.5f;
  const auto stage_box = [&](float y, const std::string& text) {
    const float w = std::min(area.w * 0.8f, c.text_width(text, L.label_px) + L.label_px * 2);
    const Rect r{area.cx() - w / 2, y - res_h * 0.4f, w, res_h * 0.8f};
    c.rect(r, pal.background, pal.read, lw);
    c.text(r.cx(), r.cy(), text, L.label_px, pal.text, Align::Center);
    return r;
  };
  const auto fan_in = [&](const Rect& to) {
    for (int i = 0; i < boxes; ++i) {
      const float x = left + i * (box_w + gap) + box_w / 2;
      arrow(c, x, row1 + box_h + L.label_px, to.cx() + (x - area.cx()) * 0.15f, to.y, lw, box_w * 0.2f, tint);
    }
  };
  if (t.combine == kernels::Combine::Atomics) {
    fan_in(result);
    c.text(area.cx(), mid, op_name(t.op, t.type, t.algorithm) + " from every block, in arrival order", L.label_px, pal.muted, Align::Center);
  } else if (t.combine == kernels::Combine::SecondKernel) {
    const Rect k2 = stage_box(mid, "second launch: 1 block of " + std::to_string(t.block) + " threads over " +
                                       std::to_string(outputs) + " results");
    fan_in(k2);
    arrow(c, k2.cx(), k2.y + k2.h, result.cx(), result.y, lw, box_w * 0.2f, tint);
  } else if (t.combine == kernels::Combine::LastBlock) {
    const Rect k2 = stage_box(mid, "the last block to finish (ticket " + std::to_string(t.grid - 1) + ") folds all " +
                                       std::to_string(outputs) + " results");
    fan_in(k2);
    arrow(c, k2.cx(), k2.y + k2.h, result.cx(), result.y, lw, box_w * 0.2f, tint);
  } else if (t.combine == kernels::Combine::GridSync) {
    const float y = row1 + box_h + L.label_px * 2.2f;
    for (float x = area.x; x < area.x + area.w; x += L.label_px * 1.2f)  // the barrier, dashed
      c.line(x, y, std::min(x + L.label_px * 0.7f, area.x + area.w), y, lw, pal.conflict);
    c.text(area.x, y - L.label_px * 0.7f, "grid.sync(): every block waits here", L.label_px * 0.8f, pal.conflict);
    const Rect k2 = stage_box(mid + L.label_px, "block 0 folds all " + std::to_string(outputs) + " results");
    arrow(c, k2.cx(), y, k2.cx(), k2.y, lw, box_w * 0.2f, tint);
    arrow(c, k2.cx(), k2.y + k2.h, result.cx(), result.y, lw, box_w * 0.2f, tint);
  } else {  // passes: one launch per level, each block reducing `block` results of the last
    float y = row1 + box_h + L.label_px * 2.5f;
    const float step = (result.y - y) / float(std::max<std::size_t>(t.pass_outputs.size(), 1));
    Rect last{};
    for (std::size_t p = 1; p < t.pass_outputs.size(); ++p, y += step) {
      const std::size_t blocks = t.pass_outputs[p];
      const Rect r = stage_box(y + step * 0.5f, "launch " + std::to_string(p + 1) + ": " + std::to_string(blocks) +
                                                    (blocks == 1 ? " block" : " blocks") + " over " +
                                                    std::to_string(t.pass_outputs[p - 1]) + " results");
      if (p == 1) fan_in(r);
      else arrow(c, last.cx(), last.y + last.h, r.cx(), r.y, lw, box_w * 0.2f, tint);
      last = r;
    }
    if (t.pass_outputs.size() <= 1) fan_in(result);
    else arrow(c, last.cx(), last.y + last.h, result.cx(), result.y, lw, box_w * 0.2f, tint);
  }
  c.rect(result, pal.background, pal.written, lw * 1.5f);
  c.text(result.cx(), result.cy(), "result " + core::format_value(t.result, t.type), L.label_px, pal.text, Align::Center);

  float x = L.legend.x;
  const float sw = L.label_px;
  c.rect({x, L.legend.cy() - sw / 2, sw, sw}, pal.background, pal.written, std::max(1.5f, sw * 0.2f));
  x += sw * 1.4f;
  c.text(x, L.legend.cy(), "the traced block (stages view); colours: the results' values", L.label_px, pal.text);
}

}  // namespace rl::render
