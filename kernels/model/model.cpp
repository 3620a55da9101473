// The CPU model of the array kernels: how a run's blocks combine (kernels/single_pass.cuh and the
// launchers), over the block model of each family.
#include "model.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "../algorithms.h"
#include "../op_dispatch.h"
#include "block_model.h"
#include "cg_model.h"
#include "hopper_model.h"
#include "shuffle_model.h"
#include "tree_model.h"

namespace rl::model {
namespace detail {

// work-queue: who took each ticket. A GPU run's record is replayed as given (checked); without
// one, tickets go round-robin, as if every block ran at the same speed. Either way block b's
// first ticket is b, as in the kernel.
static std::vector<int> ticket_owners(std::size_t n, int B, std::size_t grid, const std::vector<int>* recorded,
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
T reduce_with(const kernels::Plan& plan, const T* in, RawTrace<T>* raw, std::size_t elem_bytes = sizeof(T)) {
  const kernels::AlgorithmRow& row = *plan.row;
  const Algo algo = row.algo;
  const std::size_t n = plan.size();
  if (row.indexing == kernels::Indexing::WholeArray) return halving<T, Op>(in, n, raw);
  const int B = plan.block, cluster = plan.cluster;
  const std::size_t grid = plan.grid.x;
  if (raw) {
    raw->reset(kernels::trace_shape(algo, B, n), B);
    raw->grid = grid;
  }
  const bool tickets = row.indexing == kernels::Indexing::Tickets;
  const std::vector<int> owners = tickets ? ticket_owners(n, B, grid, plan.tickets, elem_bytes) : std::vector<int>{};
  if (raw && tickets) raw->tickets = owners;
  std::vector<std::vector<std::size_t>> taken(tickets ? grid : 0);  // one pass, not one per block
  for (std::size_t c = 0; c < owners.size(); ++c) taken[std::size_t(owners[c])].push_back(c);
  Model<T, Op> first{algo, B, grid, cluster, &taken, kernels::vector_elements(elem_bytes)};
  const auto first_pass = [&](std::size_t blocks) {
    const std::vector<T> out = first.pass(in, n, blocks, raw, std::size_t(plan.trace_block));
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
      const std::vector<kernels::Pass>& passes = plan.passes;
      std::vector<T> partial = first_pass(passes[0].blocks);
      partial.resize(passes[0].outputs);
      Model<T, Op> later = first;  // over partials of T: a half's first pass wrote floats
      later.per = kernels::vector_elements(sizeof(T));
      for (std::size_t p = 1; p < passes.size(); ++p) {
        std::vector<T> next = later.pass(partial.data(), partial.size(), passes[p].blocks, nullptr, 0);
        next.resize(passes[p].outputs);
        partial.swap(next);
      }
      return partial[0];
    }
  }
}

}  // namespace detail

using detail::reduce_with;
using detail::widened;
using kernels::Algo;
using kernels::RawTrace;

template <class T, class In>
static std::vector<T> run_array(const kernels::Plan& plan, kernels::OpKind op, const In* in, RawTrace<T>* trace) {
  return {kernels::by_op<T, In>(plan.algo(), op, [&](auto o) {
    using Op = decltype(o);
    if constexpr (std::is_same_v<T, In>) {
      return reduce_with<T, Op>(plan, in, trace);
    } else {
      const std::vector<T> wide = widened<T>(in, plan.size());
      return reduce_with<T, Op>(plan, wide.data(), trace, sizeof(In));
    }
  })};
}

template <class T, class In>
std::vector<T> model_run(const kernels::Plan& plan, kernels::OpKind op, const In* in, RawTrace<T>* trace) {
  if (plan.matrix()) return detail::run_matrix<T, In>(plan, op, in, trace);
  return run_array<T, In>(plan, op, in, trace);
}

kernels::Plan model_plan(Algo algo, kernels::Matrix shape, const kernels::Launch& launch, std::size_t elem_bytes,
                         bool traced) {
  return kernels::make_plan(algo, shape, launch, kModelDevice, elem_bytes, traced);
}

#define RL_MODEL(T, In) \
  template std::vector<T> model_run<T, In>(const kernels::Plan&, kernels::OpKind, const In*, RawTrace<T>*);
RL_MODEL(int, int)
RL_MODEL(float, float)
RL_MODEL(double, double)
RL_FOR_EACH_NARROW_PAIR(RL_MODEL)
#undef RL_MODEL

}  // namespace rl::model
