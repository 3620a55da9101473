// The CPU model of the Hopper kernels and their streaming forms (kernels/shuffle.cuh):
// Model's members for it.
#pragma once

#include "block_model.h"

namespace rl::model::detail {

// bulk-async and bulk-async-streaming (shuffle.cuh): the block's tiles (its
// row's tile, or 16 bytes a thread) arrive by bulk copy and thread t folds vectors t, t + B, ...
// of each (with a vector a thread, warp-shuffle-vectorized's elements in its order), then the
// scalar tail from global memory; block_shuffle's stages; one bulk reduction. The trace keeps the
// first tile.
template <class T, class Op>
T Model<T, Op>::bulk_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
  const std::size_t vectors = n / per, threads = grid * B, tile = kernels::bulk_tile_vectors(rules(), B);
  const std::size_t tiles = (vectors + tile - 1) / tile;
  const auto held = [&](std::size_t k) { return std::min(tile, vectors - k * tile); };
  const bool has = b < tiles;
  const int bytes = has ? int(held(b) * kernels::kVectorBytes) : 0;
  const int cells = bytes / int(sizeof(T));
  for (int t = 0; t < B; ++t) rec.work(0, t, t == 0), rec.work(1, t, has), rec.work(2, t, true);
  rec.stage(0, kernels::kTagBulkCopy, bytes), rec.stage(1, kernels::kTagBulkWait, bytes);
  if (has) rec.shared(1, std::vector<T>(in + b * tile * per, in + b * tile * per + cells), cells);
  std::vector<T> v(B, id());
  for (int t = 0; t < B; ++t) {
    int slot = 0;
    for (std::size_t k = b; k < tiles; k += grid)
      for (std::size_t j = std::size_t(t); j < held(k); j += std::size_t(B)) v[t] = fold_vector(v[t], in, k * tile + j);
    for (std::size_t i = per * vectors + b * B + t; i < n; i += threads)
      v[t] = Op{}(v[t], in[i]), rec.load(2, t, slot++, i);
  }
  rec.stage(2, kernels::kTagTileFold, 0), rec.lanes(2, v);
  int k = 3;
  shuffle_tail(v, rec, k);
  for (int t = 0; t < B; ++t) rec.work(k, t, t == 0);
  rec.stage(k, kernels::kTagBulkReduce, int(kernels::kBulkReduceBytes));
  return v[0];
}

// redux-sync (shuffle.cuh): one element a thread (redux-sync-streaming: its
// vectors by grid stride); each warp's redux, its total to shared memory, then the first warp's
// redux of those (and the streaming form's atomic). redux.sync leaves every lane the warp's total:
// the ints it takes reduce exactly in any order, so tile_reduce's butterfly gives the same.
template <class T, class Op>
T Model<T, Op>::redux_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
  const int warps = B / 32;
  std::vector<T> v(B);
  for (int t = 0; t < B; ++t) v[t] = first_value(in, n, b, t, rec), rec.work(0, t, true);
  rec.stage(0, load_tag(), 0), rec.lanes(0, v);
  tile_reduce(v, warps);
  for (int t = 0; t < B; ++t) rec.work(1, t, true);
  rec.stage(1, kernels::kTagRedux, 0), rec.lanes(1, v);
  const std::vector<T> smem = warp_sums(v, rec, 2);
  for (int t = 0; t < B; ++t) rec.work(3, t, t < 32);
  for (int t = 0; t < 32; ++t) {
    v[t] = t < warps ? smem[t] : id();
    if (t < warps) rec.read(3, t, 0, t);
  }
  rec.stage(3, kernels::kTagFinalLoad, 0), rec.lanes(3, v);
  tile_reduce(v, 1);
  for (int t = 0; t < B; ++t) rec.work(4, t, t < 32);
  rec.stage(4, kernels::kTagFinalRedux, 0), rec.lanes(4, v);
  if (kernels::unordered(rules().combine)) {
    for (int t = 0; t < B; ++t) rec.work(5, t, t == 0);
    rec.stage(5, kernels::kTagAtomic, 0);
  }
  return v[0];
}

// cluster-dsmem and cluster-dsmem-streaming (shuffle.cuh), block b up to its
// warp totals in shared memory (stages 0..6).
template <class T, class Op>
std::vector<T> Model<T, Op>::warp_totals(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
  std::vector<T> v(B);
  for (int t = 0; t < B; ++t) v[t] = first_value(in, n, b, t, rec), rec.work(0, t, true);
  rec.stage(0, load_tag(), 0), rec.lanes(0, v);
  int k = 1;
  warp_shuffles(v, rec, k);
  return warp_sums(v, rec, k);
}

// Cluster c: every block's warp totals; then thread t of the first block reads cell t % warps
// of block t / warps through distributed shared memory, and block_shuffle folds what it read.
// `traced`: the block whose stages go to raw.
template <class T, class Op>
T Model<T, Op>::cluster_block(const T* in, std::size_t n, std::size_t c, RawTrace<T>* raw, std::size_t traced) const {
  const int warps = B / 32;
  const std::size_t first = c * std::size_t(cluster);
  std::vector<std::vector<T>> totals;
  for (std::size_t b = first; b < first + std::size_t(cluster); ++b)
    totals.push_back(warp_totals(in, n, b, Rec<T>{b == traced ? raw : nullptr}));
  const Rec<T> rec{first == traced ? raw : nullptr};
  int k = 7;  // past warp_totals' load, five shuffles and warp sums
  std::vector<T> v(B, id());
  for (int t = 0; t < B; ++t) {
    const int from = t / warps;
    rec.work(k, t, from < cluster);
    if (from < cluster)
      v[t] = totals[std::size_t(from)][std::size_t(t % warps)], rec.remote_read(k, t, 0, from, t % warps);
  }
  rec.stage(k, kernels::kTagDsmemRead, cluster), rec.lanes(k, v);
  ++k;
  shuffle_tail(v, rec, k);
  return v[0];
}

}  // namespace rl::model::detail
