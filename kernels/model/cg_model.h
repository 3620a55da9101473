// The CPU model of the cooperative-groups family (kernels/cg.cuh): Model's members for it.
#pragma once

#include "block_model.h"

namespace rl::model::detail {

// cg::reduce over 32-thread tiles: a butterfly (floats), or redux.sync (ints, exact in
// any order); either way every lane ends with the tile's total, computed as below.
template <class T, class Op>
void Model<T, Op>::tile_reduce(std::vector<T>& v, int tiles) {
  for (int mask = 16; mask > 0; mask >>= 1) {
    const std::vector<T> before = v;
    for (int t = 0; t < tiles * 32; ++t) v[t] = Op{}(before[t], before[t ^ mask]);
  }
}

// The cg family's block: returns the block total, or each tile's total for the
// algorithms that emit one per tile (cg-warp, cg-reduce-update-async).
template <class T, class Op>
std::vector<T> Model<T, Op>::cg_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
  std::vector<T> v(B);
  const int tiles = B / 32;
  const bool strided = rules().indexing == kernels::Indexing::GridStride;
  for (int t = 0; t < B; ++t) {
    v[t] = strided ? grid_stride(in, n, b, t, rec) : at(in, n, b * B + t, rec, t, 0);
    rec.work(0, t, true);
  }
  rec.stage(0, strided ? kernels::kTagGridStride : kernels::kTagLoad, 0), rec.lanes(0, v);
  const kernels::Tree tree = rules().tree;
  if (tree == kernels::Tree::CgTilesAsync) {
    for (int t = 0; t < B; ++t) rec.work(1, t, true);
    rec.stage(1, kernels::kTagAtomic, 32);
  }
  tile_reduce(v, tiles);
  std::vector<T> tile_totals(tiles);
  for (int w = 0; w < tiles; ++w) tile_totals[w] = v[w * 32];
  if (tree == kernels::Tree::CgTilesAsync) return tile_totals;
  for (int t = 0; t < B; ++t) rec.work(1, t, true);
  rec.stage(1, kernels::kTagTileReduce, 32), rec.lanes(1, v);
  if (tree == kernels::Tree::CgTiles) return tile_totals;
  return {block_finish(v, tile_totals, rec)};
}

// Tile totals to shared memory, then the first tile reduces them (stages 2..4).
template <class T, class Op>
T Model<T, Op>::block_finish(std::vector<T>& v, const std::vector<T>& smem, const Rec<T>& rec) const {
  const int tiles = int(smem.size());
  for (int t = 0; t < B; ++t) rec.work(2, t, t % 32 == 0);
  for (int w = 0; w < tiles; ++w) rec.write(2, w * 32, 0, w);
  rec.stage(2, kernels::kTagTileSums, 0), rec.shared(2, smem, tiles);
  for (int t = 0; t < 32; ++t) {
    v[t] = t < tiles ? smem[t] : id();
    if (t < tiles) rec.read(3, t, 0, t);
  }
  for (int t = 0; t < B; ++t) rec.work(3, t, t < 32);
  rec.stage(3, kernels::kTagFinalLoad, 0), rec.lanes(3, v);
  tile_reduce(v, 1);
  for (int t = 0; t < B; ++t) rec.work(4, t, t < 32);
  rec.stage(4, kernels::kTagFinalReduce, 32), rec.lanes(4, v);
  return v[0];
}

}  // namespace rl::model::detail
