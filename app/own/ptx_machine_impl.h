// The interpreter's insides (ptx_machine.h's Machine::Impl), shared by its two files: the
// instructions of one thread (ptx_machine.cpp) and a block's warps and their .sync instructions
// (ptx_warps.cpp). Not for use outside them.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptx_arith.h"
#include "ptx_machine.h"
#include "ptx_memory.h"
#include "ptx_race.h"

namespace rl::own::ptx {

constexpr std::uint64_t kSharedWindow = 0x7f0000000000ull;  // shared memory's generic addresses
constexpr Type kU32{Kind::U, 4};

enum class Status : std::uint8_t { Run, Barrier, WarpWait, Exited };
struct Stopped {};  // ends a launch at a finding

// An mbarrier's state (the hardware's 8 bytes are opaque): arrivals still due in this phase,
// those each phase expects, transaction bytes still due, and the phases completed.
struct MBarrier {
  std::uint32_t pending = 0, expected = 0;
  std::int64_t tx = 0;
  std::uint32_t phase = 0;
};

struct Machine::Impl {
  Machine& self;
  std::shared_ptr<const Module> m;
  GlobalMemory global;
  std::vector<std::uint64_t> symbol_at;  // a .global's address, or a .shared's offset
  std::size_t static_shared = 0;
  std::uint64_t grid_workspace = 0;  // a cooperative launch's (%envreg1:2), made at the first

  const Entry* e = nullptr;
  LaunchSpec spec;
  LaunchDims dims;       // spec's shape
  unsigned threads = 1;  // a block's: block x block_y
  std::vector<unsigned char> params;
  std::vector<std::size_t> param_at;
  unsigned block_id = 0;
  std::vector<unsigned char> shared, shared_set;
  std::map<std::uint64_t, MBarrier> mbarriers;  // the running block's, by shared offset
  SharedHistory history;
  GlobalAccesses globals;                        // this launch's global accesses, block by block
  const unsigned char* stage_counter = nullptr;  // spec.stage_counter's bytes, found once a launch
  const unsigned char* step_counters = nullptr;  // spec.step_counters' bytes, a thread's 4 each
  std::vector<std::uint64_t> regs;
  std::vector<std::uint32_t> pc;
  std::vector<Status> status;
  std::vector<unsigned> live_;     // run_warps' warps that may still step
  std::vector<std::uint32_t> issued_;  // each warp's instructions issued in the block (MemEvent::issue)
  std::mt19937_64 schedule_rng;    // a seeded schedule's draws
  bool raced = false;              // a race was found: later ones are not reported
  std::vector<unsigned> group_;    // step_warp's lanes at the lowest pc, and whether each is guarded on
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
  std::uint64_t address(unsigned t, const Operand& o, Space* sp);

  // The recorded block's own accesses (not the header's copies): dynamic shared memory by its
  // offset, global loads by address.
  void record(unsigned t, const Instr& in, Space sp, std::uint64_t a, std::size_t n, bool write);
  // The recorded block's warp issued an instruction for group_ alone: marks it split in this stage
  // where any other of its lanes [lo, hi) has not exited (Machine::split_warps).
  void note_split(unsigned warp, unsigned lo, unsigned hi);
  // The student's own global accesses (not the header's sink), for the race check between blocks.
  void global_access(unsigned t, const Instr& in, std::uint64_t a, std::size_t n, bool write,
                     GlobalMemory::Place place);
  void race(const std::string& text, int line) {  // the first race is kept; the run goes on
    if (!text.empty() && !raced) raced = true, self.findings_.push_back({"race", text, line});
  }
  std::uint64_t dynamic_start() const { return (static_shared + 15) / 16 * 16; }

  unsigned char* memory(unsigned t, const Instr& in, Space sp, std::uint64_t a, std::size_t n, bool write);

  void load(unsigned t, const Instr& in);
  void store(unsigned t, const Instr& in);

  // ---- arithmetic ------------------------------------------------------------------------
  [[noreturn]] void refuse(const Instr& in, const std::string& what);

  void arithmetic(unsigned t, const Instr& in);

  void setp(unsigned t, const Instr& in);

  void cvta(unsigned t, const Instr& in);

  void atomic(unsigned t, const Instr& in);

  // mov, and its packing forms (a double's halves for a shuffle).
  void mov(unsigned t, const Instr& in);

  void alu(unsigned t, const Instr& in);

  // ---- mbarriers and bulk copies ----------------------------------------------------------
  MBarrier& mbarrier_at(unsigned t, const Instr& in, std::uint64_t at);
  void complete(MBarrier& b);  // the phase ends where no arrival and no byte is due
  void mbarrier(unsigned t, const Instr& in);
  // cp.async.bulk: the copy is made at once, then its bytes complete on the mbarrier.
  void bulk_copy(unsigned t, const Instr& in);

  // ---- a warp's .sync instructions --------------------------------------------------------
  static bool warp_sync(const Instr& in) {
    return in.op == Op::Shfl || in.op == Op::Vote || in.op == Op::Redux || (in.op == Op::Bar && in.has(Mod::Warp));
  }

  // Runs a .sync instruction for the lanes of `group` (at one pc) if every lane of each one's
  // mask is there; otherwise they wait. True when it ran.
  bool run_warp_sync(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on);

  // redux.sync's integer forms: every lane of the mask gets the reduction of their values.
  void redux(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
             std::uint32_t present);

  void shuffle(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
               unsigned warp0, std::uint32_t present);

  void vote(const Instr& in, const std::vector<unsigned>& group, const std::vector<unsigned char>& on,
            std::uint32_t present);

  // ---- scheduling -------------------------------------------------------------------------
  // One step of a warp: the lanes at its lowest pc run one instruction. False when none can.
  bool step_warp(unsigned warp);

  // Every thread of the block waits at a barrier, has exited, or waits for its warp: release
  // the barrier or the warps' waits, or stop at a finding.
  void unblock();

  // Runs the block's warps until none can go on: in turn, or interleaved at random (spec.schedule).
  void run_warps();

  void retry_waits();
  bool all_exited() const {
    return std::all_of(status.begin(), status.end(), [](Status s) { return s == Status::Exited; });
  }

  // A block's state from its first step (the block-wide fields above).
  void start_block(unsigned b);
  void run_block(unsigned b);

  // ---- a cooperative launch: blocks in turns --------------------------------------------
  // A block between its turns: the block-wide fields, swapped out (swap_block) while others run.
  struct Parked {
    unsigned block_id = 0;
    std::vector<unsigned char> shared, shared_set;
    std::map<std::uint64_t, MBarrier> mbarriers;
    SharedHistory history;
    std::vector<std::uint64_t> regs;
    std::vector<std::uint32_t> pc;
    std::vector<Status> status;
    std::vector<std::uint32_t> issued;
    std::mt19937_64 rng;
  };
  void swap_block(Parked& p);
  // One turn of the running block: each warp up to turn_steps_ steps, then its barriers. True when
  // every thread has exited.
  bool turn();
  // Every block resident: each takes turns until all have exited (a block that waits for another
  // spins in its turns until the other's turn gives it what it waits for).
  void run_cooperative();
  std::size_t block_bytes() const;  // a parked block's state, roughly
  unsigned turn_steps_ = 0;         // a warp's steps a turn (0: until it blocks, one block at a time)

  void prepare(const LaunchSpec& s);
};

}  // namespace rl::own::ptx
