// The CPU model of the short-row kernels (kernels/short_rows.cuh): MatrixModel's members for them.
#pragma once

#include "matrix_model.h"

namespace rl::model::detail {

// Row segments (kernels/short_rows.cuh), block b: each warp's groups of rows, a segment of
// `lanes` lanes a row, into out[row]. The stages record each warp's first group.
template <class T, class Op>
void MatrixModel<T, Op>::row_segments(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const {
  const int lanes = kernels::row_lanes(algo, m.cols, elem);
  const std::size_t vecs = m.cols / kernels::segment_load_elements(algo, m.cols, elem);
  const std::size_t per_warp = std::size_t(32 / lanes), warps = grid.count() * std::size_t(B / 32);
  const bool one_load = vecs <= std::size_t(lanes);  // the kernel's two paths: stage tag and rounds
  const int rounds = one_load ? kernels::kRowLoadsInFlight : 1;
  const int fold = one_load ? kernels::kTagRowLanes : kernels::kTagRowSegment;
  std::vector<std::vector<T>> stages(std::size_t(kernels::matrix_trace_shape(algo, B, m, elem).stages),
                                     std::vector<T>(B, T{}));
  std::vector<char> loaded(B, 0), grouped(B, 0);
  for (int w = 0; w < B / 32; ++w) {
    std::vector<int> slot(32, 0);
    const std::size_t g0 = b * std::size_t(B / 32) + std::size_t(w);
    for (std::size_t g = g0; g * per_warp < m.rows; g += std::size_t(rounds) * warps)
      for (int u = 0; u < rounds; ++u) {
        const std::size_t row0 = (g + std::size_t(u) * warps) * per_warp;
        const auto steps = segment_group(in, w, row0, rec, slot);
        for (int l = 0; l < 32; l += lanes)
          if (row0 + std::size_t(l / lanes) < m.rows) out[row0 + std::size_t(l / lanes)] = steps.back()[l];
        if (g != g0 || u != 0) continue;  // the stages show each warp's first group
        for (std::size_t k = 0; k < std::min(steps.size(), stages.size()); ++k)
          std::copy(steps[k].begin(), steps[k].end(), stages[k].begin() + w * 32);
        for (int l = 0; l < 32; ++l)
          loaded[w * 32 + l] = row0 + std::size_t(l / lanes) < m.rows && std::size_t(l % lanes) < vecs;
        std::fill_n(grouped.begin() + w * 32, 32, 1);
      }
  }
  for (std::size_t k = 0; k < stages.size(); ++k) {
    rec.stage(int(k), k == 0 ? fold : kernels::kTagShuffle, k == 0 ? lanes : lanes >> k);
    for (int t = 0; t < B; ++t)
      if (grouped[t]) rec.work(int(k), t, k > 0 || loaded[t]);
    rec.lanes(int(k), stages[k]);
  }
}

// One group of warp w: 32 / lanes rows from row0, a segment of `lanes` lanes a row. Each lane's
// fold of its segment's loads (recorded; slot: each lane's next), then the segmented shuffles:
// the warp's lanes after the loads and after each shuffle.
template <class T, class Op>
std::vector<std::vector<T>> MatrixModel<T, Op>::segment_group(const T* in, int w, std::size_t row0, const Rec<T>& rec,
                                                              std::vector<int>& slot) const {
  const int lanes = kernels::row_lanes(algo, m.cols, elem);
  const std::size_t per = kernels::segment_load_elements(algo, m.cols, elem), vecs = m.cols / per;
  std::vector<T> v(32, id());
  for (int l = 0; l < 32; ++l) {
    const std::size_t r = row0 + std::size_t(l / lanes);
    if (r >= m.rows) continue;
    for (std::size_t i = std::size_t(l % lanes); i < vecs; i += std::size_t(lanes)) {
      for (std::size_t e = 0; e < per; ++e) v[l] = Op{}(v[l], in[r * m.cols + i * per + e]);
      rec.load(0, w * 32 + l, slot[l]++, r * m.cols + i * per, int(per));
    }
  }
  return segment_shuffles(v, lanes);
}

// A warp's lanes, then after each __shfl_down_sync inside segments of `lanes` (width `lanes`): a
// lane past its segment's end gets its own value back. Shared by the row segments and flat-rows.
template <class T, class Op>
std::vector<std::vector<T>> MatrixModel<T, Op>::segment_shuffles(std::vector<T> v, int lanes) const {
  std::vector<std::vector<T>> steps{v};
  for (int off = lanes / 2; off > 0; off /= 2) {
    std::vector<T> next = v;
    for (int l = 0; l < 32; ++l) next[l] = Op{}(v[l], l % lanes + off < lanes ? v[l + off] : v[l]);
    v.swap(next);
    steps.push_back(v);
  }
  return steps;
}

// thread-per-row (kernels/short_rows.cuh), block b: its tiles of rows, tile_cols columns at a
// time, each thread adding its own row; into out[row]. Loads are recorded throughout, the
// stages for the first tile.
template <class T, class Op>
void MatrixModel<T, Op>::row_tile(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const {
  const int w0 = kernels::row_tile_cols(m.cols, B, sizeof(T)), pitch = kernels::row_tile_pitch(w0);
  const std::size_t threads = std::size_t(B);
  std::vector<int> slot(threads, 0);
  bool first = true;
  for (std::size_t r0 = b * threads; r0 < m.rows; r0 += grid.count() * threads) {
    const std::size_t rows = std::min(threads, m.rows - r0);
    std::vector<T> v(threads, id());
    for (std::size_t c0 = 0; c0 < m.cols; c0 += std::size_t(w0)) {
      const int w = int(std::min(std::size_t(w0), m.cols - c0));
      copy_tile(in, {r0, c0, int(rows), w, pitch}, first, slot, rec);
      for (std::size_t t = 0; t < rows; ++t)
        for (int c = 0; c < w; ++c) v[t] = Op{}(v[t], in[(r0 + t) * m.cols + c0 + std::size_t(c)]);
      for (int t = 0; t < B && first; ++t) {
        for (int c = 0; c < w && std::size_t(t) < rows; ++c) rec.read(1, t, c, t * pitch + c);
        rec.work(1, t, std::size_t(t) < rows);
      }
      if (first) rec.stage(1, kernels::kTagRowWalk, w), rec.lanes(1, v);
      first = false;
    }
    for (std::size_t t = 0; t < rows; ++t) out[r0 + t] = v[t];
  }
}

// A tile's copy as the kernel records it (kernels/short_rows.cuh, <<< tile-copy): thread t
// takes the tile's elements t, t + B, ... (a 16-byte vector of them at a time where the tile
// holds whole rows, then the last ones one at a time), each into cell row * pitch + column;
// then its row's pad cell. Every load is recorded (slot: each thread's next); the stores and
// the tile for the first tile only.
template <class T, class Op>
void MatrixModel<T, Op>::copy_tile(const T* in, TileAt a, bool first, std::vector<int>& slot, const Rec<T>& rec) const {
  const int per = int(kernels::row_tile_load_elements(m.cols, B, sizeof(T)));
  const int count = a.rows * a.w, vectors = per > 1 ? count / per : 0;
  std::vector<T> smem(std::size_t(B) * std::size_t(a.pitch), T{});
  for (int t = 0; t < B; ++t) {
    int stored = 0;
    const auto store = [&](int e) {  // the tile's element e
      const int cell = e / a.w * a.pitch + e % a.w;
      smem[std::size_t(cell)] = in[(a.r0 + std::size_t(e / a.w)) * m.cols + a.c0 + std::size_t(e % a.w)];
      if (first) rec.write(0, t, stored, cell);
      ++stored;
    };
    for (int j = t; j < vectors; j += B) {
      rec.load(0, t, slot[std::size_t(t)]++, a.r0 * m.cols + std::size_t(j) * std::size_t(per), per);
      for (int q = 0; q < per; ++q) store(j * per + q);
    }
    for (int e = vectors * per + t; e < count; e += B) {
      rec.load(0, t, slot[std::size_t(t)]++, (a.r0 + std::size_t(e / a.w)) * m.cols + a.c0 + std::size_t(e % a.w));
      store(e);
    }
    if (!first) continue;
    if (t < a.rows && a.w < a.pitch)
      smem[std::size_t(t * a.pitch + a.w)] = id(), rec.write(0, t, stored, t * a.pitch + a.w);
    rec.work(0, t, stored > 0);
  }
  if (first) rec.stage(0, kernels::kTagTileCopy, a.pitch), rec.shared(0, smem, a.rows * a.pitch);
}

}  // namespace rl::model::detail
