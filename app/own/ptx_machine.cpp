#include "ptx_machine.h"

#include "ptx_arith.h"
#include "ptx_memory.h"
#include "ptx_narrow.h"
#include "ptx_race.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace rl::own::ptx {
namespace {

constexpr std::uint64_t kSharedWindow = 0x7f0000000000ull;     // shared memory's generic addresses
constexpr Type kU32{Kind::U, 4};

enum class Status : std::uint8_t { Run, Barrier, WarpWait, Exited };
struct Stopped {};  // ends a launch at a finding
}  // namespace

struct Machine::Impl {
  Machine& self;
  std::shared_ptr<const Module> m;
  GlobalMemory global;
  std::vector<std::uint64_t> symbol_at;  // a .global's address, or a .shared's offset
  std::size_t static_shared = 0;

  const Entry* e = nullptr;
  LaunchSpec spec;
  LaunchDims dims;       // spec's shape
  unsigned threads = 1;  // a block's: block x block_y
  std::vector<unsigned char> params;
  std::vector<std::size_t> param_at;
  unsigned block_id = 0;
  std::vector<unsigned char> shared, shared_set;
  SharedHistory history;
  GlobalAccesses globals;                        // this launch's global accesses, block by block
  const unsigned char* stage_counter = nullptr;  // spec.stage_counter's bytes, found once a launch
  const unsigned char* step_counters = nullptr;  // spec.step_counters' bytes, a thread's 4 each
  std::vector<std::uint64_t> regs;
  std::vector<std::uint32_t> pc;
  std::vector<Status> status;
  std::vector<unsigned> live_;   // run_warps' warps that may still step
  std::mt19937_64 schedule_rng;  // a seeded schedule's draws
  bool raced = false;            // a race was found: later ones are not reported
  std::vector<unsigned> group_;  // step_warp's lanes at the lowest pc, and whether each is guarded on
  std::vector<unsigned char> on_;  // bytes, not std::vector<bool>'s bits: read on every step
  int nregs = 0;

  Impl(Machine& s, std::shared_ptr<const Module> mod) : self(s), m(std::move(mod)) {
    for (const Symbol& v : m->symbols) {
      if (v.space == Space::Shared) {
        static_shared = (static_shared + v.align - 1) / v.align * v.align;
        symbol_at.push_back(v.dynamic ? 0 : static_shared);
        if (!v.dynamic) static_shared += v.bytes;
      } else {
        symbol_at.push_back(global.add(v.bytes, v.name));
        if (!v.init.empty()) std::copy(v.init.begin(), v.init.end(), global.at(symbol_at.back(), v.init.size()));
      }
    }
  }

  // ---- findings --------------------------------------------------------------------------
  std::string where(unsigned t, const Instr& in) const {
    return "thread " + std::to_string(t) + " of block " + std::to_string(block_id) + " at line " +
           std::to_string(in.line);
  }
  [[noreturn]] void stop(const std::string& kind, const std::string& text, int line) {
    self.findings_.push_back({kind, text, line});
    throw Stopped{};
  }

  // ---- operands --------------------------------------------------------------------------
  std::uint64_t& reg(unsigned t, int r) { return regs[std::size_t(t) * std::size_t(nregs) + std::size_t(r)]; }

  std::uint64_t value(unsigned t, const Operand& o, Type ty) {
    std::uint64_t v = 0;
    switch (o.what) {
      case Operand::Reg: v = reg(t, o.reg); break;
      case Operand::Imm: v = o.imm; break;
      case Operand::Special: v = special_value(o.imm, t, dims, block_id); break;
      case Operand::Symbol:  // a variable's address, or a parameter's offset in the parameter space
        v = o.symbol <= -2 ? param_at[std::size_t(-2 - o.symbol)] : symbol_at[std::size_t(o.symbol)];
        break;
      default: throw std::invalid_argument("an operand that holds no value");
    }
    if (ty.kind == Kind::Pred) return (v != 0) != o.negate ? 1 : 0;
    return v & mask_of(ty.bytes);
  }
  void set(unsigned t, const Operand& o, Type ty, std::uint64_t v) {
    if (o.what != Operand::Reg) throw std::invalid_argument("a destination that is not a register");
    reg(t, o.reg) = ty.kind == Kind::Pred ? (v != 0) : (v & mask_of(ty.bytes));
  }

  // ---- memory ----------------------------------------------------------------------------
  std::uint64_t address(unsigned t, const Operand& o, Space* sp) {
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

  // The recorded block's own accesses (not the header's copies): dynamic shared memory by its
  // offset, global loads by address.
  void record(unsigned t, const Instr& in, Space sp, std::uint64_t a, std::size_t n, bool write) {
    if (in.header || long(block_id) != spec.record_block || self.events_.size() >= kMaxEvents) return;
    const bool shared_access = sp == Space::Shared;
    if (shared_access ? a < dynamic_start() : (sp != Space::Global || write)) return;
    std::uint32_t stage = 0, step = 0;
    if (stage_counter) std::memcpy(&stage, stage_counter, 4);
    if (step_counters) std::memcpy(&step, step_counters + 4 * std::size_t(t), 4);
    self.events_.push_back({stage, t, write, shared_access, std::uint8_t(std::min<std::size_t>(n, 255)),
                            shared_access ? a - dynamic_start() : a, step});
  }
  // The student's own global accesses (not the header's sink), for the race check between blocks.
  void global_access(unsigned t, const Instr& in, std::uint64_t a, std::size_t n, bool write,
                     GlobalMemory::Place place) {
    const auto name = [&](std::uint64_t byte) { return global.name_at(byte); };
    const bool atomic = in.op == Op::Atom || in.op == Op::Red;
    race(write ? globals.store(t, in.line, a, n, atomic, place.region, place.offset, name)
               : globals.load(t, in.line, a, n, place.region, place.offset, name),
         in.line);
  }
  void race(const std::string& text, int line) {  // the first race is kept; the run goes on
    if (!text.empty() && !raced) raced = true, self.findings_.push_back({"race", text, line});
  }
  std::uint64_t dynamic_start() const { return (static_shared + 15) / 16 * 16; }

  unsigned char* memory(unsigned t, const Instr& in, Space sp, std::uint64_t a, std::size_t n, bool write) {
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
        if (p && !in.header) global_access(t, in, a, n, write, place);
        if (!p)
          stop("out-of-bounds",
               where(t, in) + ": " + std::to_string(n) + " bytes at global address 0x" + hex_of(a) +
                   ", inside no buffer" + global.nearest(a),
               in.line);
        return p;
      }
    }
  }

  void load(unsigned t, const Instr& in) {
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
  void store(unsigned t, const Instr& in) {
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

  // ---- arithmetic ------------------------------------------------------------------------
  [[noreturn]] void refuse(const Instr& in, const std::string& what) {
    stop("not-modelled", what + " at line " + std::to_string(in.line) + ": not modelled on the CPU: run it on a GPU",
         in.line);
  }

  void arithmetic(unsigned t, const Instr& in) {
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

  void setp(unsigned t, const Instr& in) {
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

  void cvta(unsigned t, const Instr& in) {
    std::uint64_t v = value(t, in.args[1], Type{Kind::U, 8});
    if (in.args[1].what == Operand::Symbol && m->symbols[std::size_t(in.args[1].symbol)].space == Space::Shared &&
        !in.has(Mod::To))
      v = symbol_at[std::size_t(in.args[1].symbol)];
    if (in.space == Space::Shared) v = in.has(Mod::To) ? v - kSharedWindow : v + kSharedWindow;
    set(t, in.args[0], in.type, v);
  }

  void atomic(unsigned t, const Instr& in) {
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

  // mov, and its packing forms (a double's halves for a shuffle).
  void mov(unsigned t, const Instr& in) {
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

  void alu(unsigned t, const Instr& in) {
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
        if ((in.mods + ".").find(".cta.") == std::string::npos) globals.fence();
        return;
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

  // ---- a warp's .sync instructions --------------------------------------------------------
  static bool warp_sync(const Instr& in) {
    return in.op == Op::Shfl || in.op == Op::Vote || in.op == Op::Redux || (in.op == Op::Bar && in.has(Mod::Warp));
  }

  // Runs a .sync instruction for the lanes of `group` (at one pc) if every lane of each one's
  // mask is there; otherwise they wait. True when it ran.
  bool run_warp_sync(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on) {
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
          stop("shuffle-mask",
               where(group[0], in) + ": the mask names lane " + std::to_string(l) + ", which has exited", in.line);
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

  // redux.sync's integer forms: every lane of the mask gets the reduction of their values.
  void redux(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
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

  void shuffle(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
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
        stop("shuffle-mask", where(t, in) + ": reads lane " + std::to_string(j) + ", which is not taking part",
             in.line);
      const Operand& d = in.args[0];
      if (d.what == Operand::Vector) {
        reg(t, d.regs[0]) = source[std::size_t(j)], reg(t, d.regs[1]) = pval;
      } else {
        reg(t, d.reg) = source[std::size_t(j)];
      }
    }
  }

  void vote(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
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

  // ---- scheduling -------------------------------------------------------------------------
  // One step of a warp: the lanes at its lowest pc run one instruction. False when none can.
  bool step_warp(unsigned warp) {
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
    group_.clear(), on_.clear();  // kept between steps: no allocation a step
    for (unsigned t = lo; t < hi; ++t) {
      if (status[t] != Status::Run || pc[t] != pc0) continue;
      group_.push_back(t);
      const bool g = in.guard < 0 || ((reg(t, in.guard) != 0) != in.guard_negated);
      on_.push_back(g);
    }
    const std::size_t active = std::size_t(std::count(on_.begin(), on_.end(), 1));
    self.steps_ += active;
    if (self.steps_ > spec.step_budget)
      stop("step-budget",
           where(group_[0], in) + ": past the step budget of " + std::to_string(spec.step_budget) +
               " thread-instructions (a loop that never ends?)",
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

  // Every thread of the block waits at a barrier, has exited, or waits for its warp: release
  // the barrier or the warps' waits, or stop at a finding.
  void unblock() {
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
             "threads " + std::to_string(first) + " and " + std::to_string(t) + " of block " +
                 std::to_string(block_id) + " wait at different barriers (lines " +
                 std::to_string(e->code[barrier_pc].line) + " and " + std::to_string(e->code[pc[t]].line) + ")",
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

  // Runs the block's warps until none can go on: in turn, or interleaved at random (spec.schedule).
  void run_warps() {
    const unsigned warps = (threads + 31) / 32;
    if (spec.schedule == 0) {
      for (unsigned warp = 0; warp < warps; ++warp)
        while (step_warp(warp)) {}
      return;
    }
    live_.resize(warps);
    std::iota(live_.begin(), live_.end(), 0u);
    while (!live_.empty()) {
      const std::size_t k = schedule_rng() % live_.size();
      const unsigned burst = 1 + unsigned(schedule_rng() % 64);
      unsigned ran = 0;
      while (ran < burst && step_warp(live_[k])) ++ran;
      if (ran < burst) live_.erase(live_.begin() + std::ptrdiff_t(k));  // blocked or done
    }
  }

  void retry_waits() {
    run_warps();
    bool stuck = false;
    unsigned t0 = 0;
    for (unsigned t = 0; t < threads; ++t)
      if (status[t] == Status::WarpWait) stuck = true, t0 = t;
    bool all_done = true;
    for (unsigned t = 0; t < threads; ++t) all_done = all_done && status[t] == Status::Exited;
    if (stuck && !all_done) {
      bool barrier = false;
      for (unsigned t = 0; t < threads; ++t) barrier = barrier || status[t] == Status::Barrier;
      if (!barrier)
        stop("shuffle-mask",
             "thread " + std::to_string(t0) + " of block " + std::to_string(block_id) + " waits at line " +
                 std::to_string(e->code[pc[t0]].line) + " for lanes of its mask that never arrive there",
             e->code[pc[t0]].line);
    }
  }

  void run_block(unsigned b) {
    block_id = b;
    globals.begin_block(b);
    shared.assign(dynamic_start() + spec.dynamic_shared, 0);  // the dynamic part starts 16-aligned
    shared_set.assign(shared.size(), 0);
    history.reset(shared.size(), (threads + 31) / 32);
    regs.assign(std::size_t(threads) * std::size_t(nregs), 0);
    pc.assign(threads, 0);
    status.assign(threads, Status::Run);
    schedule_rng.seed(spec.schedule ^ (std::uint64_t(b) * 0x9e3779b97f4a7c15ull));
    for (;;) {
      run_warps();
      if (std::all_of(status.begin(), status.end(), [](Status s) { return s == Status::Exited; })) return;
      unblock();
    }
  }

  void prepare(const LaunchSpec& s) {
    e = m->entry(s.entry);
    if (!e) throw std::invalid_argument("the PTX has no kernel " + s.entry);
    globals.reset();
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
    dims = {s.block, s.block_y, s.grid, s.grid_y};
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
};

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
  if (spec.record_block >= 0) events_.clear();
  try {
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
