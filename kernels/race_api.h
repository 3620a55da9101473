// The race-revealing recording's sizes and entry point (kernels/race.cu).
#pragma once
#include <cstddef>
#include <vector>

#include "algorithms.h"
#include "raw_trace.h"
#include "shapes.h"

namespace rl::kernels {

// The race-revealing recording (kernels/probe.cuh, RaceProbe): every block of the first pass
// logs, per stage and thread, the two values the thread read from shared memory and the value
// it wrote (a load: the value written), adding no barrier. missing-syncthreads and
// legacy-warp-synchronous, and their fixes sequential and unroll-last-warp (race_recordable,
// kernels/algorithms.h).
constexpr int kRaceSlots = 3;
// A recording logs every thread of every block: at most this many first-pass blocks (the
// model's partials, which it is checked against, keep as many).
constexpr std::size_t kMaxRaceBlocks = kMaxPartials;
// The most runs one recording takes (`trace --runs`, the window's Race section).
constexpr int kMaxRaceRuns = 10000;
// Throws std::invalid_argument naming the problem when a recording cannot be made: an
// algorithm without one, a launch check_launch refuses, more than kMaxRaceBlocks blocks.
// Returns the first pass's grid.
std::size_t check_race_launch(Algo algo, std::size_t n, const Launch& launch);

template <class T>
struct RaceRuns {
  std::vector<T> results;           // [run] the whole reduction's result
  std::vector<int> wrong_blocks;    // [run] first-pass blocks whose result differed from `expected`
  int first_wrong = -1;             // the first run with a wrong block; -1: none
  int block = 0;                    // the block whose log is kept: from first_wrong (the traced block
                                    // if it went wrong, else the first that did), else the traced block
  std::vector<T> partials;          // the kept run's first-pass results
  std::vector<T> log;               // the kept block's [stage][thread][kRaceSlots]
};

// Runs the whole reduction `runs` times on one input, the first pass recorded by every block,
// and compares each run's first-pass results with `expected` (the model's, one per block).
template <class T>
RaceRuns<T> gpu_race_runs(Algo algo, OpKind op, const T* host_in, std::size_t n, const Launch& launch, int runs,
                          const std::vector<T>& expected);

}  // namespace rl::kernels
