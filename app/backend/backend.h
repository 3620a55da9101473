// Where traces come from: the real GPU (cuda) or the CPU model (sim), chosen at run time.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "../../kernels/shapes.h"
#include "../core/catalog.h"
#include "../core/trace.h"

namespace rl::backend {

struct TraceRequest {
  std::string algorithm;
  core::Op op = core::Op::Sum;
  core::DType type = core::DType::Int;
  int block = 32;
  int trace_block = 0;
  std::vector<double> input;  // the whole array (or matrix, row by row), already rounded to the type
  std::size_t grid = 0;       // fixed-grid algorithms: 0 lets the backend choose for its device
  std::vector<int> tickets = {};  // work-queue, CPU model: a GPU run's record of who took each ticket, replayed
  std::size_t rows = 0, cols = 0;  // the matrix family: input's shape (rows x cols = its size)
  int cluster = 0;                 // kernels of clusters: blocks a cluster, 2, 4 or 8 (0: the row's own)
  core::Accumulate accumulate = core::Accumulate::Float;  // half and bf16: what they add in
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;    // "cuda" or "sim"
  virtual std::string device() const = 0;  // what the window's status line names
  // Throws std::invalid_argument for a request no kernel can take (unknown algorithm, a
  // baseline, bad block size, traced block outside the grid) and std::runtime_error for
  // device failures. Modelled-only algorithms come back from the CPU model, saying so.
  virtual core::Trace trace(const TraceRequest& request) = 0;
  // Runs a race-revealing recording `runs` times on the request's input (kernels::gpu_race_runs)
  // and returns the trace of the block it kept, its race replayed (core::Trace::race). Only a
  // GPU can race: the CPU model throws std::runtime_error saying so.
  virtual core::Trace race(const TraceRequest& request, int runs);
  // Device memory in use, in bytes; 0 for the CPU model.
  virtual std::size_t device_memory_used() const { return 0; }
  // What sizes its fixed grids: the GPU's SMs and threads an SM, or the model's.
  virtual kernels::DeviceShape device_shape() const = 0;
};

enum class Choice { Auto, Cuda, Sim };

struct Selection {
  std::unique_ptr<Backend> backend;
  std::string fallback_reason;  // why auto chose the CPU model; empty otherwise
};

// Auto takes the GPU when one is usable and the CPU model otherwise. Cuda throws
// std::runtime_error saying why when no GPU can be used.
Selection select(Choice choice);

// "GPU: NVIDIA H200" or "CPU model: no NVIDIA GPU found": never passes the model off as a GPU.
std::string status_line(const Selection& selection);

std::unique_ptr<Backend> make_sim_backend();
// Why an algorithm refuses this type and operator, in words (redux-sync: int alone; bulk-async:
// no float min or max); empty when it takes them, or is not in the catalog.
std::string type_refusal(const std::string& algorithm, core::DType type, core::Op op,
                         core::Accumulate accumulate = core::Accumulate::Float);

// The panel's choice as it will run: a type the algorithm refuses turns to one it takes (int for
// a kernel of ints alone, float otherwise), then an operator it refuses to sum; each change with
// its note. The panel draws the notes; it decides nothing itself.
struct Settled {
  core::DType type;
  core::Op op;
  std::string type_note, op_note;  // empty: kept as asked
};
Settled settle(const std::string& algorithm, core::DType type, core::Op op, core::Accumulate accumulate);

// An algorithm's lesson and detail with their numbers filled in (core::fill_lesson) from the
// CPU model's run of one block of 256 threads over 1..256 (a matrix: 8 rows of 256 over 1..2048; as floats
// for a kernel that adds no ints):
// what `list` and docs print. The window fills them from the run on screen instead.
core::AlgorithmInfo with_numbers(core::AlgorithmInfo info);
// The smallest block of at least `block` threads (powers of two up to 1024) at which the
// lesson's Look shows its point in the CPU model's run over 1..block (a matrix: 8 rows): its
// stage exists and, in the banks view, conflicts or their absence as at 256 threads, the run
// the lesson was written for. Nothing when no block up to 1024 shows it.
std::optional<int> look_block(const core::AlgorithmInfo& info, int block);
// The same for another pointer at this algorithm's run (a plan scene's own Look).
std::optional<int> look_block(const core::AlgorithmInfo& info, const core::Pointer& look, int block);
// nullptr, with *why set, when this build has no CUDA or no GPU is usable.
std::unique_ptr<Backend> make_cuda_backend(std::string* why);

}  // namespace rl::backend
