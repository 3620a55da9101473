// Races caught in the act: what a GPU's threads read from shared memory in a kernel without
// the ordering it needs, replayed against what the code meant (the CPU model's stages).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "types.h"

namespace rl::core {

struct Trace;

// A read that did not see what the code meant: the cell's value once every earlier stage had
// written it (in this run). `early`: the read came before that write (missing-syncthreads);
// otherwise after a write of its own stage, or a later one, by another thread that ran ahead
// (lanes out of lockstep).
struct StaleRead {
  int stage = 0;
  int thread = 0;
  int cell = 0;
  double seen = 0, meant = 0;
  int writer = -1;       // the thread whose write the read missed (early) or saw (late)
  int writer_stage = -1; // the stage of that write (0: the load)
  bool early = true;
  bool operator==(const StaleRead&) const = default;
};

// A cell after a stage: a step of the path a wrong value takes to the block's result.
struct CellAt {
  int stage = 0;
  int cell = 0;
  bool operator==(const CellAt&) const = default;
};

// N runs of a race-revealing recording on one input, and the replay of the block kept from
// the first run with a wrong first-pass block (or, when none had one, the traced block of the
// last run).
struct Race {
  int runs = 0;
  std::size_t blocks = 0;            // first-pass blocks a run has
  double expected = 0;               // the model's result of the whole reduction
  std::vector<double> results;       // [run] the run's result
  std::vector<int> wrong_blocks;     // [run] first-pass blocks whose result differed from the model's
  int first_wrong = -1;              // the first run with a wrong block (0-based); -1: none
  int block = 0;                     // the block recorded and replayed
  std::vector<StaleRead> stale;      // in stage, then thread order
  std::vector<std::vector<double>> meant;  // [stage] shared memory as the code meant it (the model)
  std::vector<std::vector<int>> wrong;     // [stage] cells whose value differs from meant
  std::vector<CellAt> path;          // from the first stale read's cell to the block's result, if wrong
  std::string date;                  // when the runs were made, UTC ("2026-11-23 10:40 UTC")
  bool operator==(const Race&) const = default;
};

// compute-sanitizer racecheck's finding for a pitfall, as measured on a GPU and shipped with
// the program (assets/races/racecheck.json): the evidence when every run happened to be right.
struct RacecheckFinding {
  std::string algorithm, device, date, command, summary;
};
// The shipped finding for the algorithm; nullopt when none ships.
std::optional<RacecheckFinding> racecheck_finding(const std::string& algorithm);
// A race recording shipped with the program (assets/races/ID.json, a `trace --runs` made on a
// GPU); nullopt when none ships for the algorithm.
std::optional<Trace> shipped_race(const std::string& algorithm);

// Runs whose result differed from the model's.
int wrong_runs(const Race& race);
// Each distinct result with the runs that gave it, the most frequent first.
std::vector<std::pair<double, int>> result_spread(const Race& race);
// The stale reads of stage k.
std::vector<StaleRead> stale_in(const Race& race, int stage);

// Replays block `race.block`'s recording. `trace` is the CPU model's trace of that block (its
// stages' accesses, and shared memory as meant); `log` holds [stage][thread][3]: the two values
// each thread read and the value it wrote (a load stage: the written value only), the
// kernels' RaceProbe layout. Afterwards the trace's shared memory is the run's (each stage's
// writes applied) and race.meant, stale, wrong and path are filled. Throws
// std::invalid_argument when the log does not fit the trace.
void replay(Trace& trace, const std::vector<double>& log, Race& race);

// "thread 37 read cell 293 before thread 293 (warp 9) wrote it: saw 12, meant 47". Given the
// recording, a meant value that an earlier stale read already made wrong says so, with the
// value a run without stale reads has there.
std::string describe(const StaleRead& read, const Race* race = nullptr, int warp_size = 32);

// Who ran ahead in a stage's stale reads. A read before its write: the reader's warp ran ahead
// of the writer's. A read after a write of its own stage: the writer ran ahead of the reader.
// Between two warps `ahead` and `behind` are warps; inside one warp (`lanes`) they are threads.
// One entry per pair, with the stale reads it explains, in the order first met.
struct Ahead {
  int ahead = 0, behind = 0;
  bool lanes = false;
  int reads = 0;
  bool operator==(const Ahead&) const = default;
};
std::vector<Ahead> warps_ahead(const Race& race, int stage, int warp_size = 32);

// What the window says of a recording, in words (the views and the summary share these).
// "stale read 1 of 3 in this stage: thread 37 read cell 293 ...", or that the stage has none.
std::string stale_caption(const Race& race, int stage, int index);
// "37 of 100 runs gave a wrong result; 412 wrong blocks in all (1024 blocks a run)"
std::string race_headline(const Race& race);
// "the first run with a wrong block: run 3; the views replay its block 17 (5 stale reads)", or,
// when none went wrong, which block of which run the views replay.
std::string replayed_text(const Race& race);
// Each distinct result with its runs, the meant one marked, at most `shown` of them:
// "523776 (meant): 63 runs; 523264: 12 runs; and 3 more results"; where no run gave the meant
// result, "meant 523776, which no run gave; " before the rest.
std::string spread_text(const Race& race, DType type, std::size_t shown = 6);
// True when no run went wrong and the replayed block read nothing stale: each read happened in
// the order it needed (promised for the fixes, luck for the pitfalls).
bool ordered_by_luck(const Race& race);
// The run (0-based) whose block the views replay and whose result the trace holds: the first
// with a wrong block, else the last.
int replayed_run(const Race& race);

// The algorithms a race recording exists for: the pitfalls that race and their fixes.
bool has_race_recording(const std::string& algorithm);
// A `trace --runs N --format json` file. Throws std::runtime_error that names the file and
// what is wrong with it (a missing or malformed field, or no race in it).
Trace read_race_file(const std::string& path);

}  // namespace rl::core
