// A kernel of your own checked as ours are: its value against the input's, at the size it was
// traced at and at sizes chosen to catch the usual slips (one element; a block and one more, so
// not a multiple of the block and more than one block; an odd size of many blocks and passes;
// on a GPU, past 2^24), each over inputs drawn afresh. A kernel that only works for one block or
// for powers of two is told which size failed, and how to run that size again.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../core/trace.h"
#include "own_run.h"

namespace rl::own {

// The run's value against the input's: ints and min/max exactly (an int sum wraps as the GPU's
// 32-bit adds do), float and double sums within the bound every order of adds stays inside.
// nullopt when it is right or no value was left.
std::optional<core::Finding> check_value(const OwnRequest& request, const OwnRun& run, core::Op op);

// The sizes checked beside the traced one for a block of `block` threads: 1, block + 1,
// kCheckedOdd and, on a GPU, kCheckedLarge.
constexpr std::size_t kCheckedOdd = (std::size_t(1) << 16) + 3, kCheckedLarge = (std::size_t(1) << 24) + 3;
std::vector<std::size_t> check_sizes(int block, bool gpu);

// The lesson of a kernel of your own (core::write_your_own) with this path's sizes in it:
// {own_compared}, {own_checked_odd}, {own_checked_large} ("2^20", "2^16 + 3").
std::string own_lesson(std::string text);

// A seed for the inputs of the checks: drawn afresh each run, small enough to type.
std::uint64_t fresh_seed();

// Runs the request's kernel (its file, block and type) at each of check_sizes but the traced
// size, over `random:SEED` inputs (core::generate_input) and, for ints, where those pass over the
// next seed's (SEED % 999999 + 1: a dropped int may be 0 in one draw), and returns a finding for
// each size that failed, naming the draw that failed: a wrong value, a CPU-path finding or a
// launch the file's lines cannot make. Throws what run_on_cpu and run_on_gpu throw for the file
// itself (a compile error).
std::vector<core::Finding> check_other_sizes(const OwnRequest& request, bool gpu, core::Op op, std::uint64_t seed);

}  // namespace rl::own
