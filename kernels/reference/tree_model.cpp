#include "tree_model.h"

#include <stdexcept>
#include <string>
#include <vector>

#include "../reduce_ops.h"

namespace rl::model {
namespace {

using kernels::Algo;
using kernels::RawTrace;

// What one thread does in one tree step: combine smem[r0] and smem[r1] into smem[w].
struct Access {
  bool work = false;
  int r0 = -1, r1 = -1, w = -1;
};

// The strides a tree walks, in order: 1, 2, 4, ... or block/2, ..., 1.
std::vector<int> strides(Algo algo, int block) {
  std::vector<int> out;
  if (algo == Algo::Sequential) {
    for (int s = block / 2; s > 0; s >>= 1) out.push_back(s);
  } else {
    for (int s = 1; s < block; s *= 2) out.push_back(s);
  }
  return out;
}

// Each algorithm's rule, restated from its kernel.
Access step(Algo algo, int tid, int s, int block) {
  switch (algo) {
    case Algo::InterleavedDivergent:
      if (tid % (2 * s) == 0) return {true, tid, tid + s, tid};
      return {};
    case Algo::InterleavedBankConflicts: {
      const long index = 2L * s * tid;
      if (index < block) return {true, int(index), int(index) + s, int(index)};
      return {};
    }
    case Algo::Sequential:
      if (tid < s) return {true, tid, tid + s, tid};
      return {};
  }
  return {};
}

template <class T>
void record(RawTrace<T>* rec, int stage, int block, const std::vector<T>& smem,
            const std::vector<Access>& acc) {
  if (!rec) return;
  for (int t = 0; t < block; ++t) {
    const std::size_t i = static_cast<std::size_t>(stage) * block + t;
    rec->shared[i] = smem[t];
    rec->active[i] = acc[t].work ? 1 : 0;
    rec->reads[2 * i] = acc[t].r0;
    rec->reads[2 * i + 1] = acc[t].r1;
    rec->writes[i] = acc[t].w;
  }
}

// One block, stage by stage. All threads of a stage read before any writes (lockstep), which
// equals the GPU for these race-free trees.
template <class T, class Op>
T block_reduce(Algo algo, const T* in, std::size_t n, std::size_t block_index, int block,
               RawTrace<T>* rec) {
  std::vector<T> smem(block);
  std::vector<Access> acc(block);
  for (int t = 0; t < block; ++t) {
    const std::size_t i = block_index * block + t;
    smem[t] = i < n ? in[i] : Op::template identity<T>();
    acc[t] = {true, -1, -1, t};
  }
  record(rec, 0, block, smem, acc);

  int stage = 1;
  std::vector<T> next;
  for (const int s : strides(algo, block)) {
    next = smem;
    for (int t = 0; t < block; ++t) {
      acc[t] = step(algo, t, s, block);
      if (acc[t].work) next[acc[t].w] = Op{}(smem[acc[t].r0], smem[acc[t].r1]);
    }
    smem.swap(next);
    record(rec, stage++, block, smem, acc);
  }
  return smem[0];
}

template <class T, class Op>
T reduce_with(Algo algo, const T* in, std::size_t n, int block, RawTrace<T>* trace,
              int trace_block) {
  const auto blocks = [block](std::size_t count) { return (count + block - 1) / block; };
  std::vector<T> partial(blocks(n));
  if (trace) {
    const int stages = kernels::tree_stage_count(block);
    const std::size_t cells = static_cast<std::size_t>(stages) * block;
    trace->block = block;
    trace->stages = stages;
    trace->shared.assign(cells, T{});
    trace->active.assign(cells, 0);
    trace->reads.assign(2 * cells, -1);
    trace->writes.assign(cells, -1);
  }
  for (std::size_t b = 0; b < partial.size(); ++b)
    partial[b] = block_reduce<T, Op>(algo, in, n, b, block,
                                     trace && b == std::size_t(trace_block) ? trace : nullptr);
  // Further passes over the partials, exactly as the GPU launches them.
  while (partial.size() > 1) {
    std::vector<T> next(blocks(partial.size()));
    for (std::size_t b = 0; b < next.size(); ++b)
      next[b] = block_reduce<T, Op>(algo, partial.data(), partial.size(), b, block, nullptr);
    partial.swap(next);
  }
  return partial[0];
}

}  // namespace

template <class T>
T tree_reduce(Algo algo, kernels::OpKind op, const T* in, std::size_t n, int block,
              RawTrace<T>* trace, int trace_block) {
  kernels::check_launch(n, block, trace != nullptr, trace_block);
  switch (op) {
    case kernels::OpKind::Sum: return reduce_with<T, ops::Sum>(algo, in, n, block, trace, trace_block);
    case kernels::OpKind::Min: return reduce_with<T, ops::Min>(algo, in, n, block, trace, trace_block);
    case kernels::OpKind::Max: return reduce_with<T, ops::Max>(algo, in, n, block, trace, trace_block);
  }
  throw std::invalid_argument("tree_reduce: unknown operator");
}

template int tree_reduce<int>(Algo, kernels::OpKind, const int*, std::size_t, int,
                              RawTrace<int>*, int);
template float tree_reduce<float>(Algo, kernels::OpKind, const float*, std::size_t, int,
                                  RawTrace<float>*, int);

}  // namespace rl::model
