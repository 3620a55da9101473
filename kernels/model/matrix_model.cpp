// The CPU model of the matrix family (kernels/matrix.cuh): its members, the passes, the entry.
#include <algorithm>
#include <type_traits>
#include <vector>

#include "../op_dispatch.h"
#include "matrix_model.h"
#include "flat_rows_model.h"
#include "short_rows_model.h"
#include "shuffle_model.h"
#include "tree_model.h"

namespace rl::model {
namespace detail {

// Row r's columns [begin, end) (the whole row, or one chunk of batched-rows-split): each thread's
// elements a block apart, one at a time.
template <class T, class Op>
T MatrixModel<T, Op>::batched_row(const T* in, std::size_t r, const Rec<T>& rec, std::size_t begin,
                                  std::size_t end) const {
  end = std::min(end, m.cols);
  std::vector<T> v(B, id());
  for (int t = 0; t < B; ++t) {
    int slot = 0;
    for (std::size_t c = begin + std::size_t(t); c < end; c += std::size_t(B)) {
      v[t] = Op{}(v[t], in[r * m.cols + c]);
      rec.load(0, t, slot++, r * m.cols + c);
    }
    rec.work(0, t, begin + std::size_t(t) < end);
  }
  rec.stage(0, kernels::kTagRowStride, 0);
  return row_tree(v, rec);
}

// batched-rows-vectorized's chunk c (of w columns) of row r: its 16-byte vectors of the row's body
// a block apart, then, in the row's first chunk, one element of the head and one of the tail a
// thread (kernels::row_vectors).
template <class T, class Op>
T MatrixModel<T, Op>::vector_chunk(const T* in, std::size_t r, const Rec<T>& rec, std::size_t c, std::size_t w) const {
  const std::size_t per = kernels::vector_elements(elem), start = r * m.cols;
  const kernels::RowVectors row = kernels::row_vectors(start, m.cols, per);
  const std::size_t begin = start + row.head + c * w, end = start + row.head + std::min(row.body, (c + 1) * w);
  std::vector<T> v(B, id());
  for (int t = 0; t < B; ++t) {
    int slot = 0;
    for (std::size_t i = begin + per * std::size_t(t); i < end; i += per * std::size_t(B)) {
      for (std::size_t e = 0; e < per; ++e) v[t] = Op{}(v[t], in[i + e]);
      rec.load(0, t, slot++, i, int(per));
    }
    const bool head = c == 0 && std::size_t(t) < row.head, tail = c == 0 && std::size_t(t) < row.tail;
    if (head) v[t] = Op{}(v[t], in[start + t]), rec.load(0, t, slot++, start + t);
    if (tail)
      v[t] = Op{}(v[t], in[start + row.head + row.body + t]), rec.load(0, t, slot++, start + row.head + row.body + t);
    rec.work(0, t, begin + per * std::size_t(t) < end || head || tail);
  }
  rec.stage(0, row.body ? kernels::kTagRowVector : kernels::kTagRowStride, 0);
  return row_tree(v, rec);
}

// A row's (or chunk's) values, one a thread, to one: warp shuffles or the shared-memory tree.
template <class T, class Op>
T MatrixModel<T, Op>::row_tree(std::vector<T>& v, const Rec<T>& rec) const {
  if (rules().tree == kernels::Tree::Shuffle) {
    rec.lanes(0, v);
    int k = 1;
    Model<T, Op>{Algo::WarpShuffle, B, 1}.shuffle_tail(v, rec, k);
    return v[0];
  }
  for (int t = 0; t < B; ++t) rec.write(0, t, 0, t);
  rec.shared(0, v, B);
  return Model<T, Op>{Algo::Sequential, B, 1}.tree(v, rec);
}

// Thread t's fold down rows r0, r0 + by, ... below `last` of its columns, loads recorded as
// fold_vectors and fold_singles make them: a 16-byte vector a row where rows are 16-byte aligned, else one
// load a column; column-sums: one column, one load a row.
template <class T, class Op>
std::vector<T> MatrixModel<T, Op>::fold_columns(const T* in, int t, const Rec<T>& rec,
                                                const std::vector<std::size_t>& cols, std::size_t r0, std::size_t by,
                                                std::size_t last) const {
  constexpr std::size_t per = kernels::vector_elements(sizeof(T));
  const bool vectors = rules().vectors && kernels::rows_hold_vectors(m.cols, sizeof(T));
  const std::size_t loads =
      vectors ? cols.size() / per : cols.size();  // a row's loads, a column past the edge included
  std::vector<T> v(cols.size(), id());
  for (std::size_t r = r0, row = 0; r < last; r += by, ++row)
    for (std::size_t c = 0; c < cols.size(); ++c) {
      if (cols[c] >= m.cols) continue;
      v[c] = Op{}(v[c], in[r * m.cols + cols[c]]);
      const int slot = int(row * loads + (vectors ? c / per : c));
      if (!vectors)
        rec.load(0, t, slot, r * m.cols + cols[c]);
      else if (c % per == 0)
        rec.load(0, t, slot, r * m.cols + cols[c], int(per));
    }
  return v;
}

// column-sums(-vectorized), block b: one partial per column of its tile, for its chunk of rows,
// into out[chunk][col]. Thread t keeps column c's sum in cell c * B + t.
template <class T, class Op>
void MatrixModel<T, Op>::column_block(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const {
  const int bx = kernels::matrix_block_x(algo, B, m.cols), by = B / bx, per_thread = kernels::matrix_thread_cols(algo);
  const std::size_t gx = b % grid.x, gy = b / grid.x, chunk = kernels::column_chunk_rows(m, B, grid.y);
  const std::size_t first = gy * chunk, last = std::min(m.rows, first + chunk);
  std::vector<T> smem(std::size_t(per_thread) * B);
  std::vector<std::vector<std::size_t>> cols(B);
  for (int t = 0; t < B; ++t) {
    cols[t] = kernels::matrix_thread_columns(algo, B, m.cols, gx, std::size_t(t % bx), sizeof(T));
    const std::size_t r0 = first + std::size_t(t / bx);
    const std::vector<T> v = fold_columns(in, t, rec, cols[t], r0, std::size_t(by), last);
    for (int c = 0; c < per_thread; ++c) smem[std::size_t(c) * B + t] = v[c], rec.write(0, t, c, c * B + t);
    rec.work(0, t, cols[t][0] < m.cols && r0 < last);
  }
  const bool vectorized = rules().vectors;
  rec.stage(0, vectorized ? kernels::kTagColumnVector : kernels::kTagColumnStride, 0),
      rec.shared(0, smem, int(smem.size()));
  int k = 1;
  for (int s = by / 2; s > 0; s /= 2, ++k) {
    std::vector<T> next = smem;
    for (int t = 0; t < B; ++t) {
      const bool w = t / bx < s;
      rec.work(k, t, w);
      for (int c = 0; c < per_thread && w; ++c) {
        const int a = c * B + t;
        next[a] = Op{}(smem[a], smem[a + s * bx]);
        rec.read(k, t, 3 * c, a), rec.read(k, t, 3 * c + 1, a + s * bx), rec.write(k, t, 3 * c + 2, a);
      }
    }
    smem.swap(next);
    rec.stage(k, kernels::kTagColumnStep, s), rec.shared(k, smem, int(smem.size()));
  }
  for (int tx = 0; tx < bx; ++tx)
    for (int c = 0; c < per_thread; ++c)
      if (cols[tx][c] < m.cols) out[gy * m.cols + cols[tx][c]] = smem[std::size_t(c) * B + tx];
}

template <class T, class Op>
T MatrixModel<T, Op>::naive_column(const T* in, std::size_t col, int t, const Rec<T>& rec) const {
  return fold(in, t, rec, [&](auto add) {
    for (std::size_t r = 0; r < m.rows; ++r) add(r * m.cols + col);
  });
}

template <class T, class Op>
T MatrixModel<T, Op>::block_2d(const T* in, std::size_t b, const Rec<T>& rec) const {
  const std::size_t bx = 32, by = std::size_t(B) / 32, gx = b % grid.x, gy = b / grid.x;
  std::vector<T> smem(B);
  for (int t = 0; t < B; ++t) {
    const std::size_t x0 = gx * bx + std::size_t(t) % bx, y0 = gy * by + std::size_t(t) / bx;
    smem[t] = fold(in, t, rec, [&](auto add) {
      for (std::size_t y = y0; y < m.rows; y += grid.y * by)
        for (std::size_t x = x0; x < m.cols; x += grid.x * bx) add(y * m.cols + x);
    });
    rec.work(0, t, x0 < m.cols && y0 < m.rows), rec.write(0, t, 0, t);
  }
  rec.stage(0, kernels::kTagTileStride, 0), rec.shared(0, smem, B);
  return Model<T, Op>{Algo::Sequential, B, 1}.tree(smem, rec);
}

// Every block of the first pass, in block order: what each left.
template <class T, class Op>
std::vector<T> MatrixModel<T, Op>::first_pass(const T* in, int traced, RawTrace<T>* raw) const {
  std::vector<T> out;
  const auto rec_for = [&](std::size_t b) { return Rec<T>{b == std::size_t(traced) ? raw : nullptr}; };
  for (std::size_t b = 0; b < grid.count(); ++b) {
    switch (rules().indexing) {
      case kernels::Indexing::RowPerBlock: out.push_back(batched_row(in, b, rec_for(b))); break;
      case kernels::Indexing::Tile2d: out.push_back(block_2d(in, b, rec_for(b))); break;
      case kernels::Indexing::RowChunks: {
        const std::size_t w = kernels::split_chunk_cols(m, grid.x), c = b % grid.x;
        out.push_back(rules().vectors ? vector_chunk(in, b / grid.x, rec_for(b), c, w)
                                      : batched_row(in, b / grid.x, rec_for(b), c * w, (c + 1) * w));
        break;
      }
      case kernels::Indexing::ColumnWalk: {
        std::vector<T> lanes(B, id());
        const Rec<T> rec = rec_for(b);
        for (int t = 0; t < B; ++t) {
          const std::size_t col = b * std::size_t(B) + std::size_t(t);
          if (col < m.cols) lanes[t] = naive_column(in, col, t, rec), out.push_back(lanes[t]);
          rec.work(0, t, col < m.cols);
        }
        rec.stage(0, kernels::kTagColumnWalk, 0), rec.lanes(0, lanes);
        break;
      }
      default: break;  // column-sums: laid out as a matrix below
    }
  }
  if (rules().indexing == kernels::Indexing::RowSegments) {  // out[row]
    out.assign(m.rows, id());
    for (std::size_t b = 0; b < grid.count(); ++b) row_segments(in, b, rec_for(b), out);
  }
  if (rules().indexing == kernels::Indexing::FlatTiles) {  // out[row]
    out.assign(m.rows, id());
    for (std::size_t b = 0; b < grid.count(); ++b) flat_rows(in, b, rec_for(b), out);
  }
  if (rules().indexing == kernels::Indexing::RowTile) {  // out[row]
    out.assign(m.rows, id());
    for (std::size_t b = 0; b < grid.count(); ++b) row_tile(in, b, rec_for(b), out);
  }
  if (kernels::is_column_sums(algo)) {  // out[chunk][col]
    out.assign(grid.y * m.cols, id());
    for (std::size_t b = 0; b < grid.count(); ++b) column_block(in, b, rec_for(b), out);
  }
  return out;
}

// elem: the input element's bytes (2 for halves added in float); later passes read T.
template <class T, class Op>
std::vector<T> reduce_matrix_with(const kernels::Plan& plan, const T* in, RawTrace<T>* raw,
                                  std::size_t elem = sizeof(T)) {
  const Algo algo = plan.algo();
  const kernels::Matrix m = plan.shape;
  const int B = plan.block;
  const kernels::Grid2 grid = plan.grid;
  if (raw) {
    raw->reset(kernels::matrix_trace_shape(algo, B, m, elem), B);
    raw->grid = grid.count();
  }
  const MatrixModel<T, Op> model{algo, m, B, grid, elem};
  std::vector<T> first = model.first_pass(in, plan.trace_block, raw);
  if (raw)
    raw->partials.assign(first.begin(), first.begin() + std::ptrdiff_t(std::min(first.size(), kernels::kMaxPartials)));
  if (plan.pass_count == 1) return first;
  if (kernels::is_column_sums(algo)) {  // phase 2: the same kernel over the partials, one chunk
    const kernels::Matrix parts{grid.y, m.cols};
    const MatrixModel<T, Op> second{algo, parts, B, {grid.x, 1}};
    return second.first_pass(first.data(), -1, nullptr);
  }
  const bool in_launch = plan.row->combine == kernels::Combine::LastBlock;
  if (kernels::is_row_chunks(algo) && !in_launch) {  // phase 2: batched-rows over the chunks' results
    const MatrixModel<T, Op> second{Algo::BatchedRows, {m.rows, grid.x}, B, {m.rows, 1}};
    return second.first_pass(first.data(), -1, nullptr);
  }
  if (kernels::is_row_chunks(algo)) {  // the row's last block (fold_last): the chunks' results of a row
    const kernels::Matrix parts{m.rows, grid.x};
    if (kernels::rows_hold_vectors(grid.x, sizeof(T)))  // whole vectors from an aligned start: no head, no tail
      return MatrixModel<T, Op>{algo, parts, B, {1, m.rows}}.first_pass(first.data(), -1, nullptr);
    // else one a load, a block apart, as batched-rows-shuffle reads a row
    return MatrixModel<T, Op>{Algo::BatchedRowsShuffle, parts, B, {m.rows, 1}}.first_pass(first.data(), -1, nullptr);
  }
  // block-2d: one block of B x 1 threads over the partials, then the tree
  std::vector<T> smem(B, Op::template identity<T>());
  for (int t = 0; t < B; ++t)
    for (std::size_t i = std::size_t(t); i < first.size(); i += std::size_t(B)) smem[t] = Op{}(smem[t], first[i]);
  return {Model<T, Op>{Algo::Sequential, B, 1}.tree(smem, {})};
}

template <class T, class In>
std::vector<T> run_matrix(const kernels::Plan& plan, kernels::OpKind op, const In* in, RawTrace<T>* trace) {
  return kernels::by_op<T, In>(plan.algo(), op, [&](auto o) {
    using Op = decltype(o);
    if constexpr (std::is_same_v<T, In>) {
      return reduce_matrix_with<T, Op>(plan, in, trace);
    } else {
      const std::vector<T> wide = widened<T>(in, plan.size());
      return reduce_matrix_with<T, Op>(plan, wide.data(), trace, sizeof(In));
    }
  });
}

#define RL_MATRIX(T, In) \
  template std::vector<T> run_matrix<T, In>(const kernels::Plan&, kernels::OpKind, const In*, RawTrace<T>*);
RL_MATRIX(int, int)
RL_MATRIX(float, float)
RL_MATRIX(double, double)
RL_FOR_EACH_NARROW_PAIR(RL_MATRIX)
#undef RL_MATRIX

}  // namespace detail

}  // namespace rl::model
