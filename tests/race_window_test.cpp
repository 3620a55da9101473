// What the window says of a race recording (core/race.h): who ran ahead, the captions and the
// summary, and a recording file that cannot be shown. Synthetic recordings (race_support.h),
// made on the CPU and labelled so.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "race_support.h"

namespace rl {
namespace {

std::string temp_file(const std::string& name) { return (std::filesystem::path(testing::TempDir()) / name).string(); }

TEST(RaceWindow, AnEarlyReadPutsTheReadersWarpAheadOfTheWritersWarp) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const core::Trace t = test::synthetic_race(test::issue_example(seed));
  const core::Race& race = *t.race;
  ASSERT_EQ(core::stale_in(race, 2).size(), 2u);
  const std::vector<core::Ahead> want{{1, 9, false, 1}, {3, 11, false, 1}};  // thread 37 is warp 1, 293 warp 9; 100 and 356
  EXPECT_EQ(core::warps_ahead(race, 2), want);
  EXPECT_TRUE(core::warps_ahead(race, 1).empty());
}

// Inside one warp the lanes are named: thread 3 read cell 11 before lane 11 wrote it.
TEST(RaceWindow, AnEarlyReadInsideAWarpNamesTheLanes) {
  test::SyntheticRace spec;
  spec.block = 32, spec.n = 32, spec.traced = 0, spec.misreads = {{2, 3, 1}}, spec.wrong = {0};
  const core::Trace t = test::synthetic_race(spec);
  const std::vector<core::Ahead> want{{3, 11, true, 1}};
  EXPECT_EQ(core::warps_ahead(*t.race, 2), want);
}

// A late read: in legacy-warp-synchronous's step of stride 16, lane 16 wrote cell 16 before
// lane 0 read it: lane 16 ran ahead.
TEST(RaceWindow, ALateReadPutsTheWritingLaneAhead) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  test::SyntheticRace spec;
  spec.algorithm = "legacy-warp-synchronous", spec.block = 64, spec.n = 128, spec.traced = 0;
  spec.misreads = {{2, 0, 1, true}}, spec.wrong = {0}, spec.seed = seed;
  const core::Trace t = test::synthetic_race(spec);
  ASSERT_EQ(t.stages[2].param, 16);
  const std::vector<core::Ahead> want{{16, 0, true, 1}};
  EXPECT_EQ(core::warps_ahead(*t.race, 2), want);
}

TEST(RaceWindow, TheCaptionsSayWhatTheReplayFound) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const core::Trace t = test::synthetic_race(test::issue_example(seed));
  const core::Race& race = *t.race;
  const auto here = core::stale_in(race, 2);
  EXPECT_EQ(core::stale_caption(race, 2, 0), "1 of 2 stale reads in this stage: " + core::describe(here[0]));
  EXPECT_EQ(core::stale_caption(race, 2, 1), "2 of 2 stale reads in this stage: " + core::describe(here[1]));
  EXPECT_EQ(core::stale_caption(race, 2, 9), core::stale_caption(race, 2, 1));  // past the last: the last
  EXPECT_EQ(core::describe(here[0]).rfind("thread 37 read cell 293 before thread 293 (warp 9) wrote it: saw ", 0), 0u) << core::describe(here[0]);
  EXPECT_EQ(core::stale_caption(race, 0, 0), "no stale read in this stage");
  // Later stages carry the wrong sums on: no stale read there, but cells the code did not mean.
  const auto last = int(t.stages.size()) - 1;
  const auto wrong = race.wrong[std::size_t(last)].size();
  ASSERT_GT(wrong, 0u);
  EXPECT_EQ(core::stale_caption(race, last, 0), "no stale read in this stage; " + std::to_string(wrong) +
                                                    (wrong == 1 ? " cell holds" : " cells hold") + " a value the code did not mean");
}

TEST(RaceWindow, TheSummarySaysHowManyRunsWentWrongAndWhichIsReplayed) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const core::Trace t = test::synthetic_race(test::issue_example(seed));
  const core::Race& race = *t.race;
  EXPECT_EQ(core::race_headline(race), "3 of 100 runs gave a wrong result; 3 wrong blocks in all (4 blocks a run)");
  EXPECT_EQ(core::replayed_text(race), "the first run with a wrong block: run 5; the views replay its block 2 (2 stale reads)");
  const std::string meant = core::format_value(race.expected, t.type), wrong = core::format_value(race.results[4], t.type);
  ASSERT_NE(meant, wrong);
  EXPECT_EQ(core::spread_text(race, t.type), meant + " (meant): 97 runs; " + wrong + ": 3 runs");
  EXPECT_EQ(core::spread_text(race, t.type, 1), meant + " (meant): 97 runs; and 1 more result");
  auto all_wrong = race;  // every run wrong (as the H100 recording of missing-syncthreads has it)
  all_wrong.results.assign(all_wrong.results.size(), all_wrong.results.back() == race.expected ? race.expected + 1 : all_wrong.results.back());
  EXPECT_EQ(core::spread_text(all_wrong, t.type), "meant " + meant + ", which no run gave; " +
                                                      core::format_value(all_wrong.results[0], t.type) + ": 100 runs");
  EXPECT_FALSE(core::ordered_by_luck(race));
}

// No run wrong and nothing stale: the GPU happened to order every read, and the window says so.
TEST(RaceWindow, ARunWithoutAStaleReadIsOrderedByLuck) {
  test::SyntheticRace spec;
  spec.algorithm = "legacy-warp-synchronous", spec.runs = 20, spec.traced = 1;  // 2 blocks of 2048 elements
  const core::Trace t = test::synthetic_race(spec);
  EXPECT_TRUE(core::ordered_by_luck(*t.race));
  EXPECT_EQ(core::race_headline(*t.race), "0 of 20 runs gave a wrong result; 0 wrong blocks in all (2 blocks a run)");
  EXPECT_EQ(core::replayed_text(*t.race),
            "no block went wrong in any run's first pass; the views replay block 1 of the last run (0 stale reads)");
}

TEST(RaceWindow, OnlyThePitfallsThatRaceAndTheirFixesHaveARecording) {
  for (const char* id : {"missing-syncthreads", "legacy-warp-synchronous", "sequential", "unroll-last-warp"})
    EXPECT_TRUE(core::has_race_recording(id)) << id;
  for (const char* id : {"syncthreads-in-branch", "warp-shuffle", "cub", "no-such-thing"})
    EXPECT_FALSE(core::has_race_recording(id)) << id;
}

TEST(RaceWindow, ARecordingFileReadsBackAsWritten) {
  const core::Trace t = test::synthetic_race(test::issue_example(test::test_seed()));
  const std::string path = temp_file("race_window_good.json");
  test::write_recording(path, t);
  EXPECT_EQ(core::read_race_file(path), t);
}

// Each broken file is refused with its path and the field that is wrong in the message.
TEST(RaceWindow, ABadRecordingFileIsRefusedNamingTheFileAndTheField) {
  const core::Trace t = test::synthetic_race(test::issue_example(7));
  const auto good = nlohmann::json::parse(core::to_json(t));
  struct Case {
    const char* name;
    std::string text;
    std::string says;
  };
  auto no_race = good, no_runs = good, other = good, far_cell = good, other_block = good;
  no_race.erase("race");
  no_runs["race"].erase("runs");
  other["algorithm"] = "warp-shuffle";
  far_cell["race"]["wrong"][3] = {5000};
  other_block["trace_block"] = 1;
  const std::vector<Case> cases{{"race_bad_json.json", "{ not json", "not valid JSON"},
                                {"race_plain.json", no_race.dump(), "field 'race'"},
                                {"race_no_runs.json", no_runs.dump(), "'runs'"},
                                {"race_other.json", other.dump(), "field 'algorithm'"},
                                {"race_far_cell.json", far_cell.dump(), "field 'wrong'"},
                                {"race_other_block.json", other_block.dump(), "'trace_block'"}};
  for (const auto& c : cases) {
    const std::string path = temp_file(c.name);
    std::ofstream(path) << c.text;
    try {
      core::read_race_file(path);
      ADD_FAILURE() << c.name << " was read";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(c.says), std::string::npos) << what;
    }
  }
  EXPECT_THROW(core::read_race_file(temp_file("race_no_such_file.json")), std::runtime_error);
}

}  // namespace
}  // namespace rl
