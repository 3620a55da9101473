#include "matrix_view.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "../../kernels/raw_trace.h"
#include "../../kernels/matrix_shapes.h"
#include "../core/facts.h"

namespace rl::render {
namespace {

const core::Window& win(const core::Trace& t) { return t.window; }

bool owned(const core::Trace& t, std::size_t r, std::size_t c) {
  const std::size_t i = r * win(t).cols + c;
  return i < win(t).owned.size() && win(t).owned[i];
}

bool row_owned(const core::Trace& t, std::size_t r) {
  for (std::size_t c = 0; c < win(t).cols; ++c)
    if (owned(t, r, c)) return true;
  return false;
}

// The first window row with a cell of the traced block (0 when none).
int first_owned_row(const core::Trace& t) {
  for (std::size_t r = 0; r < win(t).rows; ++r)
    if (row_owned(t, r)) return int(r);
  return 0;
}

bool col_owned(const core::Trace& t, std::size_t c) {
  for (std::size_t r = 0; r < win(t).rows; ++r)
    if (owned(t, r, c)) return true;
  return false;
}

OutputCell output_at(const std::vector<double>& values, std::size_t i, bool own) {
  return {i, i < values.size() ? values[i] : 0.0, own, i < values.size()};
}

// column-sums' first pass leaves a row of partials per chunk of rows; the traced block's chunk
// is its grid row (grid.x = the column tiles across the matrix).
std::size_t chunk_of(const core::Trace& t) { return std::size_t(t.trace_block) / core::matrix_grid_of(t).x; }

std::string range(std::size_t first, std::size_t count) {
  return count <= 1 ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(first + count - 1);
}

float widest(Canvas& c, const std::vector<std::string>& texts, float px) {
  float w = 0;
  for (const auto& s : texts) w = std::max(w, c.text_width(s, px));
  return w;
}

// A window row's label: "row 12", and where the kernel splits its rows among threads, the ones
// that add it up: "row 12, threads 36-39", "row 12, warp 1", "row 12, thread 12".
std::string row_text(const core::Trace& t, std::size_t r) {
  const std::size_t row = win(t).row + r;
  const std::string name = "row " + std::to_string(row);
  const auto th = core::row_threads(t, row);
  if (!th) return name;
  if (th->count == 32) return name + ", warp " + std::to_string(th->first / 32);
  if (th->count == 1) return name + ", thread " + std::to_string(th->first);
  return name + ", threads " + range(std::size_t(th->first), std::size_t(th->count));
}

std::vector<std::string> output_texts(const std::vector<OutputLine>& lines, core::DType type) {
  std::vector<std::string> out;
  for (const auto& l : lines)
    for (const auto& cell : l.cells) out.push_back(short_value(cell.value, type));
  return out;
}

}  // namespace

MatrixLines matrix_lines(const core::Trace& t) { return t.rows > 0 ? t.geometry.lines() : MatrixLines::Whole; }

std::vector<OutputLine> output_lines(const core::Trace& t) {
  const core::Window& w = win(t);
  std::vector<OutputLine> lines;
  switch (matrix_lines(t)) {
    case MatrixLines::Rows: {
      OutputLine l{"out", {}};
      const bool writes = !core::second_pass(t);  // batched-rows-split and -vectorized: a chunk's partial
      for (std::size_t r = 0; r < w.rows; ++r) l.cells.push_back(output_at(t.outputs, w.row + r, writes && row_owned(t, r)));
      lines.push_back(l);
      break;
    }
    case MatrixLines::Columns: {
      if (core::second_pass(t)) {  // two passes: the block writes its chunk's partials
        const std::size_t first = chunk_of(t) * t.cols;
        OutputLine p{"partials", {}};
        for (std::size_t c = 0; c < w.cols; ++c) p.cells.push_back(output_at(t.partials, first + w.col + c, col_owned(t, c)));
        lines.push_back(p);
      }
      OutputLine l{"out", {}};
      const bool writes = !core::second_pass(t);
      for (std::size_t c = 0; c < w.cols; ++c) l.cells.push_back(output_at(t.outputs, w.col + c, writes && col_owned(t, c)));
      lines.push_back(l);
      break;
    }
    case MatrixLines::Whole:
      lines.push_back({"block " + std::to_string(t.trace_block) + "'s partial", {output_at(t.partials, std::size_t(t.trace_block), true)}});
      lines.push_back({"whole matrix", {{0, t.result, false, true}}});
      break;
  }
  return lines;
}

Rect MatrixLayout::cell(int r, int c) const {
  return {grid.x + c * (cell_w + gap), grid.y + (r - first_row) * (cell_h + gap), cell_w, cell_h};
}

Rect MatrixLayout::row_label(int r) const { return {heading.x, cell(r, 0).y, grid.x - heading.x, cell_h}; }

Rect MatrixLayout::col_label(int c) const {
  const Rect k = cell(0, c);
  return {k.x, grid.y - label_px * 1.3f, k.w, label_px * 1.2f};
}

// Columns: a row of cells under the grid's columns per output line, named in the row labels'
// column. Rows: one column right of the grid, a cell per window row. Whole: one line under the
// grid, each output's name before its cell.
Rect MatrixLayout::output(int line, int i) const {
  const float out_h = std::max(cell_h, label_px * 1.35f);  // room for its name and value at label_px
  if (kind == MatrixLines::Columns) return {cell(0, i).x, outputs.y + line * (out_h + gap), cell_w, out_h};
  if (kind == MatrixLines::Rows) return {outputs.x, cell(i, 0).y, out_w, cell_h};
  return {outputs.x + line * (name_w + out_w + label_px) + name_w, outputs.y, out_w, out_h};  // Whole: one line
}

namespace {

// The widths beside the grid: the row labels' column (and the output lines' names), and the
// output cells.
void layout_widths(Canvas& c, const core::Trace& t, const std::vector<OutputLine>& lines, MatrixLayout& L, float* label_w) {
  const core::Window& w = win(t);
  std::vector<std::string> names;
  for (const auto& l : lines) names.push_back(l.name);
  std::vector<std::string> row_names;
  for (std::size_t r = 0; r < w.rows; ++r) row_names.push_back(row_text(t, r));
  const float row_w = widest(c, row_names, L.label_px);
  *label_w = std::max(row_w, L.kind == MatrixLines::Columns ? widest(c, names, L.label_px) : 0.0f) + L.label_px * 0.8f;
  const float value_w = widest(c, output_texts(lines, t.type), L.label_px) + L.label_px;
  L.out_w = L.kind == MatrixLines::Columns ? 0 : std::max(value_w, L.kind == MatrixLines::Rows ? widest(c, names, L.label_px) : 0.0f);
  L.name_w = widest(c, names, L.label_px) + L.label_px * 0.5f;
}

// Rows tall enough for their values at the smallest text size: as many as fit in `total`, from
// the block's first row on; `under` output lines as tall as a row, or as their names.
void layout_rows(const core::Trace& t, float total, std::size_t under, float min_px, MatrixLayout& L) {
  const float out_min = L.label_px * 1.35f;
  const float for_rows = total - float(under) * (out_min + L.gap) + L.gap;
  L.rows = int(std::clamp<float>(std::floor(for_rows / (min_px * 1.3f + L.gap)), 1, float(win(t).rows)));
  L.first_row = std::min(first_owned_row(t), int(win(t).rows) - L.rows);
  L.cell_h = (total + L.gap) / float(L.rows + int(under)) - L.gap;
  if (L.cell_h < out_min) L.cell_h = for_rows / float(L.rows) - L.gap;
  L.cell_h = std::max(1.0f, L.cell_h);
}

// Labels every 1st, 2nd, 4th... row or column, where each has room for its text.
void label_steps(Canvas& c, const core::Trace& t, MatrixLayout& L) {
  const float number_w = c.text_width(std::to_string(win(t).col + win(t).cols - 1), L.label_px) * 1.15f;
  while (L.row_step < 16 && L.row_step * (L.cell_h + L.gap) < L.label_px * 1.05f) L.row_step *= 2;
  while (L.col_step < 32 && L.col_step * (L.cell_w + L.gap) < number_w) L.col_step *= 2;
}

// The labels' size (the matrix needs the room more than its labels), a text line's height, the
// gap between cells, and how many output lines go under the grid.
struct Metrics {
  float label_px, line, gap;
  std::size_t under;
};
Metrics metrics(const core::Trace& t, std::size_t lines, float width, float label_px, float min_px) {
  const float px = std::max(label_px * 0.85f, min_px);
  const auto kind = matrix_lines(t);
  return {px, px * 1.4f, std::max(1.0f, width * 0.0012f),
          kind == MatrixLines::Columns ? lines : kind == MatrixLines::Whole ? std::size_t(1) : std::size_t(0)};
}

// Space layout_matrix leaves around the rows: the heading and the column labels above, the
// summary and the shared memory's heading below.
float frame_height(const Metrics& m) { return m.line + m.label_px * 1.4f + m.gap * 5 + m.label_px * 0.3f + 2 * m.line; }

}  // namespace

float matrix_min_height(const core::Trace& t, float width, float label_px, float min_px) {
  const Metrics m = metrics(t, output_lines(t).size(), width, label_px, min_px);
  // At least four of the matrix's rows (or all it has): one row alone does not show a layout.
  const float rows = float(std::clamp<std::size_t>(win(t).rows, 1, 4));
  return frame_height(m) + rows * (min_px * 1.3f + m.gap) + float(m.under) * (m.label_px * 1.35f + m.gap);
}

MatrixLayout layout_matrix(Canvas& c, const core::Trace& t, const Rect& area, float label_px, float min_px) {
  MatrixLayout L;
  const core::Window& w = win(t);
  const auto lines = output_lines(t);
  const Metrics m = metrics(t, lines.size(), area.w, label_px, min_px);
  L.kind = matrix_lines(t);
  L.label_px = m.label_px;
  const float line = m.line;
  L.heading = {area.x, area.y, area.w, line};
  L.shared_heading = {area.x, area.y + area.h - line, area.w, line};
  L.summary = {area.x, L.shared_heading.y - line, area.w, line};
  float label_w = 0;
  layout_widths(c, t, lines, L, &label_w);
  const float right = L.kind == MatrixLines::Rows ? L.out_w + L.label_px : 0.0f;
  L.gap = m.gap;
  const float top = L.heading.y + line + L.label_px * 1.4f;  // the column labels sit under the heading
  layout_rows(t, area.h - frame_height(m), m.under, min_px, L);
  L.cell_w = std::max(1.0f, (area.w - label_w - right - (float(w.cols) - 1) * L.gap) / float(std::max<std::size_t>(w.cols, 1)));
  L.cell_w = std::min(L.cell_w, std::max(L.cell_h * 3, L.label_px * 4));  // a single column stays a column
  L.cell_h = std::min(L.cell_h, L.cell_w * 1.2f);
  L.grid = {area.x + label_w, top, w.cols * (L.cell_w + L.gap) - L.gap, L.rows * (L.cell_h + L.gap) - L.gap};
  L.outputs = L.kind == MatrixLines::Rows ? Rect{L.grid.x + L.grid.w + L.label_px, L.grid.y, L.out_w, L.grid.h}
                                          : Rect{L.grid.x, L.grid.y + L.grid.h + L.gap * 4, L.grid.w, area.h};
  label_steps(c, t, L);
  return L;
}

namespace {

// The view's context and where the matrix goes in it.
struct MatrixPaint : ViewContext {
  const MatrixLayout& M;
};

// One text size for every value of the window: the largest at which the widest fits a cell.
float value_px(const MatrixPaint& p) {
  std::vector<std::string> texts;
  for (double v : win(p.t).values) texts.push_back(short_value(v, p.t.type));
  const float wide = widest(p.c, texts, 20);
  const float px = std::min(p.M.cell_h * 0.8f, p.M.cell_w * 0.5f);
  return wide > 0 ? std::min(px, 20 * p.M.cell_w * 0.88f / wide) : px;
}

void draw_labels(const MatrixPaint& p) {
  const core::Window& w = win(p.t);
  p.c.text(p.M.heading.x, p.M.col_label(0).cy(), "col", p.M.label_px, p.pal.muted);
  for (std::size_t col = 0; col < w.cols; col += std::size_t(p.M.col_step)) {
    const Rect r = p.M.col_label(int(col));
    p.c.text(r.cx(), r.cy(), std::to_string(w.col + col), p.M.label_px, p.pal.muted, Align::Center);
  }
  for (std::size_t row = std::size_t(p.M.first_row); row < std::size_t(p.M.first_row + p.M.rows);
       row += std::size_t(p.M.row_step)) {
    const Rect r = p.M.row_label(int(row));
    p.c.text(r.x, r.cy(), row_text(p.t, row), p.M.label_px, row_owned(p.t, row) ? p.pal.text : p.pal.muted);
  }
}

// A strip left of each row whose threads the kernel names, in their strips' colour (the memory
// view's): where rows own segments of lanes, every other row's a shade darker. Returns whether
// it drew any.
bool draw_row_threads(const MatrixPaint& p) {
  bool any = false;
  for (int r = p.M.first_row; r < p.M.first_row + p.M.rows; ++r)
    if (const auto th = core::row_threads(p.t, win(p.t).row + std::size_t(r))) {
      const Rect cell = p.M.cell(r, 0);
      const float w = p.M.label_px * 0.35f;
      p.c.rect({cell.x - p.M.label_px * 0.15f - w, cell.y, w, cell.h}, thread_band_color(p.t, th->first, true, p.pal));
      any = true;
    }
  return any;
}

// Returns whether it framed any cell as loaded.
bool draw_cells(const MatrixPaint& p, const std::set<long long>& loads) {
  const core::Window& w = win(p.t);
  const Scale scale = value_scale(&w.values, w.values.size());
  const float px = value_px(p), mark = std::max(2.0f, std::min(p.M.cell_w, p.M.cell_h) * 0.12f);
  bool any = false;
  for (std::size_t r = std::size_t(p.M.first_row); r < std::size_t(p.M.first_row + p.M.rows); ++r)
    for (std::size_t col = 0; col < w.cols; ++col) {
      const std::size_t i = r * w.cols + col;
      const bool own = owned(p.t, r, col);
      const bool load = loads.count((long long)((w.row + r) * p.t.cols + w.col + col)) > 0;
      any = any || load;
      const Color fill = own ? value_color(scale.at(w.values[i])) : p.pal.padding;
      const Rect cell = p.M.cell(int(r), int(col));
      p.c.rect(cell, fill, load ? p.pal.read : fill, load ? mark : 0);
      if (px >= p.min_px)
        p.c.text(cell.cx(), cell.cy(), short_value(w.values[i], p.t.type), px, own ? text_on(fill) : p.pal.muted, Align::Center);
    }
  return any;
}

// An output line's name: in the row labels' column (Columns), over its column (Rows), or
// before its cell (Whole).
void draw_line_name(const MatrixPaint& p, const std::string& name, const Rect& first) {
  if (p.M.kind == MatrixLines::Columns)
    p.c.text(p.M.heading.x, first.cy(), name, p.M.label_px, p.pal.text);
  else if (p.M.kind == MatrixLines::Rows)
    fitted_text(p.c, first.x, p.M.col_label(0).cy(), name, p.M.label_px, p.min_px,
                p.M.heading.x + p.M.heading.w - first.x, p.pal.text);
  else
    p.c.text(first.x - p.M.name_w, first.cy(), name, p.M.label_px, p.pal.text);
}

void draw_outputs(const MatrixPaint& p, const std::vector<OutputLine>& lines) {
  const float mark = std::max(2.0f, std::min(p.M.cell_w, p.M.cell_h) * 0.12f);
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const auto& cells = lines[k].cells;
    std::vector<double> values;
    for (const auto& cell : cells) values.push_back(cell.value);
    const Scale scale = value_scale(&values, values.size());
    std::vector<std::string> texts;
    for (double v : values) texts.push_back(short_value(v, p.t.type));
    const Rect first = p.M.output(int(k), 0);
    const float wide = widest(p.c, texts, 20);
    const float px = wide > 0 ? std::min(first.h * 0.8f, 20 * first.w * 0.88f / wide) : 0;
    draw_line_name(p, lines[k].name, first);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (p.M.kind == MatrixLines::Rows && !p.M.shows_row(int(i))) continue;
      const Rect r = p.M.output(int(k), int(i));
      const bool known = cells[i].known;
      const Color fill = known ? value_color(scale.at(cells[i].value)) : p.pal.padding;
      p.c.rect(r, fill, cells[i].own ? p.pal.written : fill, cells[i].own ? mark : 0);
      if (known && px >= p.min_px) p.c.text(r.cx(), r.cy(), texts[i], px, text_on(fill), Align::Center);
    }
  }
}

// The block's own results, in words: what the cells beside or under the matrix hold.
std::string summary(const core::Trace& t, const std::vector<OutputLine>& lines) {
  const std::string b = "block " + std::to_string(t.trace_block), word = core::result_word(t.op);
  const OutputCell* first = nullptr;
  std::size_t count = 0;
  for (const auto& l : lines)
    for (const auto& cell : l.cells)
      if (cell.own) first = first ? first : &cell, ++count;
  switch (matrix_lines(t)) {
    case MatrixLines::Rows:
      if (core::second_pass(t)) {
        const std::size_t chunks = t.grid / t.rows, mine = std::size_t(t.trace_block), row = mine / chunks;
        const std::string part = mine < t.partials.size() ? ": " + short_value(t.partials[mine], t.type) : "";
        const std::string out = row < t.outputs.size() ? ": " + short_value(t.outputs[row], t.type) : "";
        const std::string chunk = " of row " + std::to_string(row) + "'s chunk " + std::to_string(mine % chunks) + part,
                          into = std::to_string(chunks) + " chunk results into out[" + std::to_string(row) + "]" + out;
        if (t.first_block_waits && mine % chunks == 0)  // first-waits: this block is the row's first
          return b + " holds the " + word + chunk + ", waits for the row's other " + std::to_string(chunks - 1) +
                 " and folds all " + into;
        const char* folds = t.first_block_waits ? "; the row's first block waits for it and folds its "
                            : t.combine == kernels::Combine::LastBlock ? "; the row's last block to finish folds its "
                                                                       : "; a second pass combines the row's ";
        return b + " writes the " + word + chunk + folds + into;
      }
      if (!first) return "out holds each row's " + word + "; " + b + "'s row lies outside the rows shown";
      if (count > 1)  // row segments: a row a warp, or several a warp
        return "out holds each row's " + word + "; " + b + " writes out[" + range(first->index, count) +
               "] of the rows shown" +
               (t.geometry.segment_lanes > 0
                    ? ": each row's result from the first of its " + std::to_string(t.geometry.segment_lanes) + " lanes"
                    : "");
      return "out holds each row's " + word + "; " + b + " writes row " + std::to_string(first->index) + "'s " + word +
             " to out[" + std::to_string(first->index) + "]: " + short_value(first->value, t.type);
    case MatrixLines::Columns:
      if (!first) return b + "'s columns lie outside the columns shown";
      if (!core::second_pass(t))
        return "out holds each column's " + word + "; " + b + " writes out[" + range(first->index, count) +
               "] of the columns shown" + (t.geometry.indexing == kernels::Indexing::ColumnTiles ? ": one chunk covers every row" : ", a thread a column");
      return "partials: each chunk of rows' column " + word + "s; " + b + " writes chunk " + std::to_string(chunk_of(t)) +
             "'s for columns " + range(first->index - chunk_of(t) * t.cols, count) +
             "; a second pass combines each column's partials into out";
    case MatrixLines::Whole:
      if (t.grid <= 1) return b + " writes one partial for the tiles it strided over: the whole matrix's result";
      return b + " writes one partial for the tiles it strided over; a second pass combines the " +
             std::to_string(t.grid) + " partials into the whole matrix's result";
  }
  return {};
}

}  // namespace

std::vector<LegendEntry> draw_matrix(const ViewContext& ctx, const MatrixLayout& L) {
  auto& [c, t, stage, memory_layout, pal, options, min_px] = ctx;
  const MatrixPaint p{ctx, L};
  const core::Window& w = win(t);
  const std::size_t rows = std::size_t(L.rows);
  const std::string shown = rows < t.rows || w.cols < t.cols
                                ? ", showing " + std::string(rows == 1 ? "row " : "rows ") +
                                      range(w.row + std::size_t(L.first_row), rows) +
                                      (w.cols == 1 ? " and column " : " and columns ") + range(w.col, w.cols)
                                : "";
  fitted_text(c, L.heading.x, L.heading.cy(),
              "matrix " + std::to_string(t.rows) + " x " + std::to_string(t.cols) + " (row-major)" + shown, L.label_px,
              min_px, L.heading.w, pal.text);
  draw_labels(p);
  const bool threads = draw_row_threads(p);
  const core::Stage& s = t.stages[std::size_t(stage)];
  const bool cut = core::loads_cut(s), any_load = draw_cells(p, core::loaded_elements(s));
  const auto lines = output_lines(t);
  draw_outputs(p, lines);
  fitted_text(c, L.summary.x, L.summary.cy(), summary(t, lines), L.label_px, min_px, L.summary.w, pal.muted);
  std::vector<LegendEntry> legend{{value_color(0.7f), "cell block " + std::to_string(t.trace_block) + " reads"},
                                  {pal.padding, "other blocks' cells"}};
  const std::string first = "loaded in this stage (first " + std::to_string(kernels::kLoadSlots) + " loads a thread)";
  if (any_load) legend.push_back({pal.read, cut ? first : "loaded in this stage", true});
  legend.push_back({pal.written, "block " + std::to_string(t.trace_block) + "'s results", true});
  if (threads) {
    const int k = t.geometry.segment_lanes;
    legend.push_back({thread_band_color(t, 0, true, pal), "by a row's label: the threads that add it"});
    if (k > 0 && k < 32)
      legend.push_back({thread_band_color(t, k, true, pal),
                        "darker: odd rows' " + core::count_text(std::size_t(k), "lane", "lanes")});
  }
  return legend;
}

}  // namespace rl::render
