// The CPU model of one block of the array kernels: what a traced block records (Rec) and the
// block model whose family parts live beside it (tree_model.h, shuffle_model.h, cg_model.h,
// hopper_model.h), one file a kernel file. Included by the model's .cpp files alone.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "../algorithms.h"
#include "../reduce_ops.h"
#include "../stage_tags.h"
#include "model.h"

namespace rl::model::detail {

using kernels::Algo;
using kernels::RawTrace;

// Mirrors TraceProbe: records the traced block, does nothing for the others.
template <class T>
struct Rec {
  RawTrace<T>* raw = nullptr;
  std::size_t cell(int k, int t) const { return std::size_t(k) * raw->block + t; }
  void stage(int k, int tag, int param) const {
    if (raw) raw->tags[k] = tag, raw->params[k] = param;
  }
  void work(int k, int t, bool did) const {
    if (raw) raw->active[cell(k, t)] = did ? 1 : 0;
  }
  void read(int k, int t, int slot, int index) const {
    if (raw) raw->access[cell(k, t) * raw->shape.slots + slot] = 2 * index;
  }
  void write(int k, int t, int slot, int index) const {
    if (raw) raw->access[cell(k, t) * raw->shape.slots + slot] = 2 * index + 1;
  }
  void remote_read(int k, int t, int slot, int rank, int index) const {
    if (!raw) return;
    raw->access[cell(k, t) * raw->shape.slots + slot] = 2 * index;
    raw->sources[cell(k, t) * raw->shape.slots + slot] = rank;
  }
  void load(int k, int t, int slot, std::size_t index, int width = 1) const {
    if (raw && slot < raw->shape.load_slots)
      raw->loads[cell(k, t) * raw->shape.load_slots + slot] = kernels::load_code(index, width);
  }
  void lanes(int k, const std::vector<T>& v) const {
    if (!raw) return;
    std::copy(v.begin(), v.end(), raw->lanes.begin() + cell(k, 0));
    raw->has_lanes[k] = 1;
  }
  void shared(int k, const std::vector<T>& smem, int count) const {
    if (!raw) return;
    std::copy_n(smem.begin(), count, raw->shared.begin() + std::size_t(k) * raw->shape.shared_size);
    raw->shared_count[k] = count;
  }
};

template <class T, class Op>
struct Model {
  Algo algo;
  int B;
  std::size_t grid;                                              // of the pass being modelled
  int cluster = 1;                                               // blocks a cluster (cluster-dsmem)
  const std::vector<std::vector<std::size_t>>* taken = nullptr;  // work-queue: each block's tickets, in order
  // Elements a 16-byte load reads: 16 / the input element's bytes (8 halves where T is float).
  std::size_t per = kernels::vector_elements(sizeof(T));

  static T id() { return Op::template identity<T>(); }
  // The catalog row whose columns choose this model's behaviour, looked up here alone.
  const kernels::AlgorithmRow& rules() const { return kernels::row(algo); }

  // in[i] or the identity past the end, as load_or_identity: thread t's slot-th load.
  static T at(const T* in, std::size_t n, std::size_t i, const Rec<T>& rec, int t, int slot) {
    if (i >= n) return id();
    rec.load(0, t, slot, i);
    return in[i];
  }

  // Grid-stride accumulation of thread t of block b, as the kernels do it.
  T grid_stride(const T* in, std::size_t n, std::size_t b, int t, const Rec<T>& rec) const {
    T acc = id();
    const std::size_t stride = grid * B;
    int slot = 0;
    for (std::size_t i = b * B + t; i < n; i += stride) acc = Op{}(acc, at(in, n, i, rec, t, slot++));
    return acc;
  }

  // 16-byte vectors: four 4-byte elements, two doubles or eight halves, folded in order.
  T fold_vector(T acc, const T* in, std::size_t vector) const {
    for (std::size_t e = 0; e < per; ++e) acc = Op{}(acc, in[per * vector + e]);
    return acc;
  }
  // The same, loaded by the thread from global memory: one load of them all.
  T vector_load(T acc, const T* in, std::size_t vector, const Rec<T>& rec, int t, int slot) const {
    rec.load(0, t, slot, per * vector, int(per));
    return fold_vector(acc, in, vector);
  }

  // fold_vectors (shuffle.cuh): thread t of block b's 16-byte vectors by grid stride, then its
  // scalar tail.
  T vectors_fold(const T* in, std::size_t n, std::size_t b, int t, const Rec<T>& rec) const {
    const std::size_t gid = b * B + t, threads = grid * B, vectors = n / per;
    T acc = id();
    int slot = 0;
    for (std::size_t i = gid; i < vectors; i += threads) acc = vector_load(acc, in, i, rec, t, slot++);
    for (std::size_t i = per * vectors + gid; i < n; i += threads) acc = Op{}(acc, at(in, n, i, rec, t, slot++));
    return acc;
  }
  // What thread t of block b holds before its block's tree: its vectors' fold where the row
  // loads 16-byte vectors by grid stride (the streaming forms), else its one element.
  T first_value(const T* in, std::size_t n, std::size_t b, int t, const Rec<T>& rec) const {
    if (rules().indexing == kernels::Indexing::Vectors) return vectors_fold(in, n, b, t, rec);
    return at(in, n, b * B + t, rec, t, 0);
  }
  int load_tag() const {
    return rules().indexing == kernels::Indexing::Vectors ? kernels::kTagVectorLoad : kernels::kTagLoad;
  }

  // One pass over in[0..n): every block's outputs in order (a cluster's one, for clusters).
  std::vector<T> pass(const T* in, std::size_t n, std::size_t blocks, RawTrace<T>* raw, std::size_t traced) const {
    std::vector<T> out;
    if (rules().tree == kernels::Tree::Cluster) {
      for (std::size_t c = 0; c < blocks / std::size_t(cluster); ++c)
        out.push_back(cluster_block(in, n, c, raw, traced));
      return out;
    }
    for (std::size_t b = 0; b < blocks; ++b)
      for (const T& v : block(in, n, b, Rec<T>{b == traced ? raw : nullptr})) out.push_back(v);
    return out;
  }

  // A block's outputs: one value, or one per tile.
  std::vector<T> block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    switch (rules().tree) {
      case kernels::Tree::Shuffle:
        return {rules().bulk_copy ? bulk_block(in, n, b, rec) : shuffle_block(in, n, b, rec)};
      case kernels::Tree::Redux: return {redux_block(in, n, b, rec)};
      case kernels::Tree::CgTiles:
      case kernels::Tree::CgTilesAsync:
      case kernels::Tree::CgBlock: return cg_block(in, n, b, rec);
      default: return {tree_block(in, n, b, rec)};
    }
  }
  // tree_model.h: the shared-memory trees
  T grid_stride_pairs(const T* in, std::size_t n, std::size_t b, int t, const Rec<T>& rec) const;
  T tree_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const;
  T tree(std::vector<T>& smem, const Rec<T>& rec) const;
  // shuffle_model.h: the warp-shuffle family
  static void shuffle_down(std::vector<T>& v, int offset, bool only_warp0);
  ops::Neumaier<T> compensated_fold(const T* in, std::size_t n, std::size_t gid, const Rec<T>& rec, int t) const;
  T fold_partials(const std::vector<T>& p) const;
  T shuffle_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const;
  std::vector<T> warp_sums(const std::vector<T>& v, const Rec<T>& rec, int k) const;
  void shuffle_tail(std::vector<T>& v, const Rec<T>& rec, int& k) const;
  void warp_shuffles(std::vector<T>& v, const Rec<T>& rec, int& k) const;
  // hopper_model.h: the Hopper kernels: bulk-async, redux-sync, cluster-dsmem
  T bulk_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const;
  T redux_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const;
  std::vector<T> warp_totals(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const;
  T cluster_block(const T* in, std::size_t n, std::size_t c, RawTrace<T>* raw, std::size_t traced) const;
  // cg_model.h: the cooperative-groups family
  static void tile_reduce(std::vector<T>& v, int tiles);
  std::vector<T> cg_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const;
  T block_finish(std::vector<T>& v, const std::vector<T>& smem, const Rec<T>& rec) const;
};

// Halves and bfloat16 as the accumulator's type, each converted once and exactly (every one is a
// float); the model then reads them 16 / sizeof(In) to a 16-byte load, as the kernel does.
template <class T, class In>
std::vector<T> widened(const In* in, std::size_t n) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<T>(in[i]);
  return out;
}

}  // namespace rl::model::detail
