// The CPU model of the shared-memory trees (kernels/tree.cuh): Model's members for it.
#pragma once

#include "block_model.h"

namespace rl::model::detail {

// Who works in a tree step, and on which cells: thread t combines smem[a] and smem[a + s]
// into smem[a].
enum class Rule { LowHalf, Interleaved, Strided, NonPow2, LastWarp };
struct Step {
  int tag;
  unsigned s;
  Rule rule;
};

inline std::vector<Step> tree_steps(kernels::Tree tree, int B) {
  std::vector<Step> out;
  const unsigned b = unsigned(B);
  switch (tree) {
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

inline bool works(const Step& st, unsigned t, unsigned B) {
  switch (st.rule) {
    case Rule::LowHalf: return t < st.s;
    case Rule::Interleaved: return t % (2 * st.s) == 0;
    case Rule::Strided: return 2 * st.s * t < B;
    case Rule::NonPow2: return t < st.s && t + st.s < B;
    case Rule::LastWarp: return t < 32 && t + st.s < B;
  }
  return false;
}

// multiple-per-thread: pairs a block apart, each pair added before it joins the sum.
template <class T, class Op>
T Model<T, Op>::grid_stride_pairs(const T* in, std::size_t n, std::size_t b, int t, const Rec<T>& rec) const {
  T acc = id();
  const std::size_t stride = grid * 2 * B;
  int slot = 0;
  for (std::size_t i = b * 2 * B + t; i < n; i += stride, slot += 2)
    acc = Op{}(acc, Op{}(at(in, n, i, rec, t, slot), at(in, n, i + B, rec, t, slot + 1)));
  return acc;
}

// One block of a shared-memory tree algorithm, stage by stage. All threads of a stage
// read before any writes (lockstep), which equals the GPU for race-free trees.
template <class T, class Op>
T Model<T, Op>::tree_block(const T* in, std::size_t n, std::size_t b, const Rec<T>& rec) const {
  std::vector<T> smem(B);
  int tag = kernels::kTagLoad;
  for (int t = 0; t < B; ++t) {
    if (const int tiles = kernels::tiles_on_load(algo); tiles > 1) {  // folded left, as the kernels add
      const std::size_t i = b * std::size_t(tiles) * B + t;
      T v = at(in, n, i, rec, t, 0);
      for (int j = 1; j < tiles; ++j) v = Op{}(v, at(in, n, i + std::size_t(j) * B, rec, t, j));
      smem[t] = v;
      tag = kernels::kTagLoadAdd;
    } else if (rules().indexing == kernels::Indexing::GridStridePairs) {
      smem[t] = grid_stride_pairs(in, n, b, t, rec);
      tag = kernels::kTagGridStride;
    } else {
      smem[t] = at(in, n, b * B + t, rec, t, 0);
    }
    rec.work(0, t, true), rec.write(0, t, 0, t);
  }
  rec.stage(0, tag, 0), rec.shared(0, smem, B);

  if (rules().tree == kernels::Tree::Serial) {
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
template <class T, class Op>
T Model<T, Op>::tree(std::vector<T>& smem, const Rec<T>& rec) const {
  int k = 1;
  std::vector<T> next;
  for (const Step& st : tree_steps(rules().tree, B)) {
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

// global-halving: the whole array halved launch by launch, traced as one block.
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
      if (w)
        raw->access[3 * c] = int(2 * i), raw->access[3 * c + 1] = int(2 * (i + half)),
                        raw->access[3 * c + 2] = int(2 * i + 1);
    }
    if (raw) {
      raw->tags[k] = kernels::kTagHalving, raw->params[k] = int(half), raw->shared_count[k] = int(half);
      std::copy_n(x.begin(), half, raw->shared.begin() + std::size_t(k) * n);
    }
    live = half;
  }
  return x[0];
}

}  // namespace rl::model::detail
