// PTX as NVRTC writes it, read into instructions the CPU path runs (ptx_machine.h). Only the
// instructions the interpreter models are accepted: any other is refused in words naming it and
// its line, so a kernel is either interpreted faithfully or not at all.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace rl::own::ptx {

constexpr std::size_t kMaxPtxBytes = 16u << 20;

enum class Op : std::uint8_t {
  Mov,
  Add,
  Sub,
  Mul,
  Mad,
  Fma,
  Div,
  Rem,
  Min,
  Max,
  Neg,
  Abs,
  And,
  Or,
  Xor,
  Not,
  Shl,
  Shr,
  Setp,
  Selp,
  Cvt,
  Cvta,
  Ld,
  St,
  Bra,
  Bar,
  Ret,
  Shfl,
  Atom,
  Red,
  Membar,
  Vote,
  Activemask,
  Popc,
  Clz,
  Brev,
  Bfe,
  Bfi,
  Rcp,
  Sqrt,
  Redux,
  Trap,
  Bfind,     // the most significant bit unlike the sign (.shiftamt: its distance from the top)
  Mbarrier,  // init, arrive (.expect_tx), try_wait/test_wait (.parity): ptx_machine.cpp's model
  Cp,        // cp.async.bulk from global into shared memory, completing on an mbarrier
};

// The operand types PTX names: .u8 .s32 .f16 .f32 .bf16 .b64 .pred ... (size in bytes, kind);
// .f16x2 and .bf16x2 are pairs of 16-bit values in 4 bytes.
enum class Kind : std::uint8_t { U, S, F, Bf, B, Pred };
struct Type {
  Kind kind = Kind::B;
  std::uint8_t bytes = 4;
  bool pair = false;
};

enum class Space : std::uint8_t { Generic, Global, Shared, Param, Local, Const };

struct Operand {
  enum What : std::uint8_t { None, Reg, Imm, Special, Symbol, Address, Label, Vector } what = None;
  int reg = -1;           // Reg, Address (base register; -1: a symbol or an absolute address)
  std::uint64_t imm = 0;  // Imm (bits), Address offset, Special (which), Label (instruction index)
  int symbol = -1;        // Symbol, Address (base symbol)
  bool negate = false;    // a predicate operand written !%p
  std::vector<int> regs;  // Vector: {%f1, %f2, ...}
};

// The suffixes the interpreter asks about (Instr::has), decoded once when the PTX is read: asking
// by name for every thread of every instruction was a fifth of the CPU path's time (perf).
enum class Mod : std::uint8_t {
  Add,
  All,
  And,
  Any,
  Approx,
  Ballot,
  Bfly,
  Cas,
  Dec,
  Down,
  Exch,
  Ftz,
  Full,
  Hi,
  Inc,
  Max,
  Min,
  Or,
  Rm,
  Rmi,
  Rn,
  Rni,
  Rp,
  Rpi,
  Rz,
  Rzi,
  To,
  Uni,
  Up,
  Warp,
  Wide,
  Xor,
  // A memory access's order and scope (ld.acquire.gpu, st.relaxed.sys, atom.release.gpu, .volatile):
  // the race check between blocks reads them (ptx_race.h).
  Acquire,
  Release,
  Relaxed,
  Volatile,
  AcqRel,
  Cta,
  Gpu,
  Sys
};
inline constexpr std::string_view kModNames[] = {
    "add",  "all", "and",     "any",     "approx",  "ballot",   "bfly",    "cas", "dec", "down",
    "exch", "ftz", "full",    "hi",      "inc",     "max",      "min",     "or",  "rm",  "rmi",
    "rn",   "rni", "rp",      "rpi",     "rz",      "rzi",      "to",      "uni", "up",  "warp",
    "wide", "xor", "acquire", "release", "relaxed", "volatile", "acq_rel", "cta", "gpu", "sys"};

// setp's comparison, decoded once; None: one the interpreter does not model (refused when run).
enum class Cmp : std::uint8_t { None, Eq, Ne, Lt, Le, Gt, Ge, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan, Lo, Ls, Hi, Hs };

struct Instr {
  Op op;
  Type type, type2;  // type2: cvt's source, setp's... (the second type suffix)
  Space space = Space::Generic;
  std::string mods;  // every other suffix, dot-separated (".lo", ".rn", ".down", ".eq", ".wide" ...)
  int vec = 1;       // .v2 / .v4
  int guard = -1;    // @%p: the predicate register; -1: none
  bool guard_negated = false;
  std::vector<Operand> args;
  int file = 0, line = 0;  // from .loc: the student's line (a header line's inlined_at)
  int origin = 0;          // the .loc's own file (before inlined_at)
  bool header = false;     // the code is reduction_lab.cuh's own (its reads are the trace's copies)
  std::uint64_t mod_bits = 0;  // bit Mod::X: .x is among mods
  Cmp cmp = Cmp::None;         // the first suffix as a comparison (setp)
  bool has(Mod m) const { return (mod_bits >> unsigned(m) & 1u) != 0; }
};

// A module variable (.global, .shared, .const) and its place.
struct Symbol {
  std::string name;
  Space space = Space::Global;
  std::size_t bytes = 0;  // 0 with extern: the launch's dynamic shared memory
  std::size_t align = 1;
  bool dynamic = false;             // extern .shared: starts where the static shared variables end
  std::vector<unsigned char> init;  // a .global's initial bytes; empty: all zeros
};

struct Param {
  std::string name;
  Type type;
  std::size_t bytes = 0;  // the type's, or an array's (a struct passed by value: .align A .b8 name[N])
  std::size_t align = 1;
};

struct Entry {
  std::string name;
  std::vector<Param> params;
  std::vector<Instr> code;
  int registers = 0;  // distinct registers used
};

struct Module {
  std::vector<Symbol> symbols;
  std::map<std::string, int, std::less<>> symbol_index;
  std::vector<Entry> entries;
  std::map<int, std::string> files;  // .file N "name"
  const Entry* entry(std::string_view name) const;
};

// Reads PTX text. Throws std::invalid_argument "PTX line N: ..." for anything not modelled: an
// opcode, a state space, a call (every function must be inlined), a local array.
std::shared_ptr<const Module> parse(std::string_view ptx);

// Special registers (Operand::Special's imm).
enum Special : std::uint64_t {
  kTidX,
  kTidY,
  kTidZ,
  kNtidX,
  kNtidY,
  kNtidZ,
  kCtaidX,
  kCtaidY,
  kCtaidZ,
  kNctaidX,
  kNctaidY,
  kNctaidZ,
  kLaneId,
  kWarpId,
  kLanemaskLt,
  kEnvReg1,  // the grid workspace's address (high, low 32 bits) that cooperative groups' grid.sync()
  kEnvReg2,  // reads: a cooperative launch's, 0 in any other (the CUDA driver passes it so)
  kSpecialCount
};

}  // namespace rl::own::ptx
