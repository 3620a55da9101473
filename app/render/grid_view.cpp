#include "grid_view.h"

#include <algorithm>
#include <string>
#include <vector>

#include "../../kernels/shapes.h"
#include "../../kernels/matrix_shapes.h"
#include "../core/facts.h"
#include "view_parts.h"

namespace rl::render {
namespace {

constexpr int kMaxBoxes = 32;  // first-pass results drawn; the rest are counted

// The atomic each block's result goes through (kernels/atomics.cuh): ints have atomicMin and
// atomicMax; float and double min and max loop on atomicCAS until their value is in.
std::string op_name(core::Op op, core::DType type, kernels::Tree tree) {
  // Cooperative groups' update is a hardware atomic for integers only (CUDA 13).
  if (tree == kernels::Tree::CgTilesAsync && type != core::DType::Int) return "a compare-and-swap loop";
  if (op == core::Op::Sum) return "atomicAdd";
  if (type != core::DType::Int) return std::string("an atomicCAS loop (") + (op == core::Op::Min ? "min" : "max") + ")";
  return op == core::Op::Min ? "atomicMin" : "atomicMax";
}

// The bulk reduction's instruction for an operator (cp.reduce.async.bulk's .add, .min, .max).
std::string bulk_name(core::Op op) {
  return std::string("cp.reduce.async.bulk ") + (op == core::Op::Sum ? ".add" : op == core::Op::Min ? ".min" : ".max");
}

// Whether a matrix trace's partials are combined by a launch of their own (not by a row's last
// block inside the first launch).
bool matrix_launches_twice(const core::Trace& t) {
  return core::second_pass(t) && t.combine != kernels::Combine::LastBlock;
}

// A matrix trace's second phase in words (a second launch, or a row's last block); "" when the first
// pass writes the outputs itself.
std::string matrix_second_launch(const core::Trace& t) {
  if (!core::second_pass(t)) return "";
  const kernels::Grid2 grid = core::matrix_grid_of(t);
  if (t.first_block_waits)  // batched-rows-vectorized's first-waits, all blocks resident
    return "a row's first block waits for its other " + std::to_string(grid.x - 1) + " results and folds all " +
           std::to_string(grid.x) + ": one cooperative launch";
  if (!matrix_launches_twice(t))  // batched-rows-vectorized: a ticket counter a row
    return "a row's last block (atomicInc ticket) folds its " + std::to_string(grid.x) + " results: one launch";
  if (t.geometry.indexing == kernels::Indexing::RowChunks)
    return "second launch: " + core::count_text(t.rows, "block", "blocks") + ", one a row, over " +
           std::to_string(grid.x) + " chunk results each";
  if (t.geometry.indexing == kernels::Indexing::ColumnTiles)
    return "second launch: " + core::count_text(grid.x, "block", "blocks") + " over the " + std::to_string(grid.y) + " x " +
           std::to_string(t.cols) + " partials";
  return "second launch: 1 block of " + std::to_string(t.block) + " threads over the " + std::to_string(t.grid) + " partials";
}

// What one block folds: "its 1 result", "all 12 results".
std::string results_text(std::size_t outputs) {
  return outputs == 1 ? std::string("its 1 result") : "all " + std::to_string(outputs) + " results";
}

// What the run leaves: "out: 16 row sums", or the whole matrix's (or array's) result.
std::string result_text(const core::Trace& t) {
  const auto lines = t.rows > 0 ? t.geometry.lines() : kernels::Lines::Whole;
  const std::string word = core::result_word(t.op);
  if (lines == kernels::Lines::Rows) return "out: " + core::count_text(t.rows, "row " + word, "row " + word + "s");
  if (lines == kernels::Lines::Columns) return "out: " + core::count_text(t.cols, "column " + word, "column " + word + "s");
  return "result " + core::format_value(t.result, core::value_type(t));
}

}  // namespace

std::string grid_how(const core::Trace& t) {
  const std::string g = core::count_text(t.grid, "block", "blocks");
  if (t.rows > 0) {
    const std::string second = matrix_second_launch(t), word = core::result_word(t.op);
    if (!second.empty()) return g + "; " + second;
    const bool rows = t.geometry.lines() == kernels::Lines::Rows;
    return g + "; each block writes " + (rows ? "its row's " + word : "its columns' " + word + "s") + " to out: one launch";
  }
  if (!t.tickets.empty())
    return g + (t.grid == 1 ? " takes " : " take ") + core::count_text(t.tickets.size(), "ticket", "tickets") +
           (t.tickets.size() > t.grid ? ": each block its own index first, the rest from a counter"
                                      : ": each block its own index") +
           " (under each: how many it took); " + op_name(t.op, core::value_type(t), t.geometry.tree) +
           " combines: one launch";
  if (t.combine == kernels::Combine::Atomics)
    return g + "; each block (or warp tile) " +
           (t.op == core::Op::Sum ? "adds its result to" : "folds its result into") + " one value with " +
           op_name(t.op, core::value_type(t), t.geometry.tree) + ", in whatever order the blocks finish: one launch";
  if (t.combine == kernels::Combine::BulkReduce)
    return g + "; each block hands its result to one value with a bulk reduction (" + bulk_name(t.op) +
           ", 16 bytes from shared memory), in whatever order the blocks finish: one launch";
  if (t.combine == kernels::Combine::SecondKernel) return g + "; a second launch of one block reduces their results";
  if (t.combine == kernels::Combine::LastBlock)
    return g + "; each block writes its result and takes a ticket (atomicInc); the block that draws the last "
               "ticket reduces all results, in the same order every run: one launch";
  if (t.combine == kernels::Combine::GridSync)
    return g + "; all blocks resident at once (cooperative launch); after grid.sync() block 0 reduces the results";
  if (const int k = t.geometry.cluster; k > 0)
    return g + " in clusters of " + std::to_string(k) +
           "; a cluster's first block folds the cluster's warp totals (DSMEM)";
  return g + "; the same kernel runs again over their results until one value is left";
}

namespace {

// Where the first pass's boxes, the combining steps and the result go; every piece shares it.
struct GridBoxes : ViewContext {
  Rect area;           // between the caption and the legend
  std::size_t outputs;  // first-pass results (one per block, per warp for cg-warp, per cluster for clusters)
  int cluster;          // blocks a cluster (0: none); their row is drawn above the results
  float blocks_y;       // top of the clusters' row of blocks
  int boxes;           // of them, drawn
  float gap, box_w, box_h;
  float row1;  // top of the first-pass boxes
  float left;  // left of the first box
  float lw;    // line width of arrows and frames
  float res_h;
  Rect result;
  float mid;  // between the boxes and the result
};

// How many boxes fit across `width` with each result's value readable at min_px (at most
// kMaxBoxes), and at least `least` wide (a cluster's row of blocks above its result).
int box_slots(Canvas& c, const core::Trace& t, float width, float gap, float min_px, float least) {
  float widest = 0;
  for (std::size_t i = 0; i < t.partials.size() && i < std::size_t(kMaxBoxes); ++i)
    widest = std::max(widest, c.text_width(short_value(t.partials[i], core::value_type(t)), min_px));
  const float need = std::max(widest / 0.85f, least);
  return std::clamp(int((width + gap) / (need + gap)), 1, kMaxBoxes);
}

GridBoxes layout_grid(const ViewContext& ctx) {
  auto& [c, t, stage, L, pal, options, min_px] = ctx;
  const float top = L.caption.y + L.caption.h + L.label_px;
  const Rect area{L.title.x, top, L.title.w, std::max(1.0f, L.legend.y - top - L.label_px * 0.5f)};
  const std::size_t outputs = t.pass_outputs.empty() ? t.grid : t.pass_outputs.front();
  const int cluster = t.geometry.cluster;
  const float gap = std::max(2.0f, area.w * (cluster ? 0.02f : 0.004f));
  // A cluster's blocks side by side over its result, each wide enough for its number.
  const float least = cluster ? float(cluster) * c.text_width("0000", min_px) : 0;
  const int slots = box_slots(c, t, area.w, gap, min_px, least);
  const int boxes = int(std::min<std::size_t>({t.partials.empty() ? outputs : t.partials.size(), outputs, std::size_t(slots)}));
  const float box_w = std::min((area.w - (slots - 1) * gap) / float(slots), area.w / 8);
  const float box_h = std::min(box_w * 0.9f, area.h * (cluster ? 0.11f : 0.16f));  // clusters: their row above
  const float note_px = std::max(min_px, L.label_px * 0.9f);                       // the lines above the boxes
  const float blocks_y = area.y + L.label_px * 0.5f + note_px * 2.6f;
  // Under a cluster's blocks, a lane for each block's arrow into the first, then one to its result.
  const float row1 = cluster ? blocks_y + box_w / float(cluster) + L.label_px * (1.4f + 0.15f * float(cluster))
                             : area.y + L.label_px * 1.6f;
  const float left = area.x + (area.w - boxes * (box_w + gap) + gap) / 2;
  const float lw = std::max(1.5f, std::min(box_w, area.w / 8) * 0.04f);
  // The result's box, wide enough for its text at the smallest size.
  const float res_w = std::max(std::min(area.w * 0.3f, L.label_px * 14),
                               std::min(area.w, c.text_width(result_text(t), min_px) + L.label_px)),
              res_h = box_h;
  const Rect result{area.cx() - res_w / 2, area.y + area.h - res_h, res_w, res_h};
  const float mid = row1 + box_h + (result.y - row1 - box_h) * 0.5f;
  return {ctx, area, outputs, cluster, blocks_y, boxes, gap, box_w, box_h, row1, left, lw, res_h, result, mid};
}

void draw_header(Canvas& c, const core::Trace& t, const MemoryLayout& L, const Palette& pal, float min_px) {
  const std::string title = t.algorithm + "  -  the grid: how the blocks' results become one";
  fitted_text(c, L.title.x, L.title.cy(), title, L.title_px, min_px, L.title.w, pal.text);
  fitted_text(c, L.caption.x, L.caption.cy(), grid_how(t), L.label_px, min_px, L.caption.w, pal.muted);
  fitted_text(c, L.source.x, L.source.cy(), source_line(t), L.label_px, min_px, L.source.w, pal.text);
}

// Above each cluster's result, its blocks: every one but the first hands its warp totals to the
// first through distributed shared memory (an arrow from the block they came from).
void draw_clusters(const GridBoxes& g) {
  const float w = g.box_w / float(g.cluster), px = std::max(g.min_px, g.L.label_px * 0.6f);
  for (int i = 0; i < g.boxes; ++i) {
    const float x0 = g.left + i * (g.box_w + g.gap);
    const bool traced = i == g.t.trace_block / g.cluster;
    g.c.rect({x0 - g.lw * 2, g.blocks_y - g.lw * 2, g.box_w + g.lw * 4, w + g.lw * 4}, g.pal.background,
             traced ? g.pal.written : g.pal.muted, g.lw);
    for (int b = 0; b < g.cluster; ++b) {
      const Rect r{x0 + b * w + 1, g.blocks_y, w - 2, w};
      g.c.rect(r, b == 0 ? g.pal.active : g.pal.inactive);
      const std::string id = std::to_string(i * g.cluster + b);
      if (g.c.text_width(id, px) <= r.w)
        g.c.text(r.cx(), r.cy(), id, px, text_on(b == 0 ? g.pal.active : g.pal.inactive), Align::Center);
      if (b == 0) continue;
      // Down, along to the first block, and up into it: one lane a block, apart.
      const float drop = g.blocks_y + w + g.L.label_px * (0.4f + 0.15f * float(b)),
                  into = x0 + w * (0.2f + 0.6f * b / g.cluster);
      g.c.line(r.cx(), r.y + r.h, r.cx(), drop, g.lw, g.pal.read);
      g.c.line(r.cx(), drop, into, drop, g.lw, g.pal.read);
      arrow(g.c, into, drop, into, r.y + r.h, g.lw, w * 0.25f, g.pal.read);
    }
    const float out_x = x0 + w / 2, from_y = g.blocks_y + w + g.L.label_px * (0.4f + 0.15f * float(g.cluster));
    arrow(g.c, out_x, from_y, g.left + i * (g.box_w + g.gap) + g.box_w / 2, g.row1, g.lw, w * 0.25f, g.pal.written);
  }
  g.c.text(g.area.x, g.blocks_y - std::max(g.min_px, g.L.label_px * 0.9f) * 1.1f,
           "clusters of " + std::to_string(g.cluster) + " blocks: each block's warp totals go to the first (DSMEM)",
           std::max(g.min_px, g.L.label_px * 0.9f), g.pal.muted);
}

// Row 1: what each block (each warp, for cg-warp; each cluster) of the first pass left.
void draw_first_pass(const GridBoxes& g) {
  const core::Trace& t = g.t;
  const bool per_warp = g.outputs > t.grid;
  if (g.cluster) draw_clusters(g);
  const std::string each = per_warp ? "warp result" : g.cluster ? "cluster result" : "block result";
  // Named as the rows below name what follows: "launch 2", "second launch", or nothing (one launch).
  const bool second = t.rows > 0 ? matrix_launches_twice(t) : t.combine == kernels::Combine::SecondKernel;
  const std::string pass = t.rows == 0 && t.pass_outputs.size() > 1 ? "launch 1: " : second ? "first launch: " : "";
  g.c.text(g.area.x, g.area.y + g.L.label_px * 0.5f,
           pass + core::count_text(g.outputs, each, each + "s") +
               (g.outputs > std::size_t(g.boxes) ? " (the first " + std::to_string(g.boxes) + " shown)" : ""),
           std::max(g.min_px, g.L.label_px * 0.9f), g.pal.muted);
  const Scale scale = value_scale(&t.partials, t.partials.size());
  const int per_block =
      per_warp ? int(std::clamp<std::size_t>(g.outputs / std::max<std::size_t>(t.grid, 1), 1, 32)) : 1;
  std::vector<int> taken(std::size_t(g.boxes), 0);  // work-queue: tickets each block took
  for (int b : t.tickets)
    if (b >= 0 && b < g.boxes) ++taken[std::size_t(b)];
  float value_px = std::min(g.box_h * 0.4f, g.box_w * 0.3f);
  for (int i = 0; i < g.boxes; ++i) {
    const Rect r{g.left + i * (g.box_w + g.gap), g.row1, g.box_w, g.box_h};
    const bool traced = i / per_block == t.trace_block / std::max(g.cluster, 1);
    if (i < int(t.partials.size())) {
      const Color fill = value_color(scale.at(t.partials[i]));
      g.c.rect(r, fill, traced ? g.pal.written : fill, traced ? std::max(2.0f, g.box_w * 0.06f) : 0);
      const std::string v = short_value(t.partials[i], core::value_type(t));
      value_px = std::min(value_px, 20 * g.box_w * 0.85f / std::max(1.0f, g.c.text_width(v, 20)));
      if (std::max(value_px, g.min_px) <= g.box_h * 0.8f)
        g.c.text(r.cx(), r.cy(), v, std::max(value_px, g.min_px), text_on(fill), Align::Center);
    } else {
      g.c.rect(r, g.pal.padding, traced ? g.pal.written : g.pal.padding, traced ? 2.0f : 0);
    }
    const std::string under = (g.cluster ? "cluster " : "") + std::to_string(i / per_block) +
                              (t.tickets.empty() ? "" : ": " + std::to_string(taken[std::size_t(i)]));
    const float under_px = std::max(g.min_px, g.L.label_px * 0.6f);
    if (g.c.text_width(under, under_px) <= g.box_w + g.gap * 0.5f)
      g.c.text(r.cx(), r.y + r.h + under_px * 0.8f, under, under_px, g.pal.muted, Align::Center);
  }
}

// `text` as two lines, broken at the space nearest its middle (one line where it has no space).
std::vector<std::string> two_lines(const std::string& text) {
  const std::size_t mid = text.size() / 2, before = text.rfind(' ', mid), after = text.find(' ', mid);
  const std::size_t at = before == std::string::npos  ? after
                         : after == std::string::npos ? before
                                                      : (mid - before <= after - mid ? before : after);
  if (at == std::string::npos) return {text};
  return {text.substr(0, at), text.substr(at + 1)};
}

// A framed step of the combining (a launch, the last block), centred at height y.
Rect stage_box(const GridBoxes& g, float y, const std::string& text) {
  const float most = g.area.w * 0.8f, pad = g.L.label_px, text_w = g.c.text_width(text, g.L.label_px);
  const float w = std::min(most, text_w + pad * 2);
  // A text wider than the box gets smaller, down to the smallest readable size, then takes two lines.
  const auto fit = [&](const std::string& s) { return fit_px(g.c, s, g.L.label_px, w - pad, g.min_px); };
  std::vector<std::string> lines{text};
  if (g.c.text_width(text, fit(text)) > w - pad) lines = two_lines(text);
  float px = g.L.label_px;
  for (const auto& line : lines) px = std::min(px, fit(line));
  // Two lines only where the taller box leaves room for the arrows into it and out of it.
  const float room = g.result.y - (g.row1 + g.box_h + g.L.label_px) - g.L.label_px;
  if (lines.size() > 1 && px * 3.0f > std::max(room, g.res_h * 0.8f)) lines = {text}, px = fit(text);
  // At the smallest size the box widens to its lines, up to the whole area.
  float widest = 0;
  for (const auto& line : lines) widest = std::max(widest, g.c.text_width(line, px));
  const float box_w = std::min(g.area.w, std::max(w, widest + pad));
  const float line_h = px * 1.25f, h = std::max(g.res_h * 0.8f, line_h * float(lines.size()) + px * 0.5f);
  const Rect r{g.area.cx() - box_w / 2, y - h / 2, box_w, h};
  g.c.rect(r, g.pal.background, g.pal.read, g.lw);
  for (std::size_t i = 0; i < lines.size(); ++i)
    g.c.text(r.cx(), r.cy() + (float(i) - float(lines.size() - 1) / 2) * line_h, lines[i], px, g.pal.text,
             Align::Center);
  return r;
}

// An arrow from every first-pass box to `to`.
void fan_in(const GridBoxes& g, const Rect& to) {
  for (int i = 0; i < g.boxes; ++i) {
    const float x = g.left + i * (g.box_w + g.gap) + g.box_w / 2;
    arrow(g.c, x, g.row1 + g.box_h + g.L.label_px, to.cx() + (x - g.area.cx()) * 0.15f, to.y, g.lw, g.box_w * 0.2f,
          g.pal.read);
  }
}

// From the bottom of one step to the top of the next.
void step_arrow(const GridBoxes& g, const Rect& from, const Rect& to) {
  arrow(g.c, from.cx(), from.y + from.h, to.cx(), to.y, g.lw, g.box_w * 0.2f, g.pal.read);
}

void draw_grid_sync(const GridBoxes& g) {
  const float y = g.row1 + g.box_h + g.L.label_px * 2.2f;
  const Rect& area = g.area;
  for (float x = area.x; x < area.x + area.w; x += g.L.label_px * 1.2f)  // the barrier, dashed
    g.c.line(x, y, std::min(x + g.L.label_px * 0.7f, area.x + area.w), y, g.lw, g.pal.conflict);
  g.c.text(area.x, y - g.L.label_px * 0.7f, "grid.sync(): every block waits here", std::max(g.min_px, g.L.label_px * 0.8f),
           g.pal.conflict);
  const Rect k2 = stage_box(g, g.mid + g.L.label_px, "block 0 folds " + results_text(g.outputs));
  arrow(g.c, k2.cx(), y, k2.cx(), k2.y, g.lw, g.box_w * 0.2f, g.pal.read);
  step_arrow(g, k2, g.result);
}

// Passes: one launch per level, each block reducing `block` results of the last.
void draw_passes(const GridBoxes& g) {
  const std::vector<std::size_t>& outs = g.t.pass_outputs;
  float y = g.row1 + g.box_h + g.L.label_px * 2.5f;
  const float step = (g.result.y - y) / float(std::max<std::size_t>(outs.size(), 1));
  Rect last{};
  for (std::size_t p = 1; p < outs.size(); ++p, y += step) {
    // One result a block, or a cluster's blocks for one result.
    const std::size_t blocks = outs[p] * std::size_t(std::max(g.cluster, 1));
    const std::string clusters = g.cluster ? " (" + core::count_text(outs[p], "cluster", "clusters") + ")" : "";
    const Rect r = stage_box(g, y + step * 0.5f,
                             "launch " + std::to_string(p + 1) + ": " + core::count_text(blocks, "block", "blocks") +
                                 clusters + " over " + std::to_string(outs[p - 1]) + " results");
    if (p == 1) fan_in(g, r);
    else step_arrow(g, last, r);
    last = r;
  }
  if (outs.size() <= 1) fan_in(g, g.result);
  else step_arrow(g, last, g.result);
}

// Row 2 (and on): how they are combined, down to the result.
void draw_combine(const GridBoxes& g) {
  const core::Trace& t = g.t;
  if (t.rows > 0) {  // the matrix family: a second launch over the partials, or none
    const std::string second = matrix_second_launch(t);
    if (second.empty()) {
      fan_in(g, g.result);
    } else {
      const Rect k2 = stage_box(g, g.mid, second);
      fan_in(g, k2);
      step_arrow(g, k2, g.result);
    }
  } else if (t.combine && kernels::unordered(*t.combine)) {
    fan_in(g, g.result);
    const std::string how =
        t.combine == kernels::Combine::Atomics ? op_name(t.op, core::value_type(t), t.geometry.tree) : bulk_name(t.op);
    g.c.text(g.area.cx(), g.mid, how + " from every block, in arrival order", g.L.label_px, g.pal.muted, Align::Center);
  } else if (t.combine == kernels::Combine::SecondKernel) {
    const Rect k2 = stage_box(g, g.mid, "second launch: 1 block of " + std::to_string(t.block) + " threads over " +
                                            std::to_string(g.outputs) + " results");
    fan_in(g, k2);
    step_arrow(g, k2, g.result);
  } else if (t.combine == kernels::Combine::LastBlock) {
    const Rect k2 = stage_box(
        g, g.mid,
        "the last block to finish (ticket " + std::to_string(t.grid - 1) + ") folds " + results_text(g.outputs));
    fan_in(g, k2);
    step_arrow(g, k2, g.result);
  } else if (t.combine == kernels::Combine::GridSync) {
    draw_grid_sync(g);
  } else {
    draw_passes(g);
  }
  g.c.rect(g.result, g.pal.background, g.pal.written, g.lw * 1.5f);
  const std::string result = result_text(t);  // smaller to fit a narrow window's box
  const float px = fit_px(g.c, result, g.L.label_px, g.result.w - g.L.label_px * 0.5f, g.min_px);
  g.c.text(g.result.cx(), g.result.cy(), result, px, g.pal.text, Align::Center);
}

void grid_legend(Canvas& c, const core::Trace& t, const MemoryLayout& L, const Palette& pal, float min_px) {
  if (t.geometry.cluster)
    draw_legend(c, L.legend,
                {{pal.written, "the traced block's cluster; colours: the results' values", true},
                 {pal.active, "a cluster's first block", false},
                 {pal.read, "read through DSMEM", false}},
                L.label_px, min_px, pal);
  else
    draw_legend(c, L.legend, {{pal.written, "the traced block (stages view); colours: the results' values", true}},
                L.label_px, min_px, pal);
}

}  // namespace

void draw_grid(const ViewContext& ctx) {
  auto& [c, t, stage, L, pal, options, min_px] = ctx;
  const GridBoxes g = layout_grid(ctx);
  draw_header(c, t, L, pal, min_px);
  if (t.combine == kernels::Combine::Halving || !t.combine) {
    c.text(g.area.cx(), g.area.cy(),
           !t.combine ? "this trace does not say how its blocks combine (recorded by an older version)"
                      : "global-halving has no per-block results: each launch halves the live array (memory view)",
           L.label_px * 1.1f, pal.muted, Align::Center);
    return;
  }
  draw_first_pass(g);
  draw_combine(g);
  grid_legend(c, t, L, pal, min_px);
}

}  // namespace rl::render
