// The pass loop of a kernel of your own, shared by the CPU path (own_run.cpp) and the GPU path
// (own_gpu.cpp): where it runs is a Target.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "nvrtc.h"
#include "own_run.h"

namespace rl::own {

// Blocks resident on one SM at most, whatever their size (the CUDA C++ Programming Guide's table of
// compute capabilities: 32 for 9.0); a cooperative launch's grid is checked against it.
constexpr std::uint64_t kMaxBlocksPerSm = 32;

// Memory and launches where the kernel runs; addresses are the target's own.
class Target {
 public:
  virtual ~Target() = default;
  virtual std::uint64_t alloc(std::size_t bytes, const std::string& name) = 0;
  virtual void write(std::uint64_t at, const void* src, std::size_t n) = 0;
  virtual void read(std::uint64_t at, void* dst, std::size_t n) = 0;
  virtual std::uint64_t sink() = 0;          // reduction_lab.cuh's rl_sink
  virtual std::uint64_t traced_block() = 0;  // its rl_traced_block (constant memory)
  // One launch of the kernel (in, out, n), cooperative or not; false when a finding stopped it.
  virtual bool launch(unsigned grid, unsigned block, std::size_t shared, std::uint64_t in, std::uint64_t out,
                      std::uint64_t n, bool cooperative) = 0;
  // The next launch records block b's accesses (the CPU path; a GPU records none).
  virtual void record_next(unsigned b) { (void)b; }
  virtual std::vector<ptx::MemEvent> events() const { return {}; }
  virtual std::vector<std::uint32_t> split_warps() const { return {}; }
  virtual std::vector<std::vector<std::uint32_t>> split_steps() const { return {}; }
  virtual std::vector<ptx::Finding> findings() const { return {}; }
  virtual std::uint64_t steps() const { return 0; }
};

// The request's launch lines and block, checked; prepare_run checks its input too.
OwnRun prepare_launch(const OwnRequest& r);
OwnRun prepare_run(const OwnRequest& r);
// The kernel's parameters are (const value_t* in, value_t* out, unsigned int n), read from its PTX.
void check_signature(const Compiled& ptx);
// The grid and dynamic shared memory of one launch over `count` elements, checked (a grid of 0
// or past 2^31 - 1, shared memory past 227 KiB, a cooperative launch's grid past what `names`'
// GPU holds at once by threads and kMaxBlocksPerSm: std::invalid_argument).
std::pair<unsigned, std::size_t> shape_of(const OwnLaunch& launch, ExprNames names, std::uint64_t count);
// One launch of a run: its grid, its dynamic shared memory and the elements it reads.
struct PassShape {
  unsigned grid = 0;
  std::size_t shared = 0;
  std::uint64_t count = 0;
};
// Every launch over n elements: the file's one, or each until one value is left. Throws
// std::invalid_argument (shape_of's, or a grid that would never leave one value).
std::vector<PassShape> pass_shapes(const OwnLaunch& launch, ExprNames names, std::uint64_t n);
// Every launch until one value is left, the first traced; fills out.
void run_passes(const OwnRequest& r, Target& target, OwnRun& out);

}  // namespace rl::own
