// A kernel of the student's own: what its file says about its launch. The file is plain CUDA
// that includes reduction_lab.cuh (assets/own/), with `//!` lines naming the kernel and how to
// launch it (docs/own-kernel.md):
//   //! kernel: reduce5<block>          the __global__ function; "<block>" instantiates a template
//   //! block: 256                      threads a block, unless the run asks for another
//   //! grid: (n + block - 1) / block   blocks of a launch over n elements
//   //! shared: block * sizeof(value_t) bytes of dynamic shared memory a block
//   //! passes: until one               launch again over the results until one is left ("one":
//                                       a single launch, whose out[0] starts at 0)
//   //! launch: cooperative             optional: every block resident at once, so blocks may wait
//                                       for each other (rl_grid_sync()); with "passes: one", out
//                                       holds 1 + grid values: out[0] the result, out[1 + b] block b's
// The file comes from anyone: every field is checked, within limits, before anything is run.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl::own {

constexpr std::size_t kMaxSourceBytes = 256 * 1024;
constexpr std::size_t kMaxExpressionChars = 200;

// The names a grid or shared expression may use.
struct ExprNames {
  std::uint64_t n = 0;            // elements of this launch
  std::uint64_t block = 0;        // threads a block
  std::uint64_t value_bytes = 4;  // sizeof(value_t)
  std::uint64_t sms = 1;          // the GPU's multiprocessors (the CPU model's on the CPU path)
  std::uint64_t threads_per_sm = 2048;
};

// The value of an expression of unsigned integers: + - * / % ( ), min(a, b), max(a, b), the
// names above and sizeof(value_t | float | int | double). Throws std::invalid_argument naming
// the problem (an unknown name, a division by zero, a result below 0 or past 2^63).
std::uint64_t evaluate(std::string_view expr, const ExprNames& names);

struct OwnLaunch {
  std::string kernel;  // as written, e.g. "reduce5<block>"
  int block = 256;
  std::string grid, shared;                             // expressions (checked by parse_launch with sample names)
  bool until_one = true;                                // passes: until one (true) or one
  bool cooperative = false;                             // launch: cooperative
  int kernel_line = 0, grid_line = 0, shared_line = 0;  // 1-based, for messages

  // The values a launch over `blocks` blocks leaves that the trace shows as its blocks' results:
  // one a block (until one, or cooperative), else the result alone.
  std::size_t results(std::size_t blocks) const { return until_one || cooperative ? blocks : 1; }
  // Values its out holds: those, and before them the result where a cooperative launch is the one.
  std::size_t outputs(std::size_t blocks) const { return results(blocks) + (cooperative && !until_one ? 1 : 0); }

  // The name NVRTC looks up: "<block>" replaced by the block, e.g. "reduce5<256>".
  std::string name_expression(int run_block) const;
};

// Reads the `//!` lines of a file named `file` (for messages). Throws std::invalid_argument
// as "FILE:LINE: what" for the first problem: a missing or repeated key, an unknown key, a bad
// block, an expression that does not evaluate, a file too large.
OwnLaunch parse_launch(std::string_view source, const std::string& file);

// A message about one line of a file, as NVRTC and parse_launch write them: "NAME:LINE: what".
struct LineMessage {
  int line = 0;
  std::string text;  // what follows "NAME:LINE: "
};
// The lines of `text` that name the file `name` (its last path component: the child process and
// the window name the same file by different folders), in order; other lines, those about other
// files (reduction_lab.cuh) and lines past 10^7 are left out.
std::vector<LineMessage> line_messages(std::string_view text, std::string_view name);

}  // namespace rl::own
