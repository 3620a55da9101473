// The CPU model of the warp-shuffle family (kernels/shuffle.cuh, block_shuffle.cuh, chunk_ends.cuh,
// shuffle_rows.cuh): Model's members for it.
#pragma once

#include "block_model.h"

namespace rl::model::detail {

// __shfl_down_sync(v, offset) in every warp: a lane past the warp's end gets its own value.
template <class T, class Op>
void Model<T, Op>::shuffle_down(std::vector<T>& v, int offset, bool only_warp0) {
  const std::vector<T> before = v;
  const int limit = only_warp0 ? std::min<int>(32, int(v.size())) : int(v.size());
  for (int t = 0; t < limit; ++t) {
    const int lane = t % 32;
    v[t] = Op{}(before[t], lane + offset < 32 ? before[t + offset] : before[t]);
  }
}

// compensated's loop: warp-shuffle-vectorized's elements in its order into a Neumaier sum
// (kernels/reduce_ops.h, as the kernel adds). Sums of floats and doubles only.
template <class T, class Op>
ops::Neumaier<T> Model<T, Op>::compensated_fold(const T* in, std::size_t n, std::size_t gid, const Rec<T>& rec,
                                                int t) const {
  const std::size_t threads = grid * B, vectors = n / per;
  ops::Neumaier<T> acc;
  int slot = 0;
  for (std::size_t i = gid; i < vectors; i += threads, ++slot) {
    rec.load(0, t, slot, per * i, int(per));
    for (std::size_t e = 0; e < per; ++e) acc = ops::add(acc, in[per * i + e]);
  }
  for (std::size_t i = per * vectors + gid; i < n; i += threads) acc = ops::add(acc, at(in, n, i, rec, t, slot++));
  return acc;
}

// fold_last_chunk over one row of partials (vectorized-ordered, compensated): thread t folds the
// 16-byte vectors t, t + B, ... (single partials where their bytes are no multiple of 16), then
// block_shuffle's steps.
template <class T, class Op>
T Model<T, Op>::fold_partials(const std::vector<T>& p) const {
  const std::size_t step = kernels::rows_hold_vectors(p.size(), sizeof(T)) ? kernels::vector_elements(sizeof(T)) : 1;
  std::vector<T> v(B, id());
  for (int t = 0; t < B; ++t)
    for (std::size_t i = std::size_t(t); i < p.size() / step; i += std::size_t(B))
      for (std::size_t e = 0; e < step; ++e) v[t] = Op{}(v[t], p[i * step + e]);
  int k = 0;
  shuffle_tail(v, Rec<T>{}, k);
  return v[0];
}

template <class T, class Op>
T Model<T, Op>::shuffle_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
  std::vector<T> v(B);
  const bool queue = rules().indexing == kernels::Indexing::Tickets;
  const bool vectorized = rules().indexing == kernels::Indexing::Vectors || queue;
  const bool compensated = rules().compensated;
  std::vector<ops::Neumaier<T>> lost(compensated ? B : 0);
  for (int t = 0; t < B; ++t) {
    if (queue) {
      // Each ticket: kQueueVectors vectors a block apart; then the scalar tail by grid stride.
      const std::size_t vectors = n / per, chunk = std::size_t(kernels::kQueueVectors) * B;
      T acc = id();
      int slot = 0;
      for (std::size_t c : (*taken)[b])
        for (std::size_t j = c * chunk + t; j < std::min(vectors, (c + 1) * chunk); j += B)
          acc = vector_load(acc, in, j, rec, t, slot++);
      for (std::size_t i = per * vectors + b * B + t; i < n; i += grid * B)
        acc = Op{}(acc, at(in, n, i, rec, t, slot++));
      v[t] = acc;
    } else if (compensated) {
      if constexpr (!narrow::is_narrow<T>) {  // compensated takes floats and doubles (kernels::takes)
        lost[t] = compensated_fold(in, n, b * B + t, rec, t);
        v[t] = lost[t].sum;
      }
    } else if (vectorized) {
      v[t] = vectors_fold(in, n, b, t, rec);
    } else {
      v[t] = at(in, n, b * B + t, rec, t, 0);
    }
    rec.work(0, t, true);
  }
  rec.stage(0, vectorized ? kernels::kTagVectorLoad : kernels::kTagLoad, 0), rec.lanes(0, v);
  int k = 1;
  if (compensated) {
    if constexpr (!narrow::is_narrow<T>)
      for (int t = 0; t < B; ++t) v[t] = ops::total(lost[t]), rec.work(k, t, true);
    rec.stage(k, kernels::kTagCompensate, 0), rec.lanes(k, v);
    ++k;
  }
  shuffle_tail(v, rec, k);
  if (vectorized && kernels::unordered(rules().combine)) {
    for (int t = 0; t < B; ++t) rec.work(k, t, t == 0);
    rec.stage(k, kernels::kTagAtomic, 0);
  }
  return v[0];
}

// Lane 0 of each warp stores the warp's total to shared memory (block_shuffle, block_redux,
// cluster-dsmem's blocks): the cells, recorded as stage k.
template <class T, class Op>
std::vector<T> Model<T, Op>::warp_sums(const std::vector<T>& v, const Rec<T>& rec, int k) const {
  const int warps = B / 32;
  std::vector<T> smem(warps);
  for (int t = 0; t < B; ++t) rec.work(k, t, t % 32 == 0);
  for (int w = 0; w < warps; ++w) smem[w] = v[w * 32], rec.write(k, w * 32, 0, w);
  rec.stage(k, kernels::kTagWarpSums, 0), rec.shared(k, smem, warps);
  return smem;
}

// block_shuffle (block_shuffle.cuh): the block's values, one per thread, to one in v[0]; records
// stages from k on and leaves k past the last.
template <class T, class Op>
void Model<T, Op>::shuffle_tail(std::vector<T>& v, const Rec<T>& rec, int& k) const {
  const int warps = B / 32;
  warp_shuffles(v, rec, k);
  const std::vector<T> smem = warp_sums(v, rec, k);
  ++k;
  for (int t = 0; t < B; ++t) rec.work(k, t, t < 32);
  for (int t = 0; t < 32; ++t) {
    v[t] = t < warps ? smem[t] : id();
    if (t < warps) rec.read(k, t, 0, t);
  }
  rec.stage(k, kernels::kTagFinalLoad, 0), rec.lanes(k, v);
  ++k;
  for (int offset = 16; offset > 0; offset >>= 1, ++k) {
    shuffle_down(v, offset, true);
    for (int t = 0; t < B; ++t) rec.work(k, t, t < 32);
    rec.stage(k, kernels::kTagFinalShuffle, offset), rec.lanes(k, v);
  }
}

// warp_shuffles (block_shuffle.cuh): five shuffles down in every warp, stages from k on.
template <class T, class Op>
void Model<T, Op>::warp_shuffles(std::vector<T>& v, const Rec<T>& rec, int& k) const {
  for (int offset = 16; offset > 0; offset >>= 1, ++k) {
    shuffle_down(v, offset, false);
    for (int t = 0; t < B; ++t) rec.work(k, t, true);
    rec.stage(k, kernels::kTagShuffle, offset), rec.lanes(k, v);
  }
}

}  // namespace rl::model::detail
