// The CPU model of flat-rows (kernels/flat_rows.cuh): MatrixModel's members for it. It meets its
// row's lanes as the row segments do (segment_shuffles, short_rows_model.h).
#pragma once

#include "matrix_model.h"

namespace rl::model::detail {

// flat-rows (kernels/flat_rows.cuh), block b: its run of rows tile by tile, `lanes` neighbouring
// threads a row of each tile, a row cut by a tile's end carrying its sum to the next; into
// out[row]. `in` holds the elements widened to T where halves or bfloat16 add in float; the
// tiles, runs and copies are the elements' (elem bytes). Loads (the matrix's last elements past its last whole vector)
// are recorded throughout; the stages for the first tile, each warp's first rows.
template <class T, class Op>
void MatrixModel<T, Op>::flat_rows(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const {
  const std::size_t per = kernels::vector_elements(elem), tile = kernels::flat_tile_elements(elem);
  const kernels::FlatRun run = kernels::flat_run(m.rows, m.cols, grid.count(), b, elem);
  const std::size_t copy_end = kernels::flat_copy_end(run, m.size(), per);
  const int lanes = kernels::flat_row_lanes(m.cols), c = int(m.cols);
  std::vector<T> carry(2, T{});
  for (std::size_t k = 0; k * tile < run.hi - run.base; ++k) {
    const FlatTile at = kernels::flat_tile(run, m.cols, tile, k, lanes);
    const std::size_t t0 = at.t0, w1 = t0 + std::size_t(at.to);
    for (int t = 0; t < B && w1 > copy_end; ++t) {  // the last elements, one a thread
      int slot = 0;
      for (std::size_t e = copy_end + std::size_t(t); e < w1; e += std::size_t(B)) rec.load(0, t, slot++, e);
    }
    if (k == 0) flat_first_tile(in, t0, copy_end, at.to, rec);
    std::vector<std::vector<T>> recorded;  // the first tile's stages 1 on, the block's lanes
    for (int q = 0; q < at.tasks; q += B)  // the block's threads take tasks q to q + B - 1
      for (int w = 0; w < B / 32 && q + 32 * w < at.tasks; ++w) {
        const auto steps = flat_warp(in + t0, at, q + 32 * w);
        if (k == 0 && q == 0) flat_record(w, at, steps, recorded, rec);
        for (int l = 0; l < 32; l += lanes) {
          const int t = q + 32 * w + l, rs = at.f0 + t / lanes * c;
          if (t >= at.tasks) continue;
          T x = steps.back()[std::size_t(l)];
          if (rs < at.from) x = Op{}(carry[k & 1], x);  // the row began in the tile before
          if (rs + c > at.to)
            carry[(k + 1) & 1] = x;  // it goes on in the next tile
          else
            out[at.first_row + std::size_t(t / lanes)] = x;
        }
      }
    for (std::size_t s = 0; s < recorded.size(); ++s) rec.lanes(int(s) + 1, recorded[s]);
  }
}

// flat-rows' first tile as it arrives: the bulk copy's bytes (its whole vectors), every thread
// waiting, and the run's part of the tile in shared memory (cells from the tile's start).
template <class T, class Op>
void MatrixModel<T, Op>::flat_first_tile(const T* in, std::size_t t0, std::size_t copy_end, int to,
                                         const Rec<T>& rec) const {
  const std::size_t tile = kernels::flat_tile_elements(elem);
  const std::size_t copied = copy_end > t0 ? std::min(copy_end, t0 + tile) - t0 : 0;
  rec.stage(0, kernels::kTagBulkWait, int(copied * elem));
  for (int t = 0; t < B; ++t) rec.work(0, t, true);
  rec.shared(0, std::vector<T>(in + t0, in + t0 + std::size_t(to)), to);
}

// The warp whose first task is `first`, over a tile (cells from `tile`): each lane's fold of its
// row's piece, `lanes` cells apart, then each shuffle down inside segments of `lanes`
// (segment_shuffles).
template <class T, class Op>
std::vector<std::vector<T>> MatrixModel<T, Op>::flat_warp(const T* tile, const FlatTile& at, int first) const {
  const int lanes = kernels::flat_row_lanes(m.cols), c = int(m.cols);
  std::vector<T> v(32, id());
  for (int l = 0; l < 32; ++l) {
    const int t = first + l, rs = at.f0 + t / lanes * c, z = std::min(rs + c, at.to);
    for (int j = std::max(rs, at.from) + t % lanes; t < at.tasks && j < z; j += lanes)
      v[std::size_t(l)] = Op{}(v[std::size_t(l)], tile[j]);
  }
  return segment_shuffles(v, lanes);
}

// Warp w's first rows of the first tile, as the kernel records them: each lane's reads (cells,
// in order), whether it had a row's piece, and (into `lanes_at`, stage by stage from stage 1)
// its value after the fold and each shuffle.
template <class T, class Op>
void MatrixModel<T, Op>::flat_record(int w, const FlatTile& at, const std::vector<std::vector<T>>& steps,
                                     std::vector<std::vector<T>>& lanes_at, const Rec<T>& rec) const {
  const int lanes = kernels::flat_row_lanes(m.cols), c = int(m.cols);
  lanes_at.resize(steps.size(), std::vector<T>(std::size_t(B), T{}));
  for (int l = 0; l < 32; ++l) {
    const int t = 32 * w + l, rs = at.f0 + t / lanes * c, z = std::min(rs + c, at.to);
    int slot = 0;
    for (int j = std::max(rs, at.from) + t % lanes; t < at.tasks && j < z; j += lanes) rec.read(1, t, slot++, j);
    rec.work(1, t, t < at.tasks);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      if (k > 0) rec.work(int(k) + 1, t, true);
      lanes_at[k][std::size_t(t)] = steps[k][std::size_t(l)];
    }
  }
  rec.stage(1, kernels::kTagRowLanes, lanes);
  for (std::size_t k = 1; k < steps.size(); ++k) rec.stage(int(k) + 1, kernels::kTagShuffle, lanes >> k);
}

}  // namespace rl::model::detail
