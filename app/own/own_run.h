// A kernel of the student's own, run on the CPU: its file's launch lines, NVRTC's PTX for it, and
// the interpreter (ptx_machine.h), launch after launch until one value is left. The traced block's
// first pass is recorded through reduction_lab.cuh's sink: its shared memory after every barrier,
// the barrier's line, rl_param's value, and rl_lanes' registers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "own_file.h"
#include "own_values.h"
#include "ptx_machine.h"

namespace rl::own {

constexpr unsigned kMaxStages = 64;  // barriers a trace records
constexpr unsigned kMaxSteps = 16;   // rl_lanes steps a stage records

// Where the CPU path runs, as a trace names its device.
constexpr const char* kCpuDevice = "CPU: NVRTC's PTX, interpreted (not a GPU run)";

struct OwnRequest {
  std::string source, file = "kernel.cu";
  std::string value_type = "float";  // int, float, double, half or bf16 (own_dtype)
  std::vector<unsigned char> input;  // n values of value_type, little-endian
  // How the input was drawn ("random:7", "iota", "ones"; see core/input.h), where a child process
  // can draw it again bit for bit instead of reading it as numbers; empty: the numbers go over.
  std::string input_spec;
  int block = 0;                     // 0: the file's
  unsigned trace_block = 0;
  ExprNames device{0, 0, 4, 132, 2048};  // sms and threads_per_sm the grid rules see
  std::uint64_t step_budget = std::uint64_t(1) << 34;
  std::uint64_t schedule = 0;  // the CPU path's warp order: 0 in turn, else a seeded interleaving (ptx::LaunchSpec)
};

struct OwnStage {
  int line = 0;                       // the barrier's line in the student's file
  int param = 0;                      // rl_param's value (0: none)
  std::vector<unsigned char> shared;  // the block's dynamic shared memory after the barrier
  bool warp = false;                  // ended by rl_warp_stage() inside one warp, not by a barrier
  bool grid = false;                  // ended by rl_grid_sync(), every block of the grid arrived
};

struct OwnRun {
  OwnLaunch launch;
  int block = 0;
  std::vector<unsigned> grids;   // each launch's blocks, first pass first
  std::size_t shared_bytes = 0;  // the first pass's dynamic shared memory
  std::vector<OwnStage> stages;  // the traced block's barriers in the first pass
  // rl_lanes: [stage][step][thread] bits, stage = the barriers before the call (stages.size() + 1
  // of them, the last after the final barrier); steps[stage] = the most steps any thread took.
  std::vector<std::vector<std::vector<std::uint64_t>>> lanes;
  std::vector<std::vector<std::vector<int>>> callers;  // [stage][step]: the threads that called rl_lanes
  std::vector<unsigned char> result;         // the final value's bytes (empty when a finding stopped the run)
  std::vector<unsigned char> first_outputs;  // the first pass's results, one a block (cooperative, one pass: out[1..])
  // The traced block's accesses in the first pass (the CPU path alone): dynamic shared memory by
  // byte offset, global loads by address, the input starting at input_address.
  std::vector<ptx::MemEvent> events;
  std::vector<std::uint32_t> split_warps;  // [stage]: the warps whose lanes ran apart (ptx::Machine::split_warps)
  std::vector<std::vector<std::uint32_t>> split_steps;  // [stage][rl_lanes step]: the same (Machine::split_steps)
  std::uint64_t input_address = 0;
  std::vector<ptx::Finding> findings;
  std::string device;  // the GPU's name, or the CPU path's in words (kCpuDevice)
  std::string compile_log;
  double compile_ms = 0, run_ms = 0;
  bool compile_cached = false;
  std::uint64_t steps = 0;
};

// Compiles (NVRTC) and interprets the request's kernel over its input. Throws CompileError for the
// file's compile errors, std::invalid_argument for a bad launch line, size or block, and
// std::runtime_error where NVRTC is missing; a finding ends the run with OwnRun::findings set.
OwnRun run_on_cpu(const OwnRequest& request);
// The same on the GPU: NVRTC's cubin for the GPU in use, launched through the CUDA runtime, the
// trace read back from the same sink. Throws std::runtime_error where the program was built
// without the CUDA backend or no GPU is present, kernels::CudaError when a CUDA call fails.
OwnRun run_on_gpu(const OwnRequest& request);
// Starts what a GPU run needs before the run: CUDA's context on the current GPU and NVRTC (a
// standby process, own_process.h). Failures are left for the run to report.
void warm_up_gpu();

}  // namespace rl::own
