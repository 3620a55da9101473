// The race replay (core::replay) on logs made here: a run of the model's stages in which chosen
// reads see an older value (a warp ahead) or a newer one (a lane out of lockstep).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "app/backend/backend.h"
#include "app/core/race.h"
#include "app/core/trace.h"
#include "race_support.h"
#include "test_support.h"

namespace rl {
namespace {

core::Trace model_trace(const std::string& id, int block, const std::vector<double>& input) {
  backend::TraceRequest req;
  req.algorithm = id;
  req.block = block;
  req.input = input;
  return backend::make_sim_backend()->trace(req);
}

// A run with misreads, logged as RaceProbe logs it (race_support.h).
std::vector<double> play(const core::Trace& t, const std::vector<test::Misread>& misreads) {
  return test::play_race(t, misreads);
}

std::vector<double> iota(int n) {
  std::vector<double> v(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) v[std::size_t(i)] = i + 1;
  return v;
}

TEST(Race, AnOrderedRunHasNoStaleRead) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* id : {"missing-syncthreads", "sequential", "legacy-warp-synchronous", "unroll-last-warp"}) {
    core::Trace t = model_trace(id, 256, test::random_values(700, core::DType::Int, seed));
    const core::Trace meant = t;
    core::Race race;
    core::replay(t, play(t, {}), race);
    EXPECT_TRUE(race.stale.empty()) << id;
    EXPECT_TRUE(race.path.empty()) << id;
    for (std::size_t k = 0; k < t.stages.size(); ++k) {
      EXPECT_TRUE(race.wrong[k].empty()) << id << " stage " << k;
      EXPECT_EQ(race.meant[k], *meant.stages[k].shared) << id;
      EXPECT_EQ(t.stages[k].shared, meant.stages[k].shared) << id;
    }
  }
}

// Hand-derived: block 32 over 1..32. Stage 1 (stride 16) leaves cell 11 = 12 + 28 = 40; thread 3
// reads it at stage 2 (stride 8) before that write lands, so it sees the loaded 12.
TEST(Race, AReadBeforeItsWriteIsFollowedToTheResult) {
  core::Trace t = model_trace("missing-syncthreads", 32, iota(32));
  core::Race race;
  core::replay(t, play(t, {{2, 3, 1}}), race);
  ASSERT_EQ(race.stale.size(), 1u);
  const core::StaleRead want{2, 3, 11, 12, 40, 11, 1, true};
  EXPECT_EQ(race.stale[0], want);
  EXPECT_EQ(core::describe(race.stale[0]), "thread 3 read cell 11 before thread 11 (its own warp 0) wrote it: saw 12, meant 40");
  EXPECT_EQ(t.stages.back().shared->at(0), 528 - 28);
  EXPECT_EQ(race.meant.back().at(0), 528);
  const std::vector<core::CellAt> path{{2, 11}, {2, 3}, {3, 3}, {4, 1}, {5, 0}};
  EXPECT_EQ(race.path, path);
  EXPECT_EQ(race.wrong[2], std::vector<int>{3});
  EXPECT_EQ(race.wrong[5], (std::vector<int>{0, 1, 3}));  // cells 1 and 3 keep their wrong sums
}

// A lane out of lockstep: in legacy-warp-synchronous's warp step of stride 16 (block 64: stages
// load-add, 32, 16, ...), lane 0 reads cell 16 after lane 16 has already overwritten it.
TEST(Race, AReadAfterAWriteOfItsOwnStageIsLate) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  // Lane 16 adds cell 32 (input 32 + input 96) into cell 16: a cell 32 of 0 would leave nothing
  // stale to find (REDLAB_TEST_SEED=17601223254915105257 drew one).
  auto input = test::random_values(128, core::DType::Int, seed);
  if (input[32] + input[96] == 0) input[96] += 1;
  core::Trace t = model_trace("legacy-warp-synchronous", 64, input);
  ASSERT_EQ(t.stages[2].param, 16);
  const auto log = play(t, {{2, 0, 1, true}});
  core::Race race;
  core::replay(t, log, race);
  ASSERT_EQ(race.stale.size(), 1u);
  const auto& x = race.stale[0];
  EXPECT_FALSE(x.early);
  EXPECT_EQ(x.cell, 16);
  EXPECT_EQ(x.writer, 16);
  EXPECT_EQ(x.writer_stage, 2);
  EXPECT_EQ(x.seen, log[(2 * 64 + 16) * 3 + 2]);
  EXPECT_EQ(x.meant, race.meant[1][16]);
  const std::string warp = x.thread < 32 ? "(its own warp 0)" : "(warp 0)";
  EXPECT_NE(core::describe(x).find("after thread 16 " + warp + " had already overwritten it"), std::string::npos) << core::describe(x);
}

// A stale read of a cell an earlier stale read had already made wrong: its meant value is what
// the cell held in this run, and the caption adds what a run without stale reads has there.
TEST(Race, AMeantValueThatWasItselfWrongSaysSo) {
  core::Race race;
  race.meant = {{10, 20, 30, 40}, {30, 60, 30, 40}};
  core::StaleRead x{1, 0, 1, 5, 21, 33, 0, true};  // stage 1, thread 0, cell 1: saw 5, meant 21
  EXPECT_EQ(core::describe(x, &race), "thread 0 read cell 1 before thread 33 (warp 1) wrote it: saw 5, meant 21 (itself "
                                      "wrong after an earlier stale read: a run without stale reads has 20 there)");
  x.meant = 20;
  EXPECT_EQ(core::describe(x, &race), "thread 0 read cell 1 before thread 33 (warp 1) wrote it: saw 5, meant 20");
  EXPECT_EQ(core::describe(x), "thread 0 read cell 1 before thread 33 (warp 1) wrote it: saw 5, meant 20");
}

// A lane two stages ahead: lane 16 has already written its stride-8 sum into cell 16 when lane 0
// reads that cell at stride 16. Late, with the write's stage.
TEST(Race, AReadOfALaterStagesWriteNamesThatStage) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  core::Trace t = model_trace("legacy-warp-synchronous", 64, test::random_values(128, core::DType::Int, seed));
  ASSERT_EQ(t.stages[3].param, 8);
  auto log = play(t, {});
  const double ahead = log[(3 * 64 + 16) * 3 + 2];
  if (ahead == log[(2 * 64 + 0) * 3 + 1]) GTEST_SKIP() << "the stride-8 step left cell 16 unchanged for this input";
  log[(2 * 64 + 0) * 3 + 1] = ahead;
  core::Race race;
  core::replay(t, log, race);
  ASSERT_EQ(race.stale.size(), 1u);
  EXPECT_FALSE(race.stale[0].early);
  EXPECT_EQ(race.stale[0].writer, 16);
  EXPECT_EQ(race.stale[0].writer_stage, 3);
}

// Many random misreads: every stale read the replay reports is one that was made, its value
// one the cell held in the run, and those of the earliest racing stage one the model held.
TEST(Race, EveryReportedStaleReadWasMadeAndIsConsistent) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  core::Trace t = model_trace("missing-syncthreads", 1024, test::random_values(5000, core::DType::Int, seed));
  std::vector<test::Misread> misreads;
  for (int i = 0; i < 40; ++i) {
    const int stage = 2 + int(rng() % 8), s = 1024 >> stage;
    misreads.push_back({stage, int(rng() % std::uint64_t(s)), 1});
  }
  const auto log = play(t, misreads);
  core::Race race;
  core::replay(t, log, race);
  ASSERT_FALSE(race.stale.empty());
  const int first = race.stale.front().stage;
  for (const auto& x : race.stale) {
    EXPECT_TRUE(std::any_of(misreads.begin(), misreads.end(), [&](const test::Misread& m) {
      return m.stage == x.stage && m.thread == x.thread;
    })) << core::describe(x);
    std::set<double> held, model;
    for (int k = 0; k < x.stage; ++k) held.insert(t.stages[std::size_t(k)].shared->at(std::size_t(x.cell)));
    for (const auto& m : race.meant) model.insert(m.at(std::size_t(x.cell)));
    EXPECT_TRUE(held.count(x.seen)) << core::describe(x);
    if (x.stage == first) {
      EXPECT_TRUE(model.count(x.seen)) << core::describe(x);
    }
  }
}

TEST(Race, ARecordingRoundTripsThroughJson) {
  core::Trace t = model_trace("missing-syncthreads", 32, iota(32));
  core::Race race;
  race.runs = 3;
  race.blocks = 1;
  race.expected = 528;
  race.results = {528, 500, 528};
  race.wrong_blocks = {0, 1, 0};
  race.first_wrong = 1;
  race.date = "2026-11-23 10:40 UTC";
  core::replay(t, play(t, {{2, 3, 1}}), race);
  t.race = race;
  EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);
  EXPECT_EQ(core::wrong_runs(race), 1);
  const auto spread = core::result_spread(race);
  ASSERT_EQ(spread.size(), 2u);
  EXPECT_EQ(spread[0], (std::pair<double, int>{528, 2}));
  EXPECT_NE(core::to_text(t).find("1 of 3 runs gave a wrong result"), std::string::npos) << core::to_text(t);
}

TEST(Race, ALogOfTheWrongSizeIsRefused) {
  core::Trace t = model_trace("sequential", 32, iota(32));
  core::Race race;
  EXPECT_THROW(core::replay(t, std::vector<double>(7, 0), race), std::invalid_argument);
}

TEST(Race, TheCpuModelCannotRaceAndSaysSo) {
  backend::TraceRequest req;
  req.algorithm = "missing-syncthreads";
  req.block = 64;
  req.input = iota(64);
  try {
    backend::make_sim_backend()->race(req, 100);
    FAIL() << "the model raced";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("needs a GPU run"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

TEST(Race, TheShippedRacecheckFindingsNameEachRacyPitfall) {
  for (const char* id : {"missing-syncthreads", "legacy-warp-synchronous"}) {
    const auto f = core::racecheck_finding(id);
    ASSERT_TRUE(f.has_value()) << id;
    EXPECT_NE(f->summary.find("RACECHECK SUMMARY: "), std::string::npos) << id;
    EXPECT_EQ(f->summary.find("RACECHECK SUMMARY: 0 hazards"), std::string::npos) << id << ": no hazard is no evidence";
    EXPECT_NE(f->command.find(id), std::string::npos) << id;
    EXPECT_NE(f->device.find("NVIDIA"), std::string::npos) << id;
  }
  EXPECT_FALSE(core::racecheck_finding("sequential").has_value());
}

// A shipped recording is a GPU's: its device is named, it carries its runs, and its replay holds.
TEST(Race, EveryShippedRecordingIsAGpuRun) {
  for (const char* id : {"missing-syncthreads", "legacy-warp-synchronous"}) {
    const auto t = core::shipped_race(id);
    ASSERT_TRUE(t.has_value()) << id << ": no recording ships in this build (assets/races/)";
    EXPECT_EQ(t->backend, "cuda") << id;
    EXPECT_NE(t->device.find("NVIDIA"), std::string::npos) << id;
    ASSERT_TRUE(t->race.has_value()) << id;
    EXPECT_FALSE(t->race->date.empty()) << id;
    EXPECT_EQ(t->race->runs, 100) << id;
  }
  // The H100 recording of the missing barrier caught it: wrong runs, and stale reads in its block.
  const auto caught = core::shipped_race("missing-syncthreads");
  EXPECT_GT(core::wrong_runs(*caught->race), 0);
  EXPECT_FALSE(caught->race->stale.empty());
}

}  // namespace
}  // namespace rl
