// The precision ladder on a real run: one input reduced by one algorithm in half and bf16 (added
// in their own type and in float), float and double, each rung's result against the exact sum of
// the values its element type holds, with the run's time and bandwidth beside its error. On a GPU
// each rung is a timed run (the bench's method: cold L2, samples until steady) whose result is
// the one shown; with the CPU model the same order of adds is computed on the CPU, untimed.
#pragma once
#include <atomic>
#include <string>
#include <vector>

#include "../core/precision_ladder.h"
#include "backend.h"

namespace rl::backend {

struct LadderRung {
  core::Rung rung;       // result, reference and ulps (no stall: a run's adds are not seen one by one)
  double median_us = 0;  // 0 for the CPU model
  double gbps = 0;       // the input's bytes over the median
  double noise_pct = 0;
};

struct LadderRun {
  std::string algorithm;
  std::string device;  // "NVIDIA H100 80GB HBM3" or "CPU model"
  bool gpu = false;
  std::string date;  // UTC
  double peak_gbps = 0;
  std::vector<LadderRung> rungs;  // narrowest first, as core::precision_ladder
};

// The kernels a ladder runs through: array kernels that take half and bf16 (their rows' `narrow`).
bool ladder_takes(const std::string& algorithm);

// Throws std::invalid_argument for an algorithm ladder_takes refuses (naming those it takes) or an
// empty input, std::runtime_error when the backend cannot run. max_seconds: per rung.
LadderRun run_ladder(const std::string& algorithm, const std::vector<double>& values, Choice backend,
                     double max_seconds = 0.5, const std::atomic<bool>* cancel = nullptr);

// The rungs as a table for a terminal: type, adds in, result, ulps, digits, us, GB/s.
std::string ladder_text(const LadderRun& run);

}  // namespace rl::backend
