// Plain C++ face of the CUDA kernels: host code includes this and never needs nvcc.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace rl::kernels {

enum class Algo { InterleavedDivergent, InterleavedBankConflicts, Sequential };
enum class OpKind { Sum, Min, Max };

// What one instrumented block recorded, stage by stage. Stage 0 is the load into shared
// memory; stage k > 0 is the k-th tree step. Arrays are [stage][thread] (reads: [stage][thread][2]).
template <class T>
struct RawTrace {
  int block = 0;
  int stages = 0;
  std::vector<T> shared;             // the block's shared array after each stage
  std::vector<std::uint8_t> active;  // 1 if the thread did the stage's work
  std::vector<int> reads;            // shared indices read, -1 when none
  std::vector<int> writes;           // shared index written, -1 when none
};

// Number of stages a tree algorithm has for a block size: the load, then log2(block) steps.
int tree_stage_count(int block);

// Throws std::invalid_argument naming the problem when the launch shape is impossible:
// n == 0, block not a power of two in 32..1024, or (traced) trace_block outside the grid.
void check_launch(std::size_t n, int block, bool traced, int trace_block);

// Thrown for any failing CUDA call, with the call, file and line in the message.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// True when a CUDA device can be used; otherwise *why says what is missing.
bool cuda_available(std::string* why);
std::string cuda_device_name();

// Reduces host_in[0..n) on the GPU: per-block partials, then further passes of the same
// kernel until one value is left. When trace is non-null, block trace_block of the first
// pass runs the instrumented instantiation and its stages are copied into *trace.
template <class T>
T gpu_reduce(Algo algo, OpKind op, const T* host_in, std::size_t n, int block,
             RawTrace<T>* trace, int trace_block);

}  // namespace rl::kernels
