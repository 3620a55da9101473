// libFuzzer: what a kernel file of your own brings in: its `//!` launch lines (parse_launch)
// and the PTX that NVRTC makes of it (ptx::parse, which the CPU path interprets). Any text
// reads, or is refused with a std::invalid_argument naming its line; nothing else escapes. A
// module that reads holds only indices the interpreter may follow: registers, symbols,
// parameters and branch targets inside their entry.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/own/own_file.h"
#include "app/own/ptx_module.h"

namespace {

namespace ptx = rl::own::ptx;

bool inside(const ptx::Module& m, const ptx::Entry& e, const ptx::Operand& o) {
  const auto reg_ok = [&](int r, bool may_be_none) { return r < e.registers && (r >= 0 || (may_be_none && r == -1)); };
  const long symbols = long(m.symbols.size()), params = long(e.params.size());
  const bool symbol_ok = o.symbol < symbols && o.symbol >= -1 - params;  // -2 - i: parameter i
  switch (o.what) {
    case ptx::Operand::Reg: return reg_ok(o.reg, false);
    case ptx::Operand::Address: return reg_ok(o.reg, true) && symbol_ok;
    case ptx::Operand::Symbol: return symbol_ok;
    case ptx::Operand::Label: return o.imm <= e.code.size();
    case ptx::Operand::Vector:
      for (const int r : o.regs)
        if (!reg_ok(r, true)) return false;
      return true;
    default: return true;
  }
}

void check(const ptx::Module& m) {
  for (const ptx::Entry& e : m.entries)
    for (const ptx::Instr& in : e.code) {
      if (in.guard >= e.registers || in.guard < -1) std::abort();
      for (const ptx::Operand& o : in.args)
        if (!inside(m, e, o)) std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)rl::own::parse_launch(text, "fuzz.cu").name_expression(256);
  } catch (const std::invalid_argument&) {}
  try {
    check(*ptx::parse(text));
  } catch (const std::invalid_argument&) {}
  return 0;
}
