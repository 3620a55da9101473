// The machine code the program ships beside a lesson: lines of `cuobjdump -sass` taken from a
// Release build on a GPU machine (assets/machine_code/ID.txt), with where and when. The lessons
// count instructions from it; nothing here is typed in by hand.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl::core {

struct MachineCode {
  struct Kernel {
    std::string name;                // "redux-sync int sum"
    std::size_t instructions = 0;    // the whole kernel's
    std::vector<std::string> lines;  // "/*0170*/ REDUX.SUM.S32 UR4, R0 ;"
    double stage_cycles = 0;         // SM cycles one warp stage took in a timed chain; 0: not timed
  };
  std::string device, recorded, tool;
  std::vector<Kernel> kernels;
  const Kernel* find(std::string_view name) const;
};

// Parses the format above: "#" comments, "device:", "recorded:", "tool:", then "kernel: NAME",
// "instructions: N", "stage cycles: X" (optional) and its lines. Throws std::invalid_argument naming the line that is
// wrong.
MachineCode parse_machine_code(std::string_view text);
// The shipped file for an algorithm, parsed; nullopt where it has none.
std::optional<MachineCode> shipped_machine_code(std::string_view id);
// How many of a kernel's lines hold an instruction whose opcode starts with `opcode` ("SHFL"
// counts SHFL.DOWN); 0 for a kernel the file lacks.
std::size_t count_opcode(const MachineCode& code, std::string_view kernel, std::string_view opcode);

}  // namespace rl::core
