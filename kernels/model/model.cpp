#include "model.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../algorithms.h"
#include "../op_dispatch.h"
#include "../reduce_ops.h"
#include "../stage_tags.h"

namespace rl::model {
namespace {

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
    if (raw && slot < raw->shape.load_slots) raw->loads[cell(k, t) * raw->shape.load_slots + slot] = kernels::load_code(index, width);
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

// Who works in a tree step, and on which cells: thread t combines smem[a] and smem[a + s]
// into smem[a].
enum class Rule { LowHalf, Interleaved, Strided, NonPow2, LastWarp };
struct Step {
  int tag;
  unsigned s;
  Rule rule;
};

std::vector<Step> tree_steps(Algo algo, int B) {
  std::vector<Step> out;
  const unsigned b = unsigned(B);
  switch (kernels::row(algo).tree) {
    case kernels::Tree::Interleaved:
      for (unsigned s = 1; s < b; s *= 2) out.push_back({kernels::kTagStep, s, Rule::Interleaved});
      break;
    case kernels::Tree::Strided:
      for (unsigned s = 1; s < b; s *= 2) out.push_back({kernels::kTagStep, s, Rule::Strided});
      break;
    case kernels::Tree::AnyBlock: {
      unsigned p = 1;
      while (p < b) p <<= 1;
      for (unsigned s = p / 2; s > 0; s >>= 1) out.push_back({kernels::kTagStep, s, Rule::NonPow2});
      break;
    }
    case kernels::Tree::LastWarp:
      for (unsigned s = b / 2; s > 32; s >>= 1) out.push_back({kernels::kTagStep, s, Rule::LowHalf});
      for (unsigned s = std::min(b / 2, 32u); s > 0; s >>= 1) out.push_back({kernels::kTagWarpStep, s, Rule::LastWarp});
      break;
    default:  // sequential addressing and everything built on it
      for (unsigned s = b / 2; s > 0; s >>= 1) out.push_back({kernels::kTagStep, s, Rule::LowHalf});
  }
  return out;
}

bool works(const Step& st, unsigned t, unsigned B) {
  switch (st.rule) {
    case Rule::LowHalf: return t < st.s;
    case Rule::Interleaved: return t % (2 * st.s) == 0;
    case Rule::Strided: return 2 * st.s * t < B;
    case Rule::NonPow2: return t < st.s && t + st.s < B;
    case Rule::LastWarp: return t < 32 && t + st.s < B;
  }
  return false;
}

template <class T, class Op>
struct Model {
  Algo algo;
  int B;
  std::size_t grid;  // of the pass being modelled
  int cluster = 1;   // blocks a cluster (cluster-dsmem)
  const std::vector<std::vector<std::size_t>>* taken = nullptr;  // work-queue: each block's tickets, in order
  // Elements a 16-byte load reads: 16 / the input element's bytes (8 halves where T is float).
  std::size_t per = kernels::vector_elements(sizeof(T));

  static T id() { return Op::template identity<T>(); }

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

  // multiple-per-thread: pairs a block apart, each pair added before it joins the sum.
  T grid_stride_pairs(const T* in, std::size_t n, std::size_t b, int t, const Rec<T>& rec) const {
    T acc = id();
    const std::size_t stride = grid * 2 * B;
    int slot = 0;
    for (std::size_t i = b * 2 * B + t; i < n; i += stride, slot += 2)
      acc = Op{}(acc, Op{}(at(in, n, i, rec, t, slot), at(in, n, i + B, rec, t, slot + 1)));
    return acc;
  }

  // One block of a shared-memory tree algorithm, stage by stage. All threads of a stage
  // read before any writes (lockstep), which equals the GPU for race-free trees.
  T tree_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    std::vector<T> smem(B);
    int tag = kernels::kTagLoad;
    for (int t = 0; t < B; ++t) {
      if (kernels::adds_on_load(algo)) {
        const std::size_t i = b * 2 * B + t;
        smem[t] = Op{}(at(in, n, i, rec, t, 0), at(in, n, i + B, rec, t, 1));
        tag = kernels::kTagLoadAdd;
      } else if (kernels::row(algo).indexing == kernels::Indexing::GridStridePairs) {
        smem[t] = grid_stride_pairs(in, n, b, t, rec);
        tag = kernels::kTagGridStride;
      } else {
        smem[t] = at(in, n, b * B + t, rec, t, 0);
      }
      rec.work(0, t, true), rec.write(0, t, 0, t);
    }
    rec.stage(0, tag, 0), rec.shared(0, smem, B);

    if (kernels::row(algo).tree == kernels::Tree::Serial) {
      T acc = smem[0];
      for (int j = 1; j < B; ++j) acc = Op{}(acc, smem[j]);
      smem[0] = acc;
      for (int t = 0; t < B; ++t) rec.work(1, t, t == 0);
      for (int j = 0; j < B; ++j) rec.read(1, 0, j, j);
      rec.write(1, 0, B, 0);
      rec.stage(1, kernels::kTagSerial, 0), rec.shared(1, smem, B);
      return smem[0];
    }
    return tree(smem, rec);
  }

  // The tree steps after the load, from stage 1: cell 0 ends with the block's result.
  T tree(std::vector<T>& smem, const Rec<T>& rec) const {
    int k = 1;
    std::vector<T> next;
    for (const Step& st : tree_steps(algo, B)) {
      next = smem;
      for (int t = 0; t < B; ++t) {
        const bool w = works(st, unsigned(t), unsigned(B));
        rec.work(k, t, w);
        if (!w) continue;
        const int a = st.rule == Rule::Strided ? int(2 * st.s * t) : t;
        next[a] = Op{}(smem[a], smem[a + st.s]);
        rec.read(k, t, 0, a), rec.read(k, t, 1, a + int(st.s)), rec.write(k, t, 2, a);
      }
      smem.swap(next);
      rec.stage(k, st.tag, int(st.s)), rec.shared(k, smem, B);
      ++k;
    }
    return smem[0];
  }

  // __shfl_down_sync(v, offset) in every warp: a lane past the warp's end gets its own value.
  static void shuffle_down(std::vector<T>& v, int offset, bool only_warp0) {
    const std::vector<T> before = v;
    const int limit = only_warp0 ? std::min<int>(32, int(v.size())) : int(v.size());
    for (int t = 0; t < limit; ++t) {
      const int lane = t % 32;
      v[t] = Op{}(before[t], lane + offset < 32 ? before[t + offset] : before[t]);
    }
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

  // compensated's loop: warp-shuffle-vectorized's elements in its order into a Neumaier sum
  // (kernels/reduce_ops.h, as the kernel adds). Sums of floats and doubles only.
  ops::Neumaier<T> compensated_fold(const T* in, std::size_t n, std::size_t gid, const Rec<T>& rec, int t) const {
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
  T fold_partials(const std::vector<T>& p) const {
    const std::size_t step = kernels::rows_hold_vectors(p.size(), sizeof(T)) ? kernels::vector_elements(sizeof(T)) : 1;
    std::vector<T> v(B, id());
    for (int t = 0; t < B; ++t)
      for (std::size_t i = std::size_t(t); i < p.size() / step; i += std::size_t(B))
        for (std::size_t e = 0; e < step; ++e) v[t] = Op{}(v[t], p[i * step + e]);
    int k = 0;
    shuffle_tail(v, Rec<T>{}, k);
    return v[0];
  }

  T shuffle_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    std::vector<T> v(B);
    const bool queue = kernels::row(algo).indexing == kernels::Indexing::Tickets;
    const bool vectorized = kernels::row(algo).indexing == kernels::Indexing::Vectors || queue;
    const bool compensated = kernels::row(algo).compensated;
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
        for (std::size_t i = per * vectors + b * B + t; i < n; i += grid * B) acc = Op{}(acc, at(in, n, i, rec, t, slot++));
        v[t] = acc;
      } else if (compensated) {
        if constexpr (!narrow::is_narrow<T>) {  // compensated takes floats and doubles (kernels::takes)
          lost[t] = compensated_fold(in, n, b * B + t, rec, t);
          v[t] = lost[t].sum;
        }
      } else if (vectorized) {
        const std::size_t gid = b * B + t, threads = grid * B, vectors = n / per;
        T acc = id();
        int slot = 0;
        for (std::size_t i = gid; i < vectors; i += threads) acc = vector_load(acc, in, i, rec, t, slot++);
        for (std::size_t i = per * vectors + gid; i < n; i += threads) acc = Op{}(acc, at(in, n, i, rec, t, slot++));
        v[t] = acc;
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
    if (vectorized && kernels::unordered(kernels::row(algo).combine)) {
      for (int t = 0; t < B; ++t) rec.work(k, t, t == 0);
      rec.stage(k, kernels::kTagAtomic, 0);
    }
    return v[0];
  }

  // bulk-async (shuffle.cuh): the block's tiles arrive by bulk copy and each thread folds its 16
  // bytes of each (warp-shuffle-vectorized's elements, in its order), then the scalar tail from
  // global memory; block_shuffle's stages; one bulk reduction. The trace keeps the first tile.
  T bulk_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    const std::size_t vectors = n / per, tiles = (vectors + B - 1) / B, threads = grid * B;
    const bool has = b < tiles;
    const int bytes = has ? int(std::min<std::size_t>(B, vectors - b * B) * kernels::kVectorBytes) : 0;
    const int cells = bytes / int(sizeof(T));
    for (int t = 0; t < B; ++t) rec.work(0, t, t == 0), rec.work(1, t, has), rec.work(2, t, true);
    rec.stage(0, kernels::kTagBulkCopy, bytes), rec.stage(1, kernels::kTagBulkWait, bytes);
    if (has) rec.shared(1, std::vector<T>(in + b * B * per, in + b * B * per + cells), cells);
    std::vector<T> v(B, id());
    for (int t = 0; t < B; ++t) {
      int slot = 0;
      for (std::size_t i = b * B + t; i < vectors; i += threads) v[t] = fold_vector(v[t], in, i);
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

  // redux-sync (hopper.cuh): one element a thread; each warp's redux, its total to shared memory,
  // then the first warp's redux of those. redux.sync leaves every lane the warp's total: the ints
  // it takes reduce exactly in any order, so tile_reduce's butterfly gives the same.
  T redux_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    const int warps = B / 32;
    std::vector<T> v(B);
    for (int t = 0; t < B; ++t) v[t] = at(in, n, b * B + t, rec, t, 0), rec.work(0, t, true);
    rec.stage(0, kernels::kTagLoad, 0), rec.lanes(0, v);
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
    return v[0];
  }

  // Lane 0 of each warp stores the warp's total to shared memory (block_shuffle, block_redux,
  // cluster-dsmem's blocks): the cells, recorded as stage k.
  std::vector<T> warp_sums(const std::vector<T>& v, const Rec<T>& rec, int k) const {
    const int warps = B / 32;
    std::vector<T> smem(warps);
    for (int t = 0; t < B; ++t) rec.work(k, t, t % 32 == 0);
    for (int w = 0; w < warps; ++w) smem[w] = v[w * 32], rec.write(k, w * 32, 0, w);
    rec.stage(k, kernels::kTagWarpSums, 0), rec.shared(k, smem, warps);
    return smem;
  }

  // block_shuffle (shuffle.cuh): the block's values, one per thread, to one in v[0]; records
  // stages from k on and leaves k past the last.
  void shuffle_tail(std::vector<T>& v, const Rec<T>& rec, int& k) const {
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

  // warp_shuffles (shuffle.cuh): five shuffles down in every warp, stages from k on.
  void warp_shuffles(std::vector<T>& v, const Rec<T>& rec, int& k) const {
    for (int offset = 16; offset > 0; offset >>= 1, ++k) {
      shuffle_down(v, offset, false);
      for (int t = 0; t < B; ++t) rec.work(k, t, true);
      rec.stage(k, kernels::kTagShuffle, offset), rec.lanes(k, v);
    }
  }

  // cluster-dsmem (shuffle.cuh), block b up to its warp totals in shared memory (stages 0..6).
  std::vector<T> warp_totals(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    std::vector<T> v(B);
    for (int t = 0; t < B; ++t) v[t] = at(in, n, b * B + t, rec, t, 0), rec.work(0, t, true);
    rec.stage(0, kernels::kTagLoad, 0), rec.lanes(0, v);
    int k = 1;
    warp_shuffles(v, rec, k);
    return warp_sums(v, rec, k);
  }

  // Cluster c: every block's warp totals; then thread t of the first block reads cell t % warps
  // of block t / warps through distributed shared memory, and block_shuffle folds what it read.
  // `traced`: the block whose stages go to raw.
  T cluster_block(const T* in, std::size_t n, std::size_t c, RawTrace<T>* raw, std::size_t traced) const {
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

  // One pass over in[0..n): every block's outputs in order (a cluster's one, for clusters).
  std::vector<T> pass(const T* in, std::size_t n, std::size_t blocks, RawTrace<T>* raw, std::size_t traced) const {
    std::vector<T> out;
    if (kernels::row(algo).tree == kernels::Tree::Cluster) {
      for (std::size_t c = 0; c < blocks / std::size_t(cluster); ++c)
        out.push_back(cluster_block(in, n, c, raw, traced));
      return out;
    }
    for (std::size_t b = 0; b < blocks; ++b)
      for (const T& v : block(in, n, b, Rec<T>{b == traced ? raw : nullptr})) out.push_back(v);
    return out;
  }

  // cg::reduce over 32-thread tiles: a butterfly (floats), or redux.sync (ints, exact in
  // any order); either way every lane ends with the tile's total, computed as below.
  static void tile_reduce(std::vector<T>& v, int tiles) {
    for (int mask = 16; mask > 0; mask >>= 1) {
      const std::vector<T> before = v;
      for (int t = 0; t < tiles * 32; ++t) v[t] = Op{}(before[t], before[t ^ mask]);
    }
  }

  // The cg family's block: returns the block total, or each tile's total for the
  // algorithms that emit one per tile (cg-warp, cg-reduce-update-async).
  std::vector<T> cg_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    std::vector<T> v(B);
    const int tiles = B / 32;
    const bool strided = kernels::row(algo).indexing == kernels::Indexing::GridStride;
    for (int t = 0; t < B; ++t) {
      v[t] = strided ? grid_stride(in, n, b, t, rec) : at(in, n, b * B + t, rec, t, 0);
      rec.work(0, t, true);
    }
    rec.stage(0, strided ? kernels::kTagGridStride : kernels::kTagLoad, 0), rec.lanes(0, v);
    const kernels::Tree tree = kernels::row(algo).tree;
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
  T block_finish(std::vector<T>& v, const std::vector<T>& smem, const Rec<T>& rec) const {
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

  // A block's outputs: one value, or one per tile.
  std::vector<T> block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
    switch (kernels::row(algo).tree) {
      case kernels::Tree::Shuffle:
        return {kernels::row(algo).bulk_copy ? bulk_block(in, n, b, rec) : shuffle_block(in, n, b, rec)};
      case kernels::Tree::Redux: return {redux_block(in, n, b, rec)};
      case kernels::Tree::CgTiles:
      case kernels::Tree::CgTilesAsync:
      case kernels::Tree::CgBlock: return cg_block(in, n, b, rec);
      default: return {tree_block(in, n, b, rec)};
    }
  }
};

template <class T, class Op>
T halving(const T* in, std::size_t n, RawTrace<T>* raw) {
  std::vector<T> x(in, in + n);
  if (raw) {
    raw->reset(kernels::trace_shape(Algo::GlobalHalving, 0, n), int(n));
    raw->grid = 1;
    raw->tags[0] = kernels::kTagInput;
    raw->shared_count[0] = int(n);
    std::copy(x.begin(), x.end(), raw->shared.begin());
    std::fill_n(raw->active.begin(), n, 1);
  }
  std::size_t live = n;
  for (int k = 1; live > 1; ++k) {
    const std::size_t half = (live + 1) / 2;
    for (std::size_t i = 0; i < half; ++i) {
      const bool w = i + half < live;
      if (w) x[i] = Op{}(x[i], x[i + half]);  // x[i + half] is never written in this launch
      if (!raw) continue;
      const std::size_t c = std::size_t(k) * n + i;
      raw->active[c] = w;
      if (w) raw->access[3 * c] = int(2 * i), raw->access[3 * c + 1] = int(2 * (i + half)), raw->access[3 * c + 2] = int(2 * i + 1);
    }
    if (raw) {
      raw->tags[k] = kernels::kTagHalving, raw->params[k] = int(half), raw->shared_count[k] = int(half);
      std::copy_n(x.begin(), half, raw->shared.begin() + std::size_t(k) * n);
    }
    live = half;
  }
  return x[0];
}

// work-queue: who took each ticket. A GPU run's record is replayed as given (checked); without
// one, tickets go round-robin, as if every block ran at the same speed. Either way block b's
// first ticket is b, as in the kernel.
std::vector<int> ticket_owners(std::size_t n, int B, std::size_t grid, const std::vector<int>* recorded,
                               std::size_t elem_bytes) {
  const std::size_t tickets = kernels::queue_tickets(n, B, elem_bytes);
  if (!recorded) {
    std::vector<int> owners(tickets);
    for (std::size_t c = 0; c < tickets; ++c) owners[c] = int(c % grid);
    return owners;
  }
  if (recorded->size() != tickets)
    throw std::invalid_argument("work-queue: the recorded run has " + std::to_string(recorded->size()) +
                                " tickets, this one needs " + std::to_string(tickets));
  for (std::size_t c = 0; c < tickets; ++c)
    if ((*recorded)[c] < 0 || std::size_t((*recorded)[c]) >= grid || (c < grid && std::size_t((*recorded)[c]) != c))
      throw std::invalid_argument("work-queue: ticket " + std::to_string(c) + " has no valid block in the recorded run");
  return *recorded;
}

// elem_bytes: the input element's (2 for halves added in float), which sets the loads' width.
template <class T, class Op>
T reduce_with(Algo algo, const T* in, std::size_t n, const kernels::Launch& launch, RawTrace<T>* raw,
              std::size_t elem_bytes = sizeof(T)) {
  const kernels::AlgorithmRow& row = kernels::row(algo);
  if (row.indexing == kernels::Indexing::WholeArray) return halving<T, Op>(in, n, raw);
  const int B = launch.block;
  const int cluster = kernels::cluster_blocks(algo, launch.cluster);
  const kernels::DeviceShape device(kModelSmCount);  // the model's device: SMs of 2048 threads
  std::size_t grid = launch.grid ? launch.grid : kernels::first_pass_grid(algo, n, B, device, cluster);
  if (row.combine == kernels::Combine::GridSync && !launch.grid)  // co-residency: one full wave at most
    grid = std::min<std::size_t>(grid, std::size_t(std::max(1, device.threads_per_sm / B)) * std::size_t(device.sm_count));
  if (raw) {
    raw->reset(kernels::trace_shape(algo, B, n), B);
    raw->grid = grid;
  }
  const bool tickets = row.indexing == kernels::Indexing::Tickets;
  const std::vector<int> owners = tickets ? ticket_owners(n, B, grid, launch.tickets, elem_bytes) : std::vector<int>{};
  if (raw && tickets) raw->tickets = owners;
  std::vector<std::vector<std::size_t>> taken(tickets ? grid : 0);  // one pass, not one per block
  for (std::size_t c = 0; c < owners.size(); ++c) taken[std::size_t(owners[c])].push_back(c);
  Model<T, Op> first{algo, B, grid, cluster, &taken, kernels::vector_elements(elem_bytes)};
  const auto first_pass = [&](std::size_t blocks) {
    const std::vector<T> out = first.pass(in, n, blocks, raw, std::size_t(launch.trace_block));
    if (raw && kernels::records_partials(algo))  // what every block (or warp) of the pass left
      raw->partials.assign(out.begin(), out.begin() + std::ptrdiff_t(std::min(out.size(), kernels::kMaxPartials)));
    return out;
  };
  switch (row.combine) {
    case kernels::Combine::Atomics:
    case kernels::Combine::BulkReduce: {  // combined here in block order
      T acc = Op::template identity<T>();
      for (const T& v : first_pass(grid)) acc = Op{}(acc, v);
      return acc;
    }
    case kernels::Combine::SecondKernel: {  // the same kernel again, one block over the partials
      const std::vector<T> partials = first_pass(grid);
      return Model<T, Op>{algo, B, 1}.block(partials.data(), partials.size(), 0, {})[0];
    }
    case kernels::Combine::GridSync: {  // after grid.sync(), block 0 folds the partials and finishes
      const std::vector<T> partials = first_pass(grid);
      std::vector<T> v(B, Op::template identity<T>());
      for (int t = 0; t < B; ++t)
        for (std::size_t b = t; b < partials.size(); b += B) v[t] = Op{}(v[t], partials[b]);
      Model<T, Op>::tile_reduce(v, B / 32);
      std::vector<T> tiles(B / 32);
      for (int w = 0; w < B / 32; ++w) tiles[w] = v[w * 32];
      return first.block_finish(v, tiles, {});
    }
    case kernels::Combine::LastBlock: {  // the last block folds the partials, then the tree
      const std::vector<T> partials = first_pass(grid);
      if (row.vectors) return first.fold_partials(partials);  // vectorized-ordered's fold_last_chunk
      std::vector<T> smem(B, Op::template identity<T>());
      for (int t = 0; t < B; ++t)
        for (std::size_t b = t; b < partials.size(); b += B) smem[t] = Op{}(smem[t], partials[b]);
      return Model<T, Op>{Algo::Sequential, B, 1}.tree_block(smem.data(), smem.size(), 0, {});
    }
    default: {  // block partials, then the same kernel over them until one value is left
      const std::vector<kernels::Pass> plan = kernels::pass_plan(algo, n, B, cluster);
      std::vector<T> partial = first_pass(plan[0].blocks);
      partial.resize(plan[0].outputs);
      Model<T, Op> later = first;  // over partials of T: a half's first pass wrote floats
      later.per = kernels::vector_elements(sizeof(T));
      for (std::size_t p = 1; p < plan.size(); ++p) {
        std::vector<T> next = later.pass(partial.data(), partial.size(), plan[p].blocks, nullptr, 0);
        next.resize(plan[p].outputs);
        partial.swap(next);
      }
      return partial[0];
    }
  }
}

// The matrix family (kernels/matrix.cuh), block by block, recording as the probes do.
template <class T, class Op>
struct MatrixModel {
  Algo algo;
  kernels::Matrix m;
  int B;
  kernels::Grid2 grid;
  std::size_t elem = sizeof(T);  // the input element's bytes (2 for halves added in float): the loads' width

  static T id() { return Op::template identity<T>(); }
  const T* row_of(const T* in, std::size_t r) const { return in + r * m.cols; }

  // Thread t's fold over the elements it reads, in its loop's order; loads recorded.
  template <class Index>
  T fold(const T* in, int t, const Rec<T>& rec, Index indices) const {
    T v = id();
    int slot = 0;
    indices([&](std::size_t i) {
      v = Op{}(v, in[i]);
      rec.load(0, t, slot++, i);
    });
    return v;
  }

  // Row r's columns [begin, end) (the whole row, or one chunk of batched-rows-split or
  // -vectorized): each thread's elements a block apart, one at a time or, for
  // batched-rows-vectorized on rows of a multiple of 16 bytes, a 16-byte vector at a time.
  T batched_row(const T* in, std::size_t r, const Rec<T>& rec, std::size_t begin = 0,
                std::size_t end = std::size_t(-1)) const {
    end = std::min(end, m.cols);
    const bool vectors = kernels::row(algo).vectors && kernels::rows_hold_vectors(m.cols, elem);
    const std::size_t per = vectors ? kernels::vector_elements(elem) : 1;
    std::vector<T> v(B, id());
    for (int t = 0; t < B; ++t) {
      int slot = 0;
      for (std::size_t c = begin + per * std::size_t(t); c < end; c += per * std::size_t(B)) {
        for (std::size_t e = 0; e < per; ++e) v[t] = Op{}(v[t], in[r * m.cols + c + e]);
        rec.load(0, t, slot++, r * m.cols + c, int(per));
      }
      rec.work(0, t, begin + per * std::size_t(t) < end);
    }
    rec.stage(0, vectors ? kernels::kTagRowVector : kernels::kTagRowStride, 0);
    if (kernels::row(algo).tree == kernels::Tree::Shuffle) {
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
  std::vector<T> fold_columns(const T* in, int t, const Rec<T>& rec, const std::vector<std::size_t>& cols,
                              std::size_t r0, std::size_t by, std::size_t last) const {
    constexpr std::size_t per = kernels::vector_elements(sizeof(T));
    const bool vectors = kernels::row(algo).vectors && kernels::rows_hold_vectors(m.cols, sizeof(T));
    const std::size_t loads = vectors ? cols.size() / per : cols.size();  // a row's loads, a column past the edge included
    std::vector<T> v(cols.size(), id());
    for (std::size_t r = r0, row = 0; r < last; r += by, ++row)
      for (std::size_t c = 0; c < cols.size(); ++c) {
        if (cols[c] >= m.cols) continue;
        v[c] = Op{}(v[c], in[r * m.cols + cols[c]]);
        const int slot = int(row * loads + (vectors ? c / per : c));
        if (!vectors) rec.load(0, t, slot, r * m.cols + cols[c]);
        else if (c % per == 0) rec.load(0, t, slot, r * m.cols + cols[c], int(per));
      }
    return v;
  }

  // column-sums(-vectorized), block b: one partial per column of its tile, for its chunk of rows,
  // into out[chunk][col]. Thread t keeps column c's sum in cell c * B + t.
  void column_block(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const {
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
    const bool vectorized = kernels::row(algo).vectors;
    rec.stage(0, vectorized ? kernels::kTagColumnVector : kernels::kTagColumnStride, 0), rec.shared(0, smem, int(smem.size()));
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

  T naive_column(const T* in, std::size_t col, int t, const Rec<T>& rec) const {
    return fold(in, t, rec, [&](auto add) {
      for (std::size_t r = 0; r < m.rows; ++r) add(r * m.cols + col);
    });
  }

  T block_2d(const T* in, std::size_t b, const Rec<T>& rec) const {
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

  // Row segments (kernels/short_rows.cuh), block b: each warp's groups of rows, a segment of
  // `lanes` lanes a row, into out[row]. The stages record each warp's first group.
  void row_segments(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const {
    const int lanes = kernels::row_lanes(algo, m.cols, elem), K = kernels::kRowLoadsInFlight;
    const std::size_t per = kernels::segment_load_elements(algo, m.cols, elem), vecs = m.cols / per;
    const std::size_t per_warp = std::size_t(32 / lanes), warps = grid.count() * std::size_t(B / 32);
    const int rounds = vecs <= std::size_t(lanes) ? K : 1;
    std::vector<std::vector<T>> stages(std::size_t(kernels::matrix_trace_shape(algo, B, m, elem).stages),
                                       std::vector<T>(B, T{}));
    std::vector<char> loaded(B, 0), grouped(B, 0);
    for (int w = 0; w < B / 32; ++w) {
      bool first = true;
      std::vector<int> slot(32, 0);
      for (std::size_t g = b * std::size_t(B / 32) + std::size_t(w); g * per_warp < m.rows;
           g += std::size_t(rounds) * warps) {
        for (int u = 0; u < rounds; ++u) {
          std::vector<T> v(32, id());
          for (int l = 0; l < 32; ++l) {
            const std::size_t r = (g + std::size_t(u) * warps) * per_warp + std::size_t(l / lanes);
            if (r >= m.rows) continue;
            const int t = w * 32 + l;
            for (std::size_t i = std::size_t(l % lanes); i < vecs; i += std::size_t(lanes)) {
              for (std::size_t e = 0; e < per; ++e) v[l] = Op{}(v[l], in[r * m.cols + i * per + e]);
              rec.load(0, t, slot[l]++, r * m.cols + i * per, int(per));
            }
            if (first && u == 0) loaded[t] = std::size_t(l % lanes) < vecs;
          }
          const bool shown = first && u == 0;
          if (shown) std::copy(v.begin(), v.end(), stages[0].begin() + w * 32);
          for (int off = lanes / 2, k = 1; off > 0; off /= 2, ++k) {
            std::vector<T> next = v;
            for (int l = 0; l < 32; ++l) next[l] = Op{}(v[l], l % lanes + off < lanes ? v[l + off] : v[l]);
            v.swap(next);
            if (shown) std::copy(v.begin(), v.end(), stages[k].begin() + w * 32);
          }
          for (int l = 0; l < 32; l += lanes) {
            const std::size_t r = (g + std::size_t(u) * warps) * per_warp + std::size_t(l / lanes);
            if (r < m.rows) out[r] = v[l];
          }
        }
        if (first) std::fill_n(grouped.begin() + w * 32, 32, 1);
        first = false;
      }
    }
    for (std::size_t k = 0; k < stages.size(); ++k) {
      rec.stage(int(k), k == 0 ? kernels::kTagRowLanes : kernels::kTagShuffle, k == 0 ? lanes : lanes >> k);
      for (int t = 0; t < B; ++t)
        if (grouped[t]) rec.work(int(k), t, k > 0 || loaded[t]);
      rec.lanes(int(k), stages[k]);
    }
  }

  // thread-per-row (kernels/short_rows.cuh), block b: its tiles of rows, tile_cols columns at a
  // time, each thread adding its own row; into out[row]. Loads are recorded throughout, the
  // stages for the first tile.
  void row_tile(const T* in, std::size_t b, const Rec<T>& rec, std::vector<T>& out) const {
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

  struct TileAt {
    std::size_t r0, c0;
    int rows, w, pitch;
  };

  // A tile's copy as the kernel records it (kernels/short_rows.cuh, <<< tile-copy): thread t
  // takes the tile's elements t, t + B, ... (a 16-byte vector of them at a time where the tile
  // holds whole rows, then the last ones one at a time), each into cell row * pitch + column;
  // then its row's pad cell. Every load is recorded (slot: each thread's next); the stores and
  // the tile for the first tile only.
  void copy_tile(const T* in, TileAt a, bool first, std::vector<int>& slot, const Rec<T>& rec) const {
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

  // Every block of the first pass, in block order: what each left.
  std::vector<T> first_pass(const T* in, int traced, RawTrace<T>* raw) const {
    std::vector<T> out;
    const auto rec_for = [&](std::size_t b) { return Rec<T>{b == std::size_t(traced) ? raw : nullptr}; };
    for (std::size_t b = 0; b < grid.count(); ++b) {
      switch (kernels::row(algo).indexing) {
        case kernels::Indexing::RowPerBlock: out.push_back(batched_row(in, b, rec_for(b))); break;
        case kernels::Indexing::Tile2d: out.push_back(block_2d(in, b, rec_for(b))); break;
        case kernels::Indexing::RowChunks: {
          const std::size_t w = kernels::split_chunk_cols(m, grid.x), c = b % grid.x;
          out.push_back(batched_row(in, b / grid.x, rec_for(b), c * w, (c + 1) * w));
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
    if (kernels::row(algo).indexing == kernels::Indexing::RowSegments) {  // out[row]
      out.assign(m.rows, id());
      for (std::size_t b = 0; b < grid.count(); ++b) row_segments(in, b, rec_for(b), out);
    }
    if (kernels::row(algo).indexing == kernels::Indexing::RowTile) {  // out[row]
      out.assign(m.rows, id());
      for (std::size_t b = 0; b < grid.count(); ++b) row_tile(in, b, rec_for(b), out);
    }
    if (kernels::is_column_sums(algo)) {  // out[chunk][col]
      out.assign(grid.y * m.cols, id());
      for (std::size_t b = 0; b < grid.count(); ++b) column_block(in, b, rec_for(b), out);
    }
    return out;
  }
};

// elem: the input element's bytes (2 for halves added in float); later passes read T.
template <class T, class Op>
std::vector<T> reduce_matrix_with(Algo algo, const T* in, kernels::Matrix m, const kernels::Launch& launch,
                                  RawTrace<T>* raw, std::size_t elem = sizeof(T)) {
  const int B = launch.block;
  const kernels::Grid2 grid = kernels::matrix_grid(algo, m, B, launch.grid, kModelSmCount, elem);
  if (raw) {
    raw->reset(kernels::matrix_trace_shape(algo, B, m, elem), B);
    raw->grid = grid.count();
  }
  const MatrixModel<T, Op> model{algo, m, B, grid, elem};
  std::vector<T> first = model.first_pass(in, launch.trace_block, raw);
  if (raw) raw->partials.assign(first.begin(), first.begin() + std::ptrdiff_t(std::min(first.size(), kernels::kMaxPartials)));
  if (!kernels::matrix_second_pass(algo, grid)) return first;
  if (kernels::is_column_sums(algo)) {  // phase 2: the same kernel over the partials, one chunk
    const kernels::Matrix parts{grid.y, m.cols};
    const MatrixModel<T, Op> second{algo, parts, B, {grid.x, 1}};
    return second.first_pass(first.data(), -1, nullptr);
  }
  const bool in_launch = kernels::row(algo).combine == kernels::Combine::LastBlock;
  if (kernels::is_row_chunks(algo) && !in_launch) {  // phase 2: batched-rows over the chunks' results
    const MatrixModel<T, Op> second{Algo::BatchedRows, {m.rows, grid.x}, B, {m.rows, 1}};
    return second.first_pass(first.data(), -1, nullptr);
  }
  if (kernels::is_row_chunks(algo)) {  // the row's last block: itself over the chunks' results, one chunk a row
    const MatrixModel<T, Op> second{algo, {m.rows, grid.x}, B, {1, m.rows}};
    return second.first_pass(first.data(), -1, nullptr);
  }
  // block-2d: one block of B x 1 threads over the partials, then the tree
  std::vector<T> smem(B, Op::template identity<T>());
  for (int t = 0; t < B; ++t)
    for (std::size_t i = std::size_t(t); i < first.size(); i += std::size_t(B)) smem[t] = Op{}(smem[t], first[i]);
  return {Model<T, Op>{Algo::Sequential, B, 1}.tree(smem, {})};
}

// Halves and bfloat16 as the accumulator's type, each converted once and exactly (every one is a
// float); the model then reads them 16 / sizeof(In) to a 16-byte load, as the kernel does.
template <class T, class In>
std::vector<T> widened(const In* in, std::size_t n) {
  std::vector<T> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<T>(in[i]);
  return out;
}

}  // namespace

template <class T, class In>
T model_reduce(Algo algo, kernels::OpKind op, const In* in, std::size_t n, const kernels::Launch& launch,
               RawTrace<T>* trace) {
  kernels::Launch checked = launch;
  if (!checked.grid)
    checked.grid =
        kernels::first_pass_grid(algo, n, launch.block, kModelSmCount, kernels::cluster_blocks(algo, launch.cluster));
  kernels::check_launch(algo, n, checked, trace != nullptr);
  return kernels::by_op<T, In>(algo, op, [&](auto o) {
    using Op = decltype(o);
    if constexpr (std::is_same_v<T, In>) {
      return reduce_with<T, Op>(algo, in, n, launch, trace);
    } else {
      const std::vector<T> wide = widened<T>(in, n);
      return reduce_with<T, Op>(algo, wide.data(), n, launch, trace, sizeof(In));
    }
  });
}

template int model_reduce<int>(Algo, kernels::OpKind, const int*, std::size_t, const kernels::Launch&, RawTrace<int>*);
template float model_reduce<float>(Algo, kernels::OpKind, const float*, std::size_t, const kernels::Launch&,
                                   RawTrace<float>*);
template <class T, class In>
std::vector<T> model_reduce_matrix(Algo algo, kernels::OpKind op, const In* in, kernels::Matrix m,
                                   const kernels::Launch& launch, RawTrace<T>* trace) {
  kernels::check_matrix_launch(algo, m, launch, kModelSmCount, trace != nullptr, sizeof(In));
  return kernels::by_op<T, In>(algo, op, [&](auto o) {
    using Op = decltype(o);
    if constexpr (std::is_same_v<T, In>) {
      return reduce_matrix_with<T, Op>(algo, in, m, launch, trace);
    } else {
      const std::vector<T> wide = widened<T>(in, m.size());
      return reduce_matrix_with<T, Op>(algo, wide.data(), m, launch, trace, sizeof(In));
    }
  });
}

#define RL_MATRIX(T) \
  template std::vector<T> model_reduce_matrix<T>(Algo, kernels::OpKind, const T*, kernels::Matrix, \
                                                 const kernels::Launch&, RawTrace<T>*);
RL_MATRIX(int)
RL_MATRIX(float)
RL_MATRIX(double)
#undef RL_MATRIX

template double model_reduce<double>(Algo, kernels::OpKind, const double*, std::size_t, const kernels::Launch&,
                                     RawTrace<double>*);
#define RL_NARROW(T, In) \
  template T model_reduce<T, In>(Algo, kernels::OpKind, const In*, std::size_t, const kernels::Launch&, RawTrace<T>*);
#define RL_NARROW_MATRIX(T, In)                                                                         \
  template std::vector<T> model_reduce_matrix<T, In>(Algo, kernels::OpKind, const In*, kernels::Matrix, \
                                                     const kernels::Launch&, RawTrace<T>*);
RL_FOR_EACH_NARROW_PAIR(RL_NARROW)
RL_FOR_EACH_NARROW_PAIR(RL_NARROW_MATRIX)
#undef RL_NARROW
#undef RL_NARROW_MATRIX

}  // namespace rl::model
