// A block's warps (ptx_machine.h): which lanes run each step, barriers and a warp's .sync
// instructions (shuffles, votes, redux), and the block's run to its end or a finding.
#include <algorithm>
#include <numeric>

#include "ptx_machine_impl.h"
#include "ptx_narrow.h"

namespace rl::own::ptx {

bool Machine::Impl::run_warp_sync(const Instr& in, const std::vector<unsigned>& group,
                                  const std::vector<unsigned char>& on) {
  const unsigned warp0 = group[0] / 32 * 32;
  std::uint32_t present = 0, need = 0;
  for (std::size_t i = 0; i < group.size(); ++i)
    if (on[i])
      present |= 1u << (group[i] - warp0), need |= std::uint32_t(value(group[i], in.args.back(), Type{Kind::U, 4}));
  std::uint32_t exists = 0;
  for (unsigned l = 0; l < 32 && warp0 + l < threads; ++l) exists |= 1u << l;
  if ((need & exists & present) != (need & exists)) {
    for (unsigned l = 0; l < 32; ++l)
      if ((need & exists & ~present) >> l & 1u && status[warp0 + l] == Status::Exited)
        stop("shuffle-mask", where(group[0], in) + ": the mask names lane " + std::to_string(l) + ", which has exited",
             in.line);
    for (std::size_t i = 0; i < group.size(); ++i)
      if (on[i]) status[group[i]] = Status::WarpWait;
    return false;
  }
  // The header's own waits (rl_warp_stage's) order nothing for the race check: a __syncwarp()
  // the student took out stays a race in the traced block too.
  if (!in.header) history.warp_sync(warp0 / 32);
  if (in.op == Op::Shfl) shuffle(in, group, on, warp0, present);
  if (in.op == Op::Vote) vote(in, group, on, present);
  if (in.op == Op::Redux) redux(in, group, on, present);
  return true;
}

void Machine::Impl::redux(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
                          std::uint32_t present) {
  if (is_float(in.type) || in.type.bytes != 4) refuse(in, "redux.sync on floats");
  const unsigned warp0 = group[0] / 32 * 32;
  std::uint32_t lane[32] = {};
  for (std::size_t i = 0; i < group.size(); ++i)
    if (on[i]) lane[group[i] - warp0] = std::uint32_t(value(group[i], in.args[1], in.type));
  for (std::size_t i = 0; i < group.size(); ++i)
    if (on[i])
      set(group[i], in.args[0], in.type,
          redux_result(in, lane, std::uint32_t(value(group[i], in.args.back(), Type{Kind::U, 4})) & present));
}

void Machine::Impl::shuffle(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
                            unsigned warp0, std::uint32_t present) {
  std::vector<std::uint64_t> source(32, 0);
  for (std::size_t i = 0; i < group.size(); ++i)
    if (on[i]) source[group[i] - warp0] = value(group[i], in.args[1], Type{Kind::B, 4});
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (!on[i]) continue;
    const unsigned t = group[i];
    const int lane = int(t - warp0);
    bool pval = false;
    const int j = shuffle_source(in, lane, std::uint32_t(value(t, in.args[2], Type{Kind::U, 4})),
                                 std::uint32_t(value(t, in.args[3], Type{Kind::U, 4})), &pval);
    if (!(present >> j & 1u))
      stop("shuffle-mask", where(t, in) + ": reads lane " + std::to_string(j) + ", which is not taking part", in.line);
    const Operand& d = in.args[0];
    if (d.what == Operand::Vector) {
      reg(t, d.regs[0]) = source[std::size_t(j)], reg(t, d.regs[1]) = pval;
    } else {
      reg(t, d.reg) = source[std::size_t(j)];
    }
  }
}

void Machine::Impl::vote(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
                         std::uint32_t present) {
  std::uint32_t ballot = 0;
  const unsigned warp0 = group[0] / 32 * 32;
  for (std::size_t i = 0; i < group.size(); ++i)
    if (on[i] && value(group[i], in.args[1], Type{Kind::Pred, 1})) ballot |= 1u << (group[i] - warp0);
  for (std::size_t i = 0; i < group.size(); ++i) {
    if (!on[i]) continue;
    const std::uint32_t mask = std::uint32_t(value(group[i], in.args.back(), Type{Kind::U, 4})) & present;
    const std::uint64_t r = vote_result(in, ballot, mask);
    set(group[i], in.args[0], in.type, r);
  }
}

void Machine::Impl::unblock() {
  std::uint32_t barrier_pc = UINT32_MAX;
  unsigned first = 0;
  bool waiting = false, at_barrier = false;
  for (unsigned t = 0; t < threads; ++t) {
    if (status[t] == Status::WarpWait) waiting = true;
    if (status[t] != Status::Barrier) continue;
    at_barrier = true;
    if (barrier_pc == UINT32_MAX) barrier_pc = pc[t], first = t;
    if (pc[t] != barrier_pc)
      stop("divergent-barrier",
           "threads " + std::to_string(first) + " and " + std::to_string(t) + " of block " + std::to_string(block_id) +
               " wait at different barriers (lines " + std::to_string(e->code[barrier_pc].line) + " and " +
               std::to_string(e->code[pc[t]].line) + ")",
           e->code[pc[t]].line);
  }
  if (at_barrier && !waiting) {
    for (unsigned t = 0; t < threads; ++t)
      if (status[t] == Status::Barrier) status[t] = Status::Run, pc[t] += 1;
    history.barrier();
    return;
  }
  bool released = false;
  for (unsigned t = 0; t < threads; ++t)
    if (status[t] == Status::WarpWait) status[t] = Status::Run, released = true;
  if (released && !at_barrier) {  // try once more: a mask met by lanes that arrived later
    retry_waits();
    return;
  }
  unsigned w = 0;
  while (w < threads && status[w] != Status::WarpWait && status[w] != Status::Run) ++w;
  const unsigned b = first;
  stop("divergent-barrier",
       "thread " + std::to_string(b) + " of block " + std::to_string(block_id) + " waits at the barrier on line " +
           std::to_string(e->code[barrier_pc].line) + " while thread " + std::to_string(w) +
           " waits for its warp at line " + std::to_string(e->code[pc[std::min(w, threads - 1)]].line),
       e->code[barrier_pc].line);
}

void Machine::Impl::retry_waits() {
  run_warps();
  bool stuck = false;
  unsigned t0 = 0;
  for (unsigned t = 0; t < threads; ++t)
    if (status[t] == Status::WarpWait) stuck = true, t0 = t;
  const bool all_done = all_exited();
  const bool running = std::any_of(status.begin(), status.end(), [](Status s) { return s == Status::Run; });
  if (stuck && !all_done && !running) {  // a turn's warps may still run (a cooperative launch)
    bool barrier = false;
    for (unsigned t = 0; t < threads; ++t) barrier = barrier || status[t] == Status::Barrier;
    if (!barrier)
      stop("shuffle-mask",
           "thread " + std::to_string(t0) + " of block " + std::to_string(block_id) + " waits at line " +
               std::to_string(e->code[pc[t0]].line) + " for lanes of its mask that never arrive there",
           e->code[pc[t0]].line);
  }
}

void Machine::Impl::start_block(unsigned b) {
  block_id = b;
  globals.begin_block(b);
  shared.assign(dynamic_start() + spec.dynamic_shared, 0);  // the dynamic part starts 16-aligned
  shared_set.assign(shared.size(), 0);
  mbarriers.clear();
  history.reset(shared.size(), (threads + 31) / 32);
  regs.assign(std::size_t(threads) * std::size_t(nregs), 0);
  pc.assign(threads, 0);
  status.assign(threads, Status::Run);
  issued_.assign((threads + 31) / 32, 0);
  schedule_rng.seed(spec.schedule ^ (std::uint64_t(b) * 0x9e3779b97f4a7c15ull));
}

void Machine::Impl::run_block(unsigned b) {
  start_block(b);
  for (;;) {
    run_warps();
    if (all_exited()) return globals.end_block();
    unblock();
  }
}

void Machine::Impl::swap_block(Parked& p) {
  std::swap(block_id, p.block_id);
  shared.swap(p.shared), shared_set.swap(p.shared_set), mbarriers.swap(p.mbarriers), std::swap(history, p.history);
  regs.swap(p.regs), pc.swap(p.pc), status.swap(p.status), issued_.swap(p.issued);
  std::swap(schedule_rng, p.rng);
}

bool Machine::Impl::turn() {
  run_warps();
  if (all_exited()) return true;
  if (std::none_of(status.begin(), status.end(), [](Status s) { return s == Status::Run; })) unblock();
  return all_exited();
}

std::size_t Machine::Impl::block_bytes() const {
  const std::size_t bytes = dynamic_start() + spec.dynamic_shared;
  return bytes * (2 + 3 * 16) + std::size_t(threads) * (std::size_t(nregs) * 8 + 5);  // SharedHistory: 3 marks a byte
}

void Machine::Impl::run_cooperative() {
  constexpr std::size_t kMaxStateBytes = std::size_t(1) << 30;
  const unsigned blocks = spec.grid * spec.grid_y;
  if (std::size_t(blocks) * block_bytes() > kMaxStateBytes)
    throw std::invalid_argument("a cooperative launch of " + std::to_string(blocks) + " blocks keeps every block's " +
                                "state at once, past the interpreter's " + std::to_string(kMaxStateBytes >> 20) +
                                " MiB: fewer blocks, or run it on a GPU");
  std::vector<Parked> parked(blocks);
  for (unsigned b = 0; b < blocks; ++b) start_block(b), swap_block(parked[b]);
  std::vector<unsigned> live(blocks);
  std::iota(live.begin(), live.end(), 0u);
  while (!live.empty()) {
    for (std::size_t i = 0; i < live.size();) {
      Parked& p = parked[live[i]];
      swap_block(p);
      globals.begin_block(block_id);
      const bool done = turn();
      if (done) globals.end_block();
      swap_block(p);
      if (done)
        p = Parked{}, live.erase(live.begin() + std::ptrdiff_t(i));
      else
        ++i;
    }
  }
}

}  // namespace rl::own::ptx
