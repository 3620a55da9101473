// The CPU path of a kernel of the student's own: the PTX NVRTC made for it, run thread by thread
// over a sandboxed memory (nothing of the file runs natively here). Threads of a warp run together
// at the lowest program counter among them (so branches reconverge), a block's barrier waits for
// every thread, a warp's .sync instructions for every lane of their mask. What a memory checker
// would say stops the run as a finding naming thread, block and source line: an access outside
// every buffer, a read of shared memory nothing wrote, a barrier some threads reach at another
// place, a shuffle whose mask names a lane that is not there, a kernel past its step budget, a
// trap. A race (in shared memory, or between blocks in global memory) is a finding too, but the
// run goes on (its first race alone is kept), so that what the race did can be shown.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ptx_module.h"

namespace rl::own::ptx {

struct Finding {
  std::string
      kind;  // "out-of-bounds", "uninitialised-read", "divergent-barrier", "shuffle-mask", "step-budget", "trap"
  std::string text;  // in words, naming the thread(s) and the line
  int line = 0;      // the student's source line (0: unknown)
};

// A kernel parameter's bytes: a number (a pointer is alloc's address), or a struct passed by value.
struct Arg {
  Arg(std::uint64_t v) : bits(v) {}  // NOLINT(google-explicit-constructor): a number is an argument
  static Arg bytes_of(const void* p, std::size_t n) {
    Arg a(0);
    a.blob.assign(static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + n);
    return a;
  }
  std::uint64_t bits = 0;
  std::vector<unsigned char> blob;  // non-empty: the parameter's bytes, exactly its size
};

// A memory access of one thread of the recorded block, outside reduction_lab.cuh's own code: the
// stage in progress (the counter LaunchSpec::stage_counter names), the thread, and where.
struct MemEvent {
  std::uint32_t stage = 0;
  std::uint32_t thread = 0;
  bool write = false;
  bool shared = false;     // dynamic shared memory (address: its byte offset), else global (its address)
  std::uint8_t bytes = 0;  // the access's width (a vector's whole)
  std::uint64_t address = 0;
  std::uint32_t step = 0;  // the thread's rl_lanes calls so far in the stage (LaunchSpec::step_counters)
  // The warp's instructions issued so far in the block: accesses of one warp with the same issue
  // are one warp-wide instruction (lanes that took another branch are not in it).
  std::uint32_t issue = 0;
};

struct LaunchSpec {
  std::string entry;                                   // the lowered kernel name
  unsigned grid = 1, block = 1;                        // blocks and threads in x (grid_y, block_y: in y)
  std::size_t dynamic_shared = 0;                      // bytes
  std::vector<Arg> params;                             // the entry's parameters in order
  std::uint64_t step_budget = std::uint64_t(1) << 32;  // thread-instructions before the run is stopped
  // The order warps run in: 0, warps in turn, each until it blocks; any other value seeds a random
  // interleaving (a warp drawn at random runs 1 to 64 steps, then another is drawn).
  std::uint64_t schedule = 0;
  // The block whose accesses events() keeps (-1: none), and the global address of the 32-bit stage
  // counter each event reads (rl_sink.stages).
  long record_block = -1;
  std::uint64_t stage_counter = 0;
  std::uint64_t step_counters = 0;  // rl_sink.steps: a 32-bit count a thread (0: none)
  unsigned grid_y = 1, block_y = 1;  // a 2D launch's blocks and threads in y (the matrix kernels')
  // A cooperative launch (cudaLaunchCooperativeKernel): every block is resident at once, so blocks
  // may wait for each other. They run in turns, each warp some steps a turn (run_cooperative), and
  // cooperative groups' grid.sync() finds its grid workspace (%envreg1, %envreg2). Otherwise blocks
  // run one after another, as a GPU may run them, and grid.sync() traps.
  bool cooperative = false;
};

class Machine {
 public:
  explicit Machine(std::shared_ptr<const Module> module);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // A global buffer of `bytes` (zeroed); its address for the kernel's pointer parameters.
  std::uint64_t alloc(std::size_t bytes, const std::string& name);
  // The host's view of `bytes` bytes at address (within one buffer or module variable); throws
  // std::out_of_range otherwise.
  unsigned char* host(std::uint64_t address, std::size_t bytes);
  // A module .global or .const variable's address (rl_sink, rl_traced_block).
  std::uint64_t symbol_address(const std::string& name) const;

  // Runs every block of one launch, in order or, cooperative, in turns. False when a finding
  // stopped it (findings()).
  bool launch(const LaunchSpec& spec);
  const std::vector<Finding>& findings() const { return findings_; }
  // The recorded block's accesses, in the order they ran (at most kMaxEvents).
  const std::vector<MemEvent>& events() const { return events_; }
  static constexpr std::size_t kMaxEvents = std::size_t(1) << 22;
  // The recorded block's warps whose lanes ran apart, by stage (the stage counter's value): bit w
  // for warp w, where it issued one of the kernel's instructions for some of its lanes while
  // others, not exited, were elsewhere (a branch they took apart), not for lanes a guard turned off.
  const std::vector<std::uint32_t>& split_warps() const { return split_; }
  // The same by stage and rl_lanes step ([stage][step]): the steps the issuing lanes were in (each
  // one's calls so far in the stage), so a step shows the branches that led to its call.
  const std::vector<std::vector<std::uint32_t>>& split_steps() const { return split_steps_; }
  static constexpr std::size_t kMaxSplitStages = 4096, kMaxSplitSteps = 64;
  std::uint64_t steps() const { return steps_; }

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::vector<Finding> findings_;
  std::vector<MemEvent> events_;
  std::vector<std::uint32_t> split_;
  std::vector<std::vector<std::uint32_t>> split_steps_;
  std::uint64_t steps_ = 0;
};

}  // namespace rl::own::ptx
