// Runs one request again and again: the atomic algorithms' blocks add in whatever order they
// finish on a GPU, so float sums can differ from run to run; the CPU model's order is fixed.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend.h"

namespace rl::backend {

constexpr int kDefaultRepeats = 20, kMaxRepeats = 100;

struct Distinct {
  double result = 0;
  int count = 0;  // runs that gave exactly this result
};

struct Repeats {
  std::string backend;  // what the runs' traces say ran them: "cuda" or "sim"
  std::string device;
  int runs = 0;  // done
  std::vector<Distinct> results;  // bit for bit distinct, in the order first seen
};

// Traces `request` `runs` times (clamped to 1..kMaxRepeats) on `backend`; `cancel` stops it
// between runs, and `runs` then says how many were done. Throws as Backend::trace does.
Repeats repeat_trace(Backend& backend, const TraceRequest& request, int runs, const std::atomic<bool>* cancel = nullptr);

// How many runs a request gets on a backend: `runs` on a GPU, one on the CPU model, whose
// order never changes.
int runs_on(const Backend& backend, int runs);

// The determinism lab: one algorithm's runs, or why it could not run the request.
struct LabRow {
  std::string algorithm;
  Repeats repeats;
  std::string error;  // a refusal or failure, in words; empty when it ran
  std::string note;   // how it ran otherwise than asked ("at 256 threads: ... not 48"); empty if as asked
};

// Every array algorithm that takes the request's type and operator (the pitfalls left out: they
// are wrong on purpose), `runs` times each over the request's input; a block size only
// non-pow2-block takes becomes 256 for the others, and their row's note says so. The CPU model runs each once: its
// order never changes. `cancel` stops between runs.
std::vector<LabRow> repeat_every(Backend& backend, const TraceRequest& request, int runs,
                                 const std::atomic<bool>* cancel = nullptr);

// A second backend of the same kind as `backend`, for a thread of its own; nullptr (with *why)
// when a GPU cannot be opened again.
std::unique_ptr<Backend> same_kind(const Backend& backend, std::string* why);

}  // namespace rl::backend
