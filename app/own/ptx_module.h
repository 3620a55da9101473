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
  Rcp,
  Sqrt,
};

// The operand types PTX names: .u8 .s32 .f32 .b64 .pred ... (size in bytes, kind).
enum class Kind : std::uint8_t { U, S, F, B, Pred };
struct Type {
  Kind kind = Kind::B;
  std::uint8_t bytes = 4;
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
  bool has(std::string_view mod) const;
};

// A module variable (.global, .shared, .const) and its place.
struct Symbol {
  std::string name;
  Space space = Space::Global;
  std::size_t bytes = 0;  // 0 with extern: the launch's dynamic shared memory
  std::size_t align = 1;
  bool dynamic = false;             // extern .shared: starts where the static shared variables end
  std::vector<unsigned char> init;  // a .global's initial bytes (zeros when none)
};

struct Param {
  std::string name;
  Type type;
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
  kSpecialCount
};

}  // namespace rl::own::ptx
