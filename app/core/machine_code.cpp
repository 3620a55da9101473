#include "machine_code.h"

#include <cmath>
#include <stdexcept>

#include "embedded.h"
#include "text.h"

namespace rl::core {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool take(std::string_view line, std::string_view key, std::string* out) {
  if (line.substr(0, key.size()) != key) return false;
  *out = std::string(trim(line.substr(key.size())));
  return true;
}

// A line of code: "/*ADDR*/ [@P0 ]OPCODE ...": its opcode.
std::string_view opcode_of(std::string_view line) {
  const auto end = line.find("*/");
  if (end == std::string_view::npos) return {};
  std::string_view rest = trim(line.substr(end + 2));
  if (!rest.empty() && rest.front() == '@') rest = trim(rest.substr(std::min(rest.find(' '), rest.size())));
  return rest.substr(0, std::min(rest.find(' '), rest.size()));
}

// A plain decimal ("23.5"); NaN for anything else.
double decimal_number(const std::string& s) {
  if (s.empty() || s.size() > 12 || s.find_first_not_of("0123456789.") != std::string::npos) return std::nan("");
  try {
    std::size_t used = 0;
    const double d = std::stod(s, &used);
    return used == s.size() ? d : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

}  // namespace

const MachineCode::Kernel* MachineCode::find(std::string_view name) const {
  for (const auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

MachineCode parse_machine_code(std::string_view text) {
  MachineCode code;
  std::size_t number = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    const std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++number;
    const auto fail = [&](const std::string& why) {
      throw std::invalid_argument("machine code, line " + std::to_string(number) + ": " + why + ": " +
                                  printable(line, 80));
    };
    std::string value;
    if (line.empty() || line.front() == '#') continue;
    if (take(line, "device:", &code.device) || take(line, "recorded:", &code.recorded) ||
        take(line, "tool:", &code.tool))
      continue;
    if (take(line, "kernel:", &value)) {
      if (value.empty()) fail("a kernel without a name");
      code.kernels.push_back({value, 0, {}});
    } else if (take(line, "instructions:", &value)) {
      if (code.kernels.empty() || value.empty() || value.size() > 9 ||
          value.find_first_not_of("0123456789") != std::string::npos)
        fail("'instructions:' takes a count after a kernel");
      code.kernels.back().instructions = std::stoul(value);
    } else if (take(line, "stage cycles:", &value)) {
      const double cycles = decimal_number(value);
      if (code.kernels.empty() || !(cycles > 0 && cycles < 1e6))
        fail("'stage cycles:' takes a number of cycles after a kernel");
      code.kernels.back().stage_cycles = cycles;
    } else if (line.substr(0, 2) == "/*") {
      if (code.kernels.empty() || opcode_of(line).empty())
        fail("a line of code outside a kernel, or without an opcode");
      code.kernels.back().lines.push_back(std::string(line));
    } else {
      fail("not a field, a kernel or a line of code");
    }
  }
  if (code.device.empty() || code.recorded.empty() || code.kernels.empty())
    throw std::invalid_argument("machine code: it names no device, date or kernel");
  return code;
}

std::optional<MachineCode> shipped_machine_code(std::string_view id) {
  const std::string_view text = embedded::machine_code(id);
  if (text.empty()) return std::nullopt;
  return parse_machine_code(text);
}

std::size_t count_opcode(const MachineCode& code, std::string_view kernel, std::string_view opcode) {
  const auto* k = code.find(kernel);
  std::size_t n = 0;
  if (k)
    for (const auto& line : k->lines) n += opcode_of(line).substr(0, opcode.size()) == opcode;
  return n;
}

}  // namespace rl::core
