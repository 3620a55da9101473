// Synthetic race recordings for the window's tests: the CPU model's trace of one block, played
// as a GPU might have run it with chosen misreads (as race_test.cpp's play() does), replayed by
// core::replay, and given N runs. Made here, on the CPU: labelled as not a GPU run, never
// shipped, never put in the docs.
#pragma once
#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "app/backend/backend.h"
#include "app/core/race.h"
#include "app/core/trace.h"
#include "test_support.h"

namespace rl::test {

struct Misread {
  int stage, thread, slot;
  bool late = false;  // sees the value the cell gets in this stage, not in the one before
};

// The trace's accesses stage by stage with the given misreads, logged in RaceProbe's layout:
// [stage][thread][read, read, written].
inline std::vector<double> play_race(const core::Trace& t, const std::vector<Misread>& misreads) {
  const std::size_t stages = t.stages.size(), threads = std::size_t(t.block);
  std::vector<double> log(stages * threads * 3, 0), state = *t.stages[0].shared, older = state;
  for (std::size_t k = 0; k < stages; ++k) {
    const auto& s = t.stages[k];
    const std::vector<double> before = state;
    std::vector<double> after = state;
    for (int pass = 0; pass < 2; ++pass) {  // late reads need the stage's other writes first
      for (const auto& a : s.accesses) {
        double* slot = &log[(k * threads + std::size_t(a.thread)) * 3];
        if (a.reads.empty()) {
          slot[2] = (*s.shared)[std::size_t(a.writes.at(0))];  // a load
        } else {
          for (std::size_t r = 0; r < a.reads.size(); ++r) {
            const auto c = std::size_t(a.reads[r]);
            slot[r] = before[c];
            for (const auto& m : misreads)
              if (m.stage == int(k) && m.thread == a.thread && m.slot == int(r)) slot[r] = m.late ? after[c] : older[c];
          }
          slot[2] = slot[0] + slot[1];
        }
        if (pass == 0) after[std::size_t(a.writes.at(0))] = slot[2];
      }
    }
    for (const auto& a : s.accesses) state[std::size_t(a.writes.at(0))] = log[(k * threads + std::size_t(a.thread)) * 3 + 2];
    older = before;
  }
  return log;
}

struct SyntheticRace {
  std::string algorithm = "missing-syncthreads";
  int block = 1024;
  std::size_t n = 4096;
  int traced = 2;
  std::vector<Misread> misreads;
  int runs = 100;
  std::vector<int> wrong;  // the runs (0-based) whose replayed block went wrong
  std::uint64_t seed = 1;
};

// Random ints without a zero: a misread then always sees another value than it meant.
inline std::vector<double> nonzero_ints(std::size_t n, std::uint64_t seed) {
  auto v = random_values(n, core::DType::Int, seed);
  for (auto& x : v) x = x == 0 ? 1 : x;
  return v;
}

inline core::Trace synthetic_race(const SyntheticRace& spec) {
  backend::TraceRequest req{spec.algorithm, core::Op::Sum, core::DType::Int, spec.block, spec.traced, nonzero_ints(spec.n, spec.seed)};
  core::Trace t = backend::make_sim_backend()->trace(req);
  core::Race race;
  race.runs = spec.runs;
  race.blocks = t.grid;
  race.expected = t.result;
  race.block = spec.traced;
  race.date = "2026-01-01 00:00 UTC";
  core::replay(t, play_race(t, spec.misreads), race);
  const double delta = t.stages.back().shared->at(0) - race.meant.back().at(0);
  for (int r = 0; r < spec.runs; ++r) {
    const bool bad = std::find(spec.wrong.begin(), spec.wrong.end(), r) != spec.wrong.end();
    race.results.push_back(bad ? race.expected + delta : race.expected);
    race.wrong_blocks.push_back(bad ? 1 : 0);
  }
  race.first_wrong = spec.wrong.empty() ? -1 : *std::min_element(spec.wrong.begin(), spec.wrong.end());
  t.result = race.results[std::size_t(race.first_wrong >= 0 ? race.first_wrong : spec.runs - 1)];
  t.device = "a synthetic recording made by the tests (not a GPU run)";
  t.race = race;
  return t;
}

// The example the issue names: block 1024, stage 2 (stride 256), thread 37 reads cell 293 before
// thread 293 (warp 9) wrote it; thread 100 reads cell 356 (warp 11) likewise.
inline SyntheticRace issue_example(std::uint64_t seed) {
  SyntheticRace spec;
  spec.misreads = {{2, 37, 1}, {2, 100, 1}};
  spec.wrong = {4, 40, 77};
  spec.seed = seed;
  return spec;
}

inline void write_recording(const std::string& path, const core::Trace& t) { std::ofstream(path) << core::to_json(t) << "\n"; }

}  // namespace rl::test
