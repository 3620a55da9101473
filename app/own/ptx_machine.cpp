#include "ptx_machine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>

#include "ptx_machine_impl.h"
#include "ptx_narrow.h"

// One thread's instructions and the warp step that runs them (ptx_machine_impl.h). The step's
// path, from a warp's step down to one lane's instruction, is `inline`, as it was while defined in
// the class: out of line without it the CPU path at 2^20 took 0.90 s, not 0.83.
namespace rl::own::ptx {

inline std::uint64_t Machine::Impl::address(unsigned t, const Operand& o, Space* sp) {
  std::uint64_t base = 0;
  if (o.reg >= 0) {
    base = reg(t, o.reg);
  } else if (o.symbol <= -2) {
    *sp = Space::Param;
    base = param_at[std::size_t(-2 - o.symbol)];
  } else if (o.symbol >= 0) {
    base = symbol_at[std::size_t(o.symbol)];
    if (m->symbols[std::size_t(o.symbol)].space == Space::Shared && *sp == Space::Generic) base += kSharedWindow;
  }
  std::uint64_t a = base + o.imm;
  if (*sp == Space::Generic && a >= kSharedWindow && a < kSharedWindow + (std::uint64_t(1) << 32))
    *sp = Space::Shared, a -= kSharedWindow;
  else if (*sp == Space::Generic)
    *sp = Space::Global;
  return a;
}

inline void Machine::Impl::record(unsigned t, const Instr& in, Space sp, std::uint64_t a, std::size_t n, bool write) {
  if (in.header || long(block_id) != spec.record_block || self.events_.size() >= kMaxEvents) return;
  const bool shared_access = sp == Space::Shared;
  if (shared_access ? a < dynamic_start() : (sp != Space::Global || write)) return;
  std::uint32_t stage = 0, step = 0;
  if (stage_counter) std::memcpy(&stage, stage_counter, 4);
  if (step_counters) std::memcpy(&step, step_counters + 4 * std::size_t(t), 4);
  self.events_.push_back({stage, t, write, shared_access, std::uint8_t(std::min<std::size_t>(n, 255)),
                          shared_access ? a - dynamic_start() : a, step, issued_[t / 32]});
}

void Machine::Impl::note_split(unsigned warp, unsigned lo, unsigned hi) {
  std::size_t live = 0;
  for (unsigned t = lo; t < hi; ++t) live += status[t] != Status::Exited;
  if (live <= group_.size()) return;
  std::uint32_t stage = 0;
  if (stage_counter) std::memcpy(&stage, stage_counter, 4);
  auto& split = self.split_;
  if (stage >= kMaxSplitStages) return;
  if (split.size() <= stage) split.resize(stage + 1, 0);
  const std::uint32_t bit = 1u << (warp % 32);  // a block's 32 warps at most
  split[stage] |= bit;
  if (!step_counters) return;  // no armed sink: no rl_lanes steps to mark
  auto& steps = self.split_steps_;
  if (steps.size() <= stage) steps.resize(stage + 1);
  for (const unsigned t : group_) {  // each issuing lane's step: lanes may meet again with different counts
    std::uint32_t step = 0;
    std::memcpy(&step, step_counters + 4 * std::size_t(t), 4);
    if (step >= kMaxSplitSteps) continue;
    if (steps[stage].size() <= step) steps[stage].resize(step + 1, 0);
    steps[stage][step] |= bit;
  }
}

void Machine::Impl::global_access(unsigned t, const Instr& in, std::uint64_t a, std::size_t n, bool write,
                                  GlobalMemory::Place place) {
  const auto name = [&](std::uint64_t byte) { return global.name_at(byte); };
  const bool atomic = in.op == Op::Atom || in.op == Op::Red, past_block = !in.has(Mod::Cta);
  GlobalAccesses::Order order;
  order.strong = atomic || (past_block && (in.has(Mod::Relaxed) || in.has(Mod::Acquire) || in.has(Mod::Release) ||
                                           in.has(Mod::AcqRel) || in.has(Mod::Volatile)));
  order.acquire = atomic || (past_block && (in.has(Mod::Acquire) || in.has(Mod::AcqRel)));
  order.release = past_block && (in.has(Mod::Release) || in.has(Mod::AcqRel));
  race(write ? globals.store(t, in.line, a, n, order, place.region, place.offset, name)
             : globals.load(t, in.line, a, n, order, place.region, place.offset, name),
       in.line);
}

inline unsigned char* Machine::Impl::memory(unsigned t, const Instr& in, Space sp, std::uint64_t a, std::size_t n,
                                            bool write) {
  if (spec.record_block >= 0) record(t, in, sp, a, n, write);
  switch (sp) {
    case Space::Param:
      if (write || a + n > params.size())
        stop("out-of-bounds", where(t, in) + ": a parameter access past the parameters", in.line);
      return params.data() + a;
    case Space::Shared: {
      if (a + n > shared.size())
        stop("out-of-bounds",
             where(t, in) + ": shared memory byte " + std::to_string(a) + " (" + std::to_string(n) +
                 " bytes) is past the block's " + std::to_string(shared.size()),
             in.line);
      if (!in.header && in.op != Op::Atom && in.op != Op::Red)
        if (const std::string r = history.access(t, in.line, a, n, write); !r.empty())
          race("block " + std::to_string(block_id) + ": " + r, in.line);
      if (write) {
        std::fill_n(shared_set.begin() + std::ptrdiff_t(a), n, 1);
      } else if (!in.header &&
                 !std::all_of(shared_set.begin() + std::ptrdiff_t(a), shared_set.begin() + std::ptrdiff_t(a + n),
                              [](unsigned char c) { return c != 0; })) {
        stop("uninitialised-read",
             where(t, in) + ": reads shared memory byte " + std::to_string(a) +
                 " that no thread of the block has written",
             in.line);
      }
      return shared.data() + a;
    }
    default: {
      GlobalMemory::Place place;
      unsigned char* p = global.at(a, n, &place);
      // The header's own accesses are not the student's, but its grid barrier orders theirs.
      if (p && (!in.header || in.op == Op::Atom || in.has(Mod::Acquire) || in.has(Mod::Release)))
        global_access(t, in, a, n, write, place);
      if (!p)
        stop("out-of-bounds",
             where(t, in) + ": " + std::to_string(n) + " bytes at global address 0x" + hex_of(a) +
                 ", inside no buffer" + global.nearest(a),
             in.line);
      return p;
    }
  }
}

inline void Machine::Impl::load(unsigned t, const Instr& in) {
  Space sp = in.space;
  const std::uint64_t a = address(t, in.args[1], &sp);
  const std::size_t n = in.type.bytes;
  const unsigned char* src = memory(t, in, sp, a, n * std::size_t(in.vec), false);
  const std::size_t count = in.vec > 1 ? in.args[0].regs.size() : 1;
  for (std::size_t i = 0; i < count; ++i) {
    const int dst = in.vec > 1 ? in.args[0].regs[i] : in.args[0].reg;
    std::uint64_t v = 0;
    std::memcpy(&v, src + i * n, n);
    if (in.type.kind == Kind::S) v = std::uint64_t(sext(v, int(n)));
    if (dst >= 0) reg(t, dst) = v;
  }
}

inline void Machine::Impl::store(unsigned t, const Instr& in) {
  Space sp = in.space;
  const std::uint64_t a = address(t, in.args[0], &sp);
  const std::size_t n = in.type.bytes;
  unsigned char* dst = memory(t, in, sp, a, n * std::size_t(in.vec), true);
  if (in.vec > 1) {
    for (std::size_t i = 0; i < in.args[1].regs.size(); ++i) {
      const std::uint64_t v = reg(t, in.args[1].regs[i]);
      std::memcpy(dst + i * n, &v, n);
    }
    return;
  }
  const std::uint64_t v = value(t, in.args[1], in.type);
  std::memcpy(dst, &v, n);
}

void Machine::Impl::refuse(const Instr& in, const std::string& what) {
  stop("not-modelled", what + " at line " + std::to_string(in.line) + ": not modelled on the CPU: run it on a GPU",
       in.line);
}

inline void Machine::Impl::arithmetic(unsigned t, const Instr& in) {
  const Type src = in.type, shift{Kind::U, 4};  // .wide reads sources of the type, writes twice as wide
  const std::uint64_t a = in.args.size() > 1 ? value(t, in.args[1], src) : 0;
  const std::uint64_t b =
      in.args.size() > 2 ? value(t, in.args[2], in.op == Op::Shl || in.op == Op::Shr ? shift : src) : 0;
  Type dst = in.type;
  if (in.has(Mod::Wide)) dst.bytes = std::uint8_t(2 * in.type.bytes);
  const std::uint64_t c = in.args.size() > 3 ? value(t, in.args[3], dst) : 0;
  if (in.type.kind == Kind::Pred) {
    const std::uint64_t r = in.op == Op::And ? (a & b) : in.op == Op::Or ? (a | b) : in.op == Op::Xor ? (a ^ b) : !a;
    return set(t, in.args[0], in.type, r);
  }
  const std::uint64_t r = is_float(in.type) ? float_op(in, a, b, c) : int_op(in, a, b, c);
  set(t, in.args[0], dst, r);
}

inline void Machine::Impl::setp(unsigned t, const Instr& in) {
  bool p = compare(in, value(t, in.args[1], in.type), value(t, in.args[2], in.type));
  bool q = !p;
  if (in.args.size() > 3) {  // .and / .or / .xor with a predicate
    const bool c = value(t, in.args[3], Type{Kind::Pred, 1}) != 0;
    if (in.has(Mod::And))
      p = p && c, q = q && c;
    else if (in.has(Mod::Or))
      p = p || c, q = q || c;
    else if (in.has(Mod::Xor))
      p = p != c, q = q != c;
  }
  const Operand& d = in.args[0];
  if (d.what == Operand::Vector) {
    reg(t, d.regs[0]) = p, reg(t, d.regs[1]) = q;
  } else {
    reg(t, d.reg) = p;
  }
}

inline void Machine::Impl::cvta(unsigned t, const Instr& in) {
  std::uint64_t v = value(t, in.args[1], Type{Kind::U, 8});
  if (in.args[1].what == Operand::Symbol && m->symbols[std::size_t(in.args[1].symbol)].space == Space::Shared &&
      !in.has(Mod::To))
    v = symbol_at[std::size_t(in.args[1].symbol)];
  if (in.space == Space::Shared) v = in.has(Mod::To) ? v - kSharedWindow : v + kSharedWindow;
  set(t, in.args[0], in.type, v);
}

inline void Machine::Impl::atomic(unsigned t, const Instr& in) {
  const bool red = in.op == Op::Red;
  Space sp = in.space;
  const Operand& at = red ? in.args[0] : in.args[1];
  const std::uint64_t a = address(t, at, &sp);
  const std::size_t n = in.type.bytes;
  unsigned char* p = memory(t, in, sp, a, n, true);
  std::uint64_t old = 0;
  std::memcpy(&old, p, n);
  const std::uint64_t b = value(t, red ? in.args[1] : in.args[2], in.type);
  const std::uint64_t c = in.has(Mod::Cas) ? value(t, in.args[3], in.type) : 0;
  const std::uint64_t r = atomic_result(in, old, b, c);
  std::memcpy(p, &r, n);
  if (!red) set(t, in.args[0], in.type, old);
}

inline void Machine::Impl::mov(unsigned t, const Instr& in) {
  const Operand &dst = in.args[0], &src = in.args[1];
  if (src.what == Operand::Vector) {
    std::vector<std::uint64_t> parts;
    for (int r : src.regs) parts.push_back(r >= 0 ? reg(t, r) : 0);
    return set(t, dst, in.type, join_bits(parts, in.type.bytes));
  }
  const std::uint64_t v = value(t, src, in.type);
  if (dst.what != Operand::Vector) return set(t, dst, in.type, v);
  for (std::size_t i = 0; i < dst.regs.size(); ++i)
    if (dst.regs[i] >= 0) reg(t, dst.regs[i]) = split_bits(v, in.type.bytes, dst.regs.size(), i);
}

inline void Machine::Impl::alu(unsigned t, const Instr& in) {
  switch (in.op) {
    case Op::Mov: return mov(t, in);
    case Op::Setp: return setp(t, in);
    case Op::Selp: {
      const bool c = value(t, in.args[3], Type{Kind::Pred, 1}) != 0;
      return set(t, in.args[0], in.type, value(t, in.args[c ? 1 : 2], in.type));
    }
    case Op::Cvt: return set(t, in.args[0], in.type, convert(in, value(t, in.args[1], in.type2)));
    case Op::Cvta: return cvta(t, in);
    case Op::Ld: return load(t, in);
    case Op::St: return store(t, in);
    case Op::Atom:
    case Op::Red: return atomic(t, in);
    case Op::Membar:  // a fence past the block orders its global accesses for other blocks
      if (!in.has(Mod::Cta) && in.mods.find(".proxy") == std::string::npos) globals.fence();
      return;  // a proxy fence orders a block's own accesses and its bulk copies: they are made at once here
    case Op::Mbarrier: return mbarrier(t, in);
    case Op::Cp: return bulk_copy(t, in);
    case Op::Bfe:
      return set(t, in.args[0], in.type,
                 bit_field_extract(in, value(t, in.args[1], in.type), std::uint32_t(value(t, in.args[2], kU32)),
                                   std::uint32_t(value(t, in.args[3], kU32))));
    case Op::Bfi:
      return set(
          t, in.args[0], in.type,
          bit_field_insert(in, value(t, in.args[1], in.type), value(t, in.args[2], in.type),
                           std::uint32_t(value(t, in.args[3], kU32)), std::uint32_t(value(t, in.args[4], kU32))));
    default: return arithmetic(t, in);
  }
}

MBarrier& Machine::Impl::mbarrier_at(unsigned t, const Instr& in, std::uint64_t at) {
  const auto it = mbarriers.find(at);
  if (it == mbarriers.end())
    stop("uninitialised-read",
         where(t, in) + ": an mbarrier at shared byte " + std::to_string(at) + " that mbarrier.init has not set up",
         in.line);
  return it->second;
}

void Machine::Impl::complete(MBarrier& b) {
  if (b.pending == 0 && b.tx == 0) ++b.phase, b.pending = b.expected;
}

void Machine::Impl::mbarrier(unsigned t, const Instr& in) {
  const bool init = in.mods.rfind(".init", 0) == 0, arrive = in.mods.rfind(".arrive", 0) == 0;
  Space sp = Space::Shared;
  const std::uint64_t at = address(t, in.args[init ? 0 : 1], &sp);
  if (sp != Space::Shared || at % 8 != 0 || at + 8 > shared.size())
    stop("out-of-bounds",
         where(t, in) + ": an mbarrier at " + std::to_string(at) + ", not 8 aligned bytes of shared memory", in.line);
  if (init) {
    const auto count = std::uint32_t(value(t, in.args[1], kU32));
    mbarriers[at] = MBarrier{count, count, 0, 0};
    std::fill_n(shared_set.begin() + std::ptrdiff_t(at), 8, 1);
    return;
  }
  MBarrier& b = mbarrier_at(t, in, at);
  if (arrive) {
    if (in.mods.find(".expect_tx") != std::string::npos) b.tx += std::int64_t(value(t, in.args[2], kU32));
    if (b.pending == 0)
      stop("divergent-barrier", where(t, in) + ": an arrival at an mbarrier whose phase expects no more", in.line);
    if (in.args[0].what == Operand::Reg) set(t, in.args[0], Type{Kind::B, 8}, b.phase);  // the state: its phase
    --b.pending;
    return complete(b);
  }
  // try_wait / test_wait: whether the phase of that parity (or since that state) has completed.
  const bool parity = in.mods.find(".parity") != std::string::npos;
  const auto which = std::uint32_t(value(t, in.args[2], parity ? kU32 : Type{Kind::B, 8}));
  const bool done = parity ? (b.phase & 1u) != (which & 1u) : b.phase != which;
  set(t, in.args[0], Type{Kind::Pred, 1}, done);
}

void Machine::Impl::bulk_copy(unsigned t, const Instr& in) {
  Space to = Space::Shared, from = Space::Global, bar = Space::Shared;
  const std::uint64_t dst = address(t, in.args[0], &to), src = address(t, in.args[1], &from);
  const std::uint64_t bytes = value(t, in.args[2], kU32), at = address(t, in.args[3], &bar);
  if (bytes % 16 != 0 || dst % 16 != 0 || src % 16 != 0)
    stop("out-of-bounds",
         where(t, in) + ": a bulk copy of " + std::to_string(bytes) + " bytes from 0x" + hex_of(src) +
             " to shared byte " + std::to_string(dst) + ": both addresses and the size must be multiples of 16",
         in.line);
  if (dst + bytes > shared.size())
    stop("out-of-bounds",
         where(t, in) + ": a bulk copy to shared bytes " + std::to_string(dst) + " to " + std::to_string(dst + bytes) +
             ", past the block's " + std::to_string(shared.size()),
         in.line);
  MBarrier& b = mbarrier_at(t, in, at);
  const unsigned char* p = memory(t, in, Space::Global, src, std::size_t(bytes), false);
  std::copy_n(p, bytes, shared.begin() + std::ptrdiff_t(dst));  // the async proxy's write: outside the race check
  std::fill_n(shared_set.begin() + std::ptrdiff_t(dst), bytes, 1);
  b.tx -= std::int64_t(bytes);
  complete(b);
}

void Machine::Impl::prepare(const LaunchSpec& s) {
  e = m->entry(s.entry);
  if (!e) throw std::invalid_argument("the PTX has no kernel " + s.entry);
  globals.reset(s.grid * s.grid_y);
  stage_counter = s.record_block >= 0 ? global.at(s.stage_counter, 4) : nullptr;
  step_counters = s.record_block >= 0 && s.step_counters
                      ? global.at(s.step_counters, 4 * std::size_t(s.block) * s.block_y)
                      : nullptr;
  if (s.params.size() != e->params.size())
    throw std::invalid_argument("the kernel takes " + std::to_string(e->params.size()) + " parameters, given " +
                                std::to_string(s.params.size()));
  if (s.block == 0 || s.block_y == 0 || std::uint64_t(s.block) * s.block_y > 1024 || s.grid == 0 || s.grid_y == 0)
    throw std::invalid_argument("a launch of no threads or past 1024 a block");
  spec = s;
  dims = {s.block, s.block_y, s.grid, s.grid_y, 0};
  if (s.cooperative) {  // cooperative groups' grid barrier: zeroed once, as the driver's, kept between launches
    if (!grid_workspace) grid_workspace = global.add(16, "the grid's barrier (cooperative groups' grid.sync)");
    dims.grid_workspace = grid_workspace;
  }
  turn_steps_ = s.cooperative ? 64 : 0;  // short enough that a spinning warp yields soon
  threads = s.block * s.block_y;
  nregs = std::max(e->registers, 1);
  params.clear(), param_at.clear();
  for (std::size_t i = 0; i < e->params.size(); ++i) {
    const Param& p = e->params[i];
    const Arg& a = s.params[i];
    if (!a.blob.empty() && a.blob.size() != p.bytes)
      throw std::invalid_argument("parameter " + std::to_string(i) + " takes " + std::to_string(p.bytes) +
                                  " bytes, given " + std::to_string(a.blob.size()));
    if (a.blob.empty() && p.bytes > sizeof a.bits)
      throw std::invalid_argument("parameter " + std::to_string(i) + " is a struct of " + std::to_string(p.bytes) +
                                  " bytes, given a number");
    const std::size_t at = (params.size() + p.align - 1) / p.align * p.align;
    params.resize(at + p.bytes);
    std::memcpy(params.data() + at, a.blob.empty() ? static_cast<const void*>(&a.bits) : a.blob.data(), p.bytes);
    param_at.push_back(at);
  }
  for (std::size_t i = 0; i < m->symbols.size(); ++i)
    if (m->symbols[i].dynamic) symbol_at[i] = dynamic_start();
}

inline bool Machine::Impl::step_warp(unsigned warp) {
  const unsigned lo = warp * 32, hi = std::min(threads, lo + 32);
  std::uint32_t pc0 = UINT32_MAX;
  for (unsigned t = lo; t < hi; ++t)
    if (status[t] == Status::Run) pc0 = std::min(pc0, pc[t]);
  if (pc0 == UINT32_MAX) return false;
  if (pc0 >= e->code.size()) {
    for (unsigned t = lo; t < hi; ++t)
      if (status[t] == Status::Run && pc[t] == pc0) status[t] = Status::Exited;
    return true;
  }
  const Instr& in = e->code[pc0];
  ++issued_[warp];
  group_.clear(), on_.clear();  // kept between steps: no allocation a step
  for (unsigned t = lo; t < hi; ++t) {
    if (status[t] != Status::Run || pc[t] != pc0) continue;
    group_.push_back(t);
    const bool g = in.guard < 0 || ((reg(t, in.guard) != 0) != in.guard_negated);
    on_.push_back(g);
  }
  if (long(block_id) == spec.record_block && !in.header && group_.size() < hi - lo) note_split(warp, lo, hi);
  const std::size_t active = std::size_t(std::count(on_.begin(), on_.end(), 1));
  self.steps_ += active;
  if (self.steps_ > spec.step_budget)
    stop("step-budget",
         where(group_[0], in) + ": past the step budget of " + std::to_string(spec.step_budget) +
             " thread-instructions (a loop that never ends?" +
             (spec.grid * spec.grid_y > 1 && !spec.cooperative
                  ? " Or a block waiting for another: outside a cooperative launch blocks run one after another)"
                  : ")"),
         in.line);
  if (warp_sync(in) && active > 0) {
    if (!run_warp_sync(in, group_, on_)) return true;
    for (unsigned t : group_) pc[t] = pc0 + 1;
    return true;
  }
  for (std::size_t i = 0; i < group_.size(); ++i) {
    const unsigned t = group_[i];
    if (!on_[i]) {
      pc[t] = pc0 + 1;
      continue;
    }
    switch (in.op) {
      case Op::Bra: pc[t] = std::uint32_t(in.args[0].imm); break;
      case Op::Ret: status[t] = Status::Exited; break;
      case Op::Bar: status[t] = Status::Barrier; break;
      case Op::Trap:
        stop("trap",
             where(t, in) + ": trap, the kernel stopped itself" +
                 (spec.cooperative ? "" : " (cooperative groups' grid.sync() traps outside a cooperative launch)"),
             in.line);
      case Op::Activemask: {
        std::uint32_t mask = 0;
        for (std::size_t k = 0; k < group_.size(); ++k)
          if (on_[k]) mask |= 1u << (group_[k] - lo);
        set(t, in.args[0], in.type, mask);
        pc[t] = pc0 + 1;
        break;
      }
      default: alu(t, in), pc[t] = pc0 + 1;
    }
  }
  return true;
}

void Machine::Impl::run_warps() {
  const unsigned warps = (threads + 31) / 32;
  // In a cooperative launch's turn a warp runs at most turn_steps_ steps (on average, drawn at random)
  const std::uint64_t cap = turn_steps_ ? turn_steps_ : UINT64_MAX;
  if (spec.schedule == 0) {
    for (unsigned warp = 0; warp < warps; ++warp)
      for (std::uint64_t n = 0; n < cap && step_warp(warp);) ++n;
    return;
  }
  live_.resize(warps);
  std::iota(live_.begin(), live_.end(), 0u);
  for (std::uint64_t left = turn_steps_ ? cap * warps : UINT64_MAX; !live_.empty() && left > 0;) {
    const std::size_t k = schedule_rng() % live_.size();
    const unsigned burst = 1 + unsigned(schedule_rng() % 64);
    unsigned ran = 0;
    while (ran < burst && left > 0 && step_warp(live_[k])) ++ran, --left;
    if (ran < burst && left > 0) live_.erase(live_.begin() + std::ptrdiff_t(k));  // blocked or done
  }
}

Machine::Machine(std::shared_ptr<const Module> module) : impl_(std::make_unique<Impl>(*this, std::move(module))) {}
Machine::~Machine() = default;

std::uint64_t Machine::alloc(std::size_t bytes, const std::string& name) { return impl_->global.add(bytes, name); }

unsigned char* Machine::host(std::uint64_t address, std::size_t bytes) {
  unsigned char* p = impl_->global.at(address, bytes);
  if (!p) throw std::out_of_range("no buffer holds " + std::to_string(bytes) + " bytes at that address");
  return p;
}

std::uint64_t Machine::symbol_address(const std::string& name) const {
  const auto it = impl_->m->symbol_index.find(name);
  const auto space = [&] { return impl_->m->symbols[std::size_t(it->second)].space; };
  if (it == impl_->m->symbol_index.end() || (space() != Space::Global && space() != Space::Const))
    throw std::invalid_argument("the PTX has no .global or .const " + name);
  return impl_->symbol_at[std::size_t(it->second)];
}

bool Machine::launch(const LaunchSpec& spec) {
  impl_->prepare(spec);
  if (spec.record_block >= 0) events_.clear(), split_.clear(), split_steps_.clear();
  try {
    if (spec.cooperative)
      impl_->run_cooperative();
    else
      for (unsigned b = 0; b < spec.grid * spec.grid_y; ++b) impl_->run_block(b);
  } catch (const Stopped&) {
    return false;
  } catch (const NotModelled& n) {  // raised outside an instruction's own check (a vote's kind)
    findings_.push_back({"not-modelled",
                         n.what + " at line " + std::to_string(n.line) + ": not modelled on the CPU: run it on a GPU",
                         n.line});
    return false;
  }
  return true;
}

}  // namespace rl::own::ptx
