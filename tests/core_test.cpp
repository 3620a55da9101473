// Trace JSON, input specs and files, the stage player, value formatting.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "app/backend/backend.h"
#include "app/core/compare.h"
#include "app/core/facts.h"
#include "app/core/frame_log.h"
#include "app/core/input.h"
#include "app/core/machine_code.h"
#include "app/core/counters.h"
#include "app/core/catalog.h"
#include "app/core/embedded.h"
#include "app/core/player.h"
#include "app/core/settings.h"
#include "app/core/trace.h"
#include "app/core/undo.h"
#include "test_support.h"

using namespace rl;

namespace {

core::Trace sample_trace(core::DType type, core::Op op, std::uint64_t seed) {
  backend::TraceRequest req{"interleaved-bank-conflicts", op, type, 64, 1,
                            test::random_values(100, type, seed)};
  return backend::make_sim_backend()->trace(req);
}

// Expects the trace `bad` refused with a message holding `part`; `shown` is printed if accepted.
void expect_refused(const nlohmann::json& bad, const std::string& part, const nlohmann::json& shown) {
  try {
    core::trace_from_json(bad.dump());
    ADD_FAILURE() << "accepted: " << shown.dump();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

}  // namespace

TEST(TraceJson, RoundTripsEveryField) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (auto type : {core::DType::Int, core::DType::Float, core::DType::Double})
    for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
      const auto t = sample_trace(type, op, seed);
      const auto back = core::trace_from_json(core::to_json(t));
      EXPECT_EQ(back, t);
      // Compact output reads back the same too.
      EXPECT_EQ(core::trace_from_json(core::to_json(t, -1)), t);
    }
}

// Code from several files (a helper from an include) and a stage in one of them travel and read
// back; a stage naming a file the code does not show, or files not one a line, are refused.
TEST(TraceJson, CodeFromSeveralFilesAndAStagesFileRoundTrip) {
  auto t = sample_trace(core::DType::Int, core::Op::Sum, 5);
  ASSERT_GE(t.code.lines.size(), 2u);
  t.code.files.assign(t.code.lines.size(), t.code.file);
  t.code.files.back() = "kernels/helpers.cuh";
  t.stages[0].file = "kernels/helpers.cuh";
  t.stages[0].line = t.code.numbers.back();
  const auto back = core::trace_from_json(core::to_json(t));
  EXPECT_EQ(back, t);
  EXPECT_EQ(*back.code.text_at(core::stage_place(back, back.stages[0])), t.code.lines.back());
  auto j = nlohmann::json::parse(core::to_json(t));
  EXPECT_FALSE(j["stages"][1].contains("file"));  // in the code's own file: not named
  j["stages"][0]["file"] = "kernels/elsewhere.cuh";
  expect_refused(j, "trace field 'file' names kernels/elsewhere.cuh in stage 0", j["stages"][0]);
  j["stages"][0]["file"] = "kernels/helpers.cuh";
  auto no_code = j;
  no_code.erase("code");
  expect_refused(no_code, "trace field 'file' names kernels/helpers.cuh in stage 0", no_code["stages"][0]);
  j["code"]["files"].erase(0);
  expect_refused(j, "trace field 'code' names", j["code"]["files"]);
  j["code"]["lines"] = nlohmann::json::array(), j["code"]["numbers"] = nlohmann::json::array();
  expect_refused(j, "trace field 'code' names", j["code"]);  // files and no lines
}

TEST(TraceJson, HoldsTheFieldsTheCliPromises) {
  const auto t = sample_trace(core::DType::Int, core::Op::Sum, 7);
  const auto j = nlohmann::json::parse(core::to_json(t));
  for (const char* key : {"algorithm", "backend", "device", "size", "block", "op", "type", "input", "result", "stages"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["backend"], "sim");
  EXPECT_TRUE(j["result"].is_number_integer());
  const auto& s0 = j["stages"][0];
  for (const char* key : {"label", "line", "shared", "active"}) EXPECT_TRUE(s0.contains(key)) << key;
  EXPECT_EQ(j["input"].size(), 36u);  // the traced block's 36 elements: 64..99
}

TEST(TraceJson, NonFiniteValuesTravelAsStrings) {
  auto t = sample_trace(core::DType::Float, core::Op::Min, 3);  // block 1's padding is +inf
  const auto text = core::to_json(t);
  EXPECT_NE(text.find("\"inf\""), std::string::npos);
  t.result = std::numeric_limits<double>::quiet_NaN();
  const auto back = core::trace_from_json(core::to_json(t));
  EXPECT_TRUE(std::isnan(back.result));
  EXPECT_EQ((*back.stages[0].shared)[63], std::numeric_limits<double>::infinity());
}

TEST(TraceJson, MalformedInputNamesTheField) {
  const auto expect_error = [](const std::string& text, const std::string& part) {
    try {
      core::trace_from_json(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_error("{", "not valid JSON");
  expect_error("{}", "'algorithm'");
  auto j = nlohmann::json::parse(core::to_json(sample_trace(core::DType::Int, core::Op::Sum, 1)));
  j["op"] = "product";
  expect_error(j.dump(), "'op'");
  j["op"] = "sum";
  j["stages"][0]["shared"][2] = "twelve";
  expect_error(j.dump(), "'shared'");
  j.erase("size");
  expect_error(j.dump(), "'size'");
}

// Loads keep their widths (16-byte loads read 4 floats) and empty slots (-1); a trace without
// widths reads as loads of one element, and widths or elements that cannot be are refused by name.
TEST(TraceJson, LoadWidthsRoundTripAndAreChecked) {
  auto t = sample_trace(core::DType::Float, core::Op::Sum, 5);
  t.size = 256;  // the loads below lie within the input
  core::Stage& s = t.stages[0];
  s.loads = {{0, {0, 128}, {4, 1}}, {1, {4}, {}}, {2, {-1, 8}, {}}};  // thread 2 made no first load
  const auto back = core::trace_from_json(core::to_json(t));
  EXPECT_EQ(back, t);
  EXPECT_EQ(back.stages[0].loads[0].width(0), 4);
  EXPECT_EQ(back.stages[0].loads[1].width(0), 1);
  auto j = nlohmann::json::parse(core::to_json(t));
  EXPECT_FALSE(j["stages"][0]["loads"][1].contains("widths"));
  const auto refused = [](const nlohmann::json& bad, const std::string& part) {
    expect_refused(bad, part, bad["stages"][0]["loads"]);
  };
  j["stages"][0]["loads"][0]["widths"] = {4};
  refused(j, "one width for each");
  j["stages"][0]["loads"][0]["widths"] = {4, 0};
  refused(j, "a load reads 1 to 16 elements");
  j["stages"][0]["loads"][0]["widths"] = {4, "x"};
  refused(j, "'widths'");
  j["stages"][0]["loads"][0]["widths"] = {4, 1};
  j["stages"][0]["loads"][2]["elements"] = {-2, 8};
  refused(j, "a load's element is 0 or more (-1: none)");
  j["stages"][0]["loads"][2]["elements"] = {-1, 256};  // one past the input
  refused(j, "trace field 'loads' names element 256");
}

// Shared accesses keep the cells each spans (a 16-byte read of floats: 4); a trace without them
// reads as accesses of one cell, and widths that cannot be, or run past the cells, are refused.
TEST(TraceJson, AccessWidthsRoundTripAndAreChecked) {
  auto t = sample_trace(core::DType::Float, core::Op::Sum, 5);
  core::Stage& s = t.stages[1];
  ASSERT_TRUE(s.shared);
  const int cells = int(s.shared->size());  // the block's 64
  core::Access wide{0, {0, cells - 4}, {8}, {}};
  wide.read_widths = {4, 4};
  s.accesses = {wide, {1, {1}, {}, {}}};
  const auto back = core::trace_from_json(core::to_json(t));
  EXPECT_EQ(back, t);
  EXPECT_EQ(back.stages[1].accesses[0].read_width(1), 4);
  EXPECT_EQ(back.stages[1].accesses[0].write_width(0), 1);
  auto j = nlohmann::json::parse(core::to_json(t));
  EXPECT_FALSE(j["stages"][1]["accesses"][0].contains("write_widths"));
  EXPECT_FALSE(j["stages"][1]["accesses"][1].contains("read_widths"));
  const auto refused = [](const nlohmann::json& bad, const std::string& part) {
    expect_refused(bad, part, bad["stages"][1]["accesses"]);
  };
  auto& a = j["stages"][1]["accesses"][0];
  a["read_widths"] = {4};
  refused(j, "one width for each");
  a["read_widths"] = {4, 17};
  refused(j, "an access spans 1 to 16 cells");
  a["read_widths"] = {4, "x"};
  refused(j, "'read_widths'");
  a["read_widths"] = {4, 5};  // cells - 4 to cells: one past the last
  refused(j, "names cell " + std::to_string(cells - 4) + " (5 wide)");
  a["read_widths"] = {8, 4};  // 32 bytes of floats
  refused(j, "no load or store moves 32 bytes");
  a["read_widths"] = {3, 4};
  refused(j, "names cell 0 (3 wide) in stage 1: no load or store moves 12 bytes");
  a["reads"] = {2, cells - 4};  // 16 bytes from cell 2: off its boundary
  a["read_widths"] = {4, 4};
  refused(j, "names cell 2 (4 wide) in stage 1: no load or store moves 16 bytes");
  a["reads"] = {0, cells - 4};
  a["read_widths"] = {4, 4};
  a["write_widths"] = {2, 2};
  refused(j, "'write_widths' does not give one width for each");
}

// A slot of -1: a thread that took no part in an instruction others of its warp made (lanes of a
// kernel of your own that branched). Kept through the file, one cell wide and no other value.
TEST(TraceJson, EmptyAccessSlotsRoundTripAndAreChecked) {
  auto t = sample_trace(core::DType::Float, core::Op::Sum, 5);
  core::Stage& s = t.stages[1];
  s.accesses = {{0, {-1, 3}, {-1, 3}, {}}, {1, {35}, {}, {}}};
  EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);
  EXPECT_EQ(core::bank_conflict_degree(s, 4), 1);  // cells 3 and 35, one bank, two instructions
  auto j = nlohmann::json::parse(core::to_json(t));
  auto& a = j["stages"][1]["accesses"][0];
  a["reads"] = {-2, 3};
  expect_refused(j, "names cell -2", a);
  a["reads"] = {-1, 3};
  a["read_widths"] = {4, 1};
  expect_refused(j, "names cell -1 (4 wide)", a);
}

// A warp whose lanes ran apart (a kernel of your own's branch) is divergent though every lane
// worked; the file keeps the warps, each of the block's, once, in order.
TEST(TraceJson, SplitWarpsRoundTripCountAndAreChecked) {
  auto t = sample_trace(core::DType::Float, core::Op::Sum, 5);  // blocks of 64: 2 warps
  core::Stage& s = t.stages[1];
  s.active.clear();
  for (int th = 0; th < 64; ++th) s.active.push_back(th);
  EXPECT_EQ(core::divergent_warps(s, 64), 0);
  s.split_warps = {1};
  EXPECT_EQ(core::divergent_warps(s, 64), 1);
  s.split_warps = {0, 1};
  EXPECT_EQ(core::divergent_warps(s, 64), 2);
  EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);
  auto j = nlohmann::json::parse(core::to_json(t));
  EXPECT_FALSE(j["stages"][0].contains("split_warps"));  // none: left out
  auto& w = j["stages"][1]["split_warps"];
  for (const auto& bad : {nlohmann::json{0, 2}, nlohmann::json{1, 1}, nlohmann::json{-1}, nlohmann::json{1, 0}}) {
    w = bad;
    expect_refused(j, "trace field 'split_warps' names warp", bad);
  }
}

TEST(Input, SpecsParseAndRejectWithReasons) {
  std::string why;
  EXPECT_EQ(core::parse_input_spec("iota", &why)->kind, core::InputSpec::Kind::Iota);
  EXPECT_EQ(core::parse_input_spec("random:42", &why)->seed, 42u);
  EXPECT_FALSE(core::parse_input_spec("random:x", &why));
  EXPECT_NE(why.find("seed"), std::string::npos);
  EXPECT_FALSE(core::parse_input_spec("random:", &why));
  EXPECT_FALSE(core::parse_input_spec("/no/such/file", &why));
  EXPECT_NE(why.find("/no/such/file"), std::string::npos);
}

TEST(Input, GeneratedValuesAreSeededAndInRange) {
  const core::InputSpec a{core::InputSpec::Kind::Random, 5, {}}, b{core::InputSpec::Kind::Random, 6, {}};
  const auto ia = core::generate_input(a, 1000, core::DType::Int);
  EXPECT_EQ(ia, core::generate_input(a, 1000, core::DType::Int));
  EXPECT_NE(ia, core::generate_input(b, 1000, core::DType::Int));
  bool negative = false, positive = false;
  for (double v : ia) {
    EXPECT_GE(v, -99);
    EXPECT_LE(v, 99);
    EXPECT_EQ(v, std::floor(v));
    negative |= v < 0;
    positive |= v > 0;
  }
  EXPECT_TRUE(negative && positive);
  for (double v : core::generate_input(a, 1000, core::DType::Float)) {
    EXPECT_GE(v, -1.0);
    EXPECT_LT(v, 1.0);
    EXPECT_EQ(v, double(float(v)));
  }
  const auto io = core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, 5, core::DType::Int);
  EXPECT_EQ(io, (std::vector<double>{1, 2, 3, 4, 5}));
}

// The window never changes a typed value without saying so: 10^12 as an array size is refused
// with a note (it once became 1, a 32-bit overflow), not silently clamped.
TEST(Input, FieldsRefuseOrAdjustOutLoud) {
  const auto big = core::check_array_size(1'000'000'000'000, 64, 1 << 20);
  EXPECT_EQ(big.value, 64);
  EXPECT_NE(big.note.find("refused 1000000000000"), std::string::npos) << big.note;
  EXPECT_NE(big.note.find("1048576"), std::string::npos) << big.note;
  EXPECT_EQ(core::check_array_size(0, 64, 1 << 20).value, 64);
  EXPECT_FALSE(core::check_array_size(0, 64, 1 << 20).note.empty());
  const auto ok = core::check_array_size(777, 64, 1 << 20);
  EXPECT_EQ(ok.value, 777);
  EXPECT_TRUE(ok.note.empty());
  const auto b = core::check_block(270, false);
  EXPECT_EQ(b.value, 512);
  EXPECT_NE(b.note.find("block 270 is now 512"), std::string::npos) << b.note;
  EXPECT_EQ(core::check_block(270, true).value, 270);
  EXPECT_TRUE(core::check_block(270, true).note.empty());
  EXPECT_EQ(core::check_block(5000, true).value, 1024);
  EXPECT_EQ(core::check_block(1, false).value, 32);
  EXPECT_TRUE(core::check_block(256, false).note.empty());
  const auto t = core::check_trace_block(99, 4);
  EXPECT_EQ(t.value, 3);
  EXPECT_NE(t.note.find("blocks 0 to 3"), std::string::npos) << t.note;
  EXPECT_TRUE(core::check_trace_block(2, 4).note.empty());
  EXPECT_EQ(core::check_trace_block(-1, 4).value, 0);
  // Clusters of 4: a cluster's first block is traced, and the note says why.
  const auto c = core::check_trace_block(6, 8, 4);
  EXPECT_EQ(c.value, 4);
  EXPECT_NE(c.note.find("block 6 is not the first of its cluster of 4"), std::string::npos) << c.note;
  EXPECT_EQ(core::check_trace_block(99, 8, 4).value, 4);
  EXPECT_TRUE(core::check_trace_block(4, 8, 4).note.empty());
}

// The window's array-size field (issue 32, item 9): N or 2^K, as rows and cols take; "2^16"
// is 65536, not 216; "1e6" is refused in words, not read as 16.
TEST(Input, TheArraySizeFieldTakesTwoToTheK) {
  EXPECT_EQ(core::check_array_size(std::string_view("2^16"), 64, 1 << 20).value, 65536);
  EXPECT_EQ(core::check_array_size(std::string_view("3001"), 64, 1 << 20).value, 3001);
  for (const char* bad : {"1e6", "216x", "", "2^", "-5"}) {
    const auto r = core::check_array_size(std::string_view(bad), 64, 1 << 20);
    EXPECT_EQ(r.value, 64) << bad;
    EXPECT_NE(r.note.find("kept 64"), std::string::npos) << bad << ": " << r.note;
  }
  EXPECT_NE(core::check_array_size(std::string_view("1e6"), 64, 1 << 20).note.find("use N or 2^K"), std::string::npos);
  const auto big = core::check_array_size(std::string_view("2^21"), 64, 1 << 20);
  EXPECT_EQ(big.value, 64);
  EXPECT_NE(big.note.find("at most 1048576"), std::string::npos) << big.note;
}

// The window's Rows and Cols fields: N or 2^K, at least 1, rows x cols at most the limit; a
// refusal names the typed text and keeps the value.
TEST(Input, MatrixSidesRefuseInWords) {
  EXPECT_EQ(core::parse_count("2^10"), 1024);
  EXPECT_EQ(core::parse_count("257"), 257);
  EXPECT_FALSE(core::parse_count("2^99"));
  EXPECT_FALSE(core::parse_count("ten"));
  const auto ok = core::check_matrix_side("2^5", true, 8, 257, 1 << 20);
  EXPECT_EQ(ok.value, 32);
  EXPECT_TRUE(ok.note.empty());
  const auto zero = core::check_matrix_side("0", true, 8, 257, 1 << 20);
  EXPECT_EQ(zero.value, 8);
  EXPECT_NE(zero.note.find("at least 1 row"), std::string::npos) << zero.note;
  EXPECT_NE(zero.note.find("kept 8"), std::string::npos) << zero.note;
  const auto big = core::check_matrix_side("5000", false, 257, 1000, 1 << 20);
  EXPECT_EQ(big.value, 257);
  EXPECT_NE(big.note.find("1000 x 5000"), std::string::npos) << big.note;
  EXPECT_NE(big.note.find("1048576"), std::string::npos) << big.note;
  EXPECT_NE(core::check_matrix_side("x", false, 3, 3, 1 << 20).note.find("N or 2^K"), std::string::npos);
}

TEST(Input, NumberFilesParseAndFailWithLineNumbers) {
  EXPECT_EQ(core::parse_numbers("1, 2 3\n# note\n-4,+5", core::DType::Int, "f"),
            (std::vector<double>{1, 2, 3, -4, 5}));
  EXPECT_EQ(core::parse_numbers("0.1", core::DType::Float, "f")[0], double(0.1f));
  const auto expect_error = [](const std::string& text, core::DType type, const std::string& part) {
    try {
      core::parse_numbers(text, type, "data.txt");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_error("1 2\n3 x4", core::DType::Int, "data.txt:2: 'x4' is not a number");
  expect_error("1.5", core::DType::Int, "not an integer");
  expect_error("3000000000", core::DType::Int, "32-bit");
  expect_error("1e300", core::DType::Float, "does not fit a float");
  expect_error("  # only a comment\n", core::DType::Int, "holds no numbers");
  expect_error("", core::DType::Float, "holds no numbers");

  const auto path = std::filesystem::temp_directory_path() / "redlab_input_test.txt";
  std::ofstream(path) << "7 8 9\n";
  EXPECT_EQ(core::read_input_file(path.string(), core::DType::Int), (std::vector<double>{7, 8, 9}));
  std::filesystem::remove(path);
  EXPECT_THROW(core::read_input_file(path.string(), core::DType::Int), std::runtime_error);
}

TEST(Player, StepsScrubsAndPlays) {
  core::Player p;
  p.reset(6);
  EXPECT_EQ(p.stage(), 0);
  p.step_back();
  EXPECT_EQ(p.stage(), 0);
  p.step_forward();
  p.step_forward();
  EXPECT_EQ(p.stage(), 2);
  p.seek(99);
  EXPECT_EQ(p.stage(), 5);
  p.play();  // from the last stage, starts over
  EXPECT_TRUE(p.playing());
  EXPECT_EQ(p.stage(), 0);
  p.set_speed(2.0);
  EXPECT_FALSE(p.tick(0.4));
  EXPECT_TRUE(p.tick(0.2));  // 0.6 s at 2 stages/s: one stage
  EXPECT_EQ(p.stage(), 1);
  p.tick(10.0);  // runs to the end and stops there
  EXPECT_EQ(p.stage(), 5);
  EXPECT_FALSE(p.playing());
  p.toggle();
  EXPECT_TRUE(p.playing());
  p.toggle();
  EXPECT_FALSE(p.playing());
  p.set_speed(1000);
  EXPECT_EQ(p.speed(), 20.0);
  p.reset(0);
  p.play();
  EXPECT_FALSE(p.playing());
}

TEST(Format, ValuesReadBackExactly) {
  EXPECT_EQ(core::format_value(528, core::DType::Int), "528");
  EXPECT_EQ(core::format_value(-7, core::DType::Int), "-7");
  EXPECT_EQ(core::format_value(double(0.1f), core::DType::Float), "0.1");
  EXPECT_EQ(core::format_value(std::numeric_limits<double>::infinity(), core::DType::Float), "inf");
  EXPECT_EQ(core::format_value(std::nan(""), core::DType::Float), "nan");
}

// Auto picks the GPU exactly when the CUDA backend can be made, and otherwise names the reason
// the CUDA backend gave: one oracle for either machine.
TEST(Backend, AutoFallsBackToTheModelAndSaysWhy) {
  std::string why;
  const bool gpu = backend::make_cuda_backend(&why) != nullptr;
  const auto sel = backend::select(backend::Choice::Auto);
  ASSERT_TRUE(sel.backend);
  const auto line = backend::status_line(sel);
  EXPECT_EQ(sel.backend->name(), gpu ? "cuda" : "sim");
  EXPECT_EQ(line.rfind(gpu ? "GPU: " : "CPU model: ", 0), 0u) << line;
  if (!gpu) {
    EXPECT_EQ(sel.fallback_reason, why);
    EXPECT_NE(line.find(why), std::string::npos) << line;
  }
  if (std::getenv("CI") && !std::getenv("REDLAB_REQUIRE_GPU")) {
    EXPECT_FALSE(gpu) << "CI has no GPU";
  }
  const auto sim = backend::select(backend::Choice::Sim);
  EXPECT_EQ(backend::status_line(sim), "CPU model: chosen by the user");
}

// A scene names the layout (presenter mode, panel widths) only where its JSON has the key: the
// clicker's next scene must leave the teacher's layout alone (issue 32, item 1).
TEST(Settings, ScenesNameTheLayoutOnlyWhereTheyHaveTheKey) {
  const auto plan = core::plan_from_json(
      R"({"scenes": [{"algorithm": "sequential"}, {"presenter": false}, {"panels": {"left": 0.3}}]})", "p");
  ASSERT_EQ(plan.scenes.size(), 3u);
  EXPECT_FALSE(plan.scenes[0].names_presenter);
  EXPECT_FALSE(plan.scenes[0].names_panels);
  EXPECT_TRUE(plan.scenes[1].names_presenter);
  EXPECT_FALSE(plan.scenes[1].names_panels);
  EXPECT_TRUE(plan.scenes[2].names_panels);
  EXPECT_DOUBLE_EQ(plan.scenes[2].panels.left, 0.3);
  // A saved settings file names both: reopening it restores the layout.
  // A named default, not a temporary: GCC 12 -O3 warned that the temporary's InputSpec::path may be
  // used uninitialized (maybe-uninitialized, a false positive of its string inlining) under -Werror.
  const core::Settings defaults;
  const auto saved = core::settings_from_json(core::to_json(defaults), "s").settings;
  EXPECT_TRUE(saved.names_presenter && saved.names_panels);
}

// A plan is prepared ahead of class: a mistake in it names the scene and the field.
TEST(Settings, PlansParseOrNameTheSceneAndFieldThatIsWrong) {
  const auto plan = core::plan_from_json(
      R"({"title": "t", "scenes": [{"algorithm": "sequential", "view": "banks", "stage": 2}, {"algorithm": "cg-warp"}]})", "p");
  ASSERT_EQ(plan.scenes.size(), 2u);
  EXPECT_EQ(plan.title, "t");
  EXPECT_EQ(plan.scenes[0].view, "banks");
  EXPECT_EQ(plan.scenes[0].stage, 2);
  EXPECT_EQ(plan.scenes[1].algorithm, "cg-warp");
  try {
    core::plan_from_json(R"({"scenes": [{"algorithm": "sequential"}, {"view": "sideways"}]})", "p");
    ADD_FAILURE() << "a wrong view was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("scene 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'view'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(core::plan_from_json(R"({"scenes": []})", "p"), std::runtime_error);
  EXPECT_THROW(core::plan_from_json("not json", "p"), std::runtime_error);
  EXPECT_THROW(core::plan_from_json(R"({"scenes": [{"compare": "cub"}]})", "p"), std::runtime_error);
  // A scene's own Look is a pointer the lesson pane can follow, or the plan is refused.
  EXPECT_THROW(core::plan_from_json(R"({"scenes": [{"look": "Look: sideways load: x"}]})", "p"), std::runtime_error);
  EXPECT_THROW(core::plan_from_json(R"({"scenes": [{"look": "look at the banks"}]})", "p"), std::runtime_error);
  const std::string longest = "Look: banks load: " + std::string(500, 'x');
  EXPECT_THROW(core::plan_from_json(R"({"scenes": [{"look": ")" + longest + "\"}]}", "p"), std::runtime_error);
  EXPECT_EQ(core::plan_from_json(R"({"scenes": [{"look": "Look: coalescing load: here"}]})", "p").scenes[0].look,
            "Look: coalescing load: here");
}

TEST(Settings, RoundTripAndKeepBrokenFiles) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_settings";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = (dir / "settings.json").string();

  EXPECT_TRUE(core::load_settings(path, core::Whose::Own).problem.empty());  // missing: defaults, silently
  core::Settings s;
  s.algorithm = "warp-shuffle";
  s.op = core::Op::Max;
  s.type = core::DType::Double;
  s.accumulate = core::Accumulate::Same;  // chosen over halves, kept for when they come back (fuzz_settings)
  s.block = 128;
  s.size = 1000;
  s.trace_block = 3;
  s.input = {core::InputSpec::Kind::Random, 42, {}};
  s.speed = 2.5;
  s.presenter = true;
  s.typed = true;
  s.values = "1, 2\n3";
  s.compare = "sequential";  // a scene is the whole state
  s.view = "banks";
  s.stage = 4;
  s.tab = "bandwidth";
  s.title = "strides";
  s.look = "Look: banks step=4: a scene's own pointer";
  s.panels = {0.25, 0.3, 0.4};
  s.rows = 33, s.cols = 257;  // a matrix algorithm's shape
  s.names_presenter = s.names_panels = true;  // a saved file names both
  std::string why;
  ASSERT_TRUE(core::save_settings(s, path, &why)) << why;
  auto loaded = core::load_settings(path, core::Whose::Own);
  EXPECT_TRUE(loaded.problem.empty()) << loaded.problem;
  EXPECT_EQ(loaded.settings, s);

  // Partly wrong: the wrong fields fall back and are named; the rest is kept.
  std::ofstream(path) << R"({"algorithm": "bogus", "block": 99999, "op": "max", "speed": "fast"})";
  loaded = core::load_settings(path, core::Whose::Own);
  EXPECT_NE(loaded.problem.find("'algorithm'"), std::string::npos) << loaded.problem;
  EXPECT_NE(loaded.problem.find("'block'"), std::string::npos);
  EXPECT_NE(loaded.problem.find("'speed'"), std::string::npos);
  EXPECT_EQ(loaded.settings.algorithm, "sequential");
  EXPECT_EQ(loaded.settings.op, core::Op::Max);

  // Each side fits, the two together are more than the window traces: both named, both default.
  std::ofstream(path) << R"({"rows": 1048576, "cols": 2})";
  loaded = core::load_settings(path, core::Whose::Own);
  const core::Settings fresh;
  EXPECT_NE(loaded.problem.find("'rows'"), std::string::npos) << loaded.problem;
  EXPECT_EQ(loaded.settings.rows, fresh.rows);
  EXPECT_EQ(loaded.settings.cols, fresh.cols);

  // Broken: defaults, and the file kept beside as .broken.
  std::ofstream(path) << "{ this is not json";
  loaded = core::load_settings(path, core::Whose::Own);
  EXPECT_NE(loaded.problem.find("broken"), std::string::npos);
  const core::Settings defaults;  // (a temporary here trips GCC 12 -O3 maybe-uninitialized)
  EXPECT_EQ(loaded.settings, defaults);
  EXPECT_TRUE(std::filesystem::exists(path + ".broken"));
  std::ifstream kept(path + ".broken");
  std::string first;
  std::getline(kept, first);
  EXPECT_EQ(first, "{ this is not json");
  // Broken again: the older .broken stays, the newer is kept beside it (issue 48, item 11).
  std::ofstream(path) << "[ broken a second time";
  loaded = core::load_settings(path, core::Whose::Own);
  EXPECT_NE(loaded.problem.find(".broken.2'"), std::string::npos) << loaded.problem;
  std::ifstream older(path + ".broken"), newer(path + ".broken.2");
  std::getline(older, first);
  EXPECT_EQ(first, "{ this is not json");
  std::getline(newer, first);
  EXPECT_EQ(first, "[ broken a second time");
  EXPECT_FALSE(std::filesystem::exists(path));

  EXPECT_FALSE(core::save_settings(s, "/nonexistent/dir/settings.json", &why));
  EXPECT_NE(why.find("/nonexistent/dir"), std::string::npos);
}

// Dragged panel widths: the fraction asked where it leaves every panel its minimum, else held
// at the limit; 0 is the default; a fraction past 0.9 in a file is refused and named.
TEST(Settings, PanelWidthsAreClampedAndReadBack) {
  const core::PanelSplit fallback{300, 400}, min{200, 150};
  auto w = core::clamp_panels(0, 0, fallback, 1600, min, 500);
  EXPECT_EQ(w.left, 300);
  EXPECT_EQ(w.right, 400);
  w = core::clamp_panels(0.25, 0.3, fallback, 1600, min, 500);
  EXPECT_FLOAT_EQ(w.left, 400);
  EXPECT_FLOAT_EQ(w.right, 480);
  w = core::clamp_panels(0.05, 0.05, fallback, 1600, min, 500);  // too narrow: the minima
  EXPECT_EQ(w.left, 200);
  EXPECT_EQ(w.right, 150);
  w = core::clamp_panels(0.6, 0.6, fallback, 1600, min, 500);  // the centre keeps 500
  EXPECT_FLOAT_EQ(w.right, 1600 - 500 - 200);
  EXPECT_FLOAT_EQ(w.left, 200);
  EXPECT_FLOAT_EQ(w.left + w.right + 500, 1600);
  w = core::clamp_panels(0.6, 0.6, fallback, 600, min, 500);  // a window too small for all: each its minimum
  EXPECT_EQ(w.left, 200);
  EXPECT_EQ(w.right, 150);
  // Any fractions: the three panels fit the window, each side at least its minimum.
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 200; ++i) {
    const double l = double(rng() % 91) / 100, r = double(rng() % 91) / 100;
    const float width = float(900 + rng() % 3000);
    w = core::clamp_panels(l, r, fallback, width, min, 500);
    EXPECT_GE(w.left, 200);
    EXPECT_GE(w.right, 150);
    EXPECT_LE(w.left + w.right + 500, width + 0.01f) << l << " " << r << " " << width;
  }
  const auto back = core::settings_from_json(R"({"panels": {"left": 0.2, "right": 0.35}})", "test");
  EXPECT_TRUE(back.problem.empty()) << back.problem;
  EXPECT_EQ(back.settings.panels, (core::PanelWidths{0.2, 0.35, 0}));
  const auto wrong = core::settings_from_json(R"({"panels": {"left": 2}, "block": 64})", "test");
  EXPECT_NE(wrong.problem.find("'panels'"), std::string::npos) << wrong.problem;
  EXPECT_EQ(wrong.settings.panels, core::PanelWidths{});
  EXPECT_EQ(wrong.settings.block, 64);
}

// Undo keeps a step only when the state really changed, holds at most its depth, and a new
// change after an undo clears what could be redone.
TEST(Undo, RecordsRealChangesBoundedAndClearsRedoOnANewChange) {
  core::History h(3);
  core::Settings s;
  EXPECT_FALSE(h.observe(s));  // the first state is where undo stops
  EXPECT_FALSE(h.observe(s));  // the same again: no step
  EXPECT_FALSE(h.undo());
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<core::Settings> seen{s};
  for (int i = 0; i < 5; ++i) {  // five distinct states, none the first (block 32, stage 0)
    s.block = 32 << (i % 5);
    s.stage = 1 + int(rng() % 50) + 100 * i;
    EXPECT_TRUE(h.observe(s));
    EXPECT_FALSE(h.observe(s));
    seen.push_back(s);
  }
  EXPECT_EQ(h.undo_steps(), 3u);  // bounded: the two oldest are gone
  for (int back = 1; back <= 3; ++back) {
    const auto u = h.undo();
    ASSERT_TRUE(u);
    EXPECT_EQ(*u, seen[seen.size() - 1 - std::size_t(back)]);
    EXPECT_FALSE(h.observe(*u));  // the window applying the undone state is no new step
  }
  EXPECT_FALSE(h.undo());
  const auto r = h.redo();
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, seen[seen.size() - 3]);
  EXPECT_EQ(h.redo_steps(), 2u);
  core::Settings other = *r;
  other.view = "banks";
  EXPECT_TRUE(h.observe(other));  // a new change: nothing left to redo
  EXPECT_EQ(h.redo_steps(), 0u);
  EXPECT_FALSE(h.redo());
  EXPECT_EQ(*h.undo(), *r);
}

// A steady leak shows as growth; a plateau whose samples sometimes dip (the benchmark's
// buffers freed between runs, as a GPU soak saw) does not.
TEST(FrameLog, GrowthSeesALeakButNotDips) {
  constexpr std::size_t MiB = 1 << 20;
  core::FrameLog leak, dips;
  for (std::size_t i = 0; i < 180; ++i) {
    leak.add_memory(60 * i, 200 * MiB + i * MiB / 10, 600 * MiB + i * MiB / 20);  // +0.1 and +0.05 MiB a sample
    const bool dip = i % 40 == 17;
    dips.add_memory(60 * i, 230 * MiB, (dip ? 571 : 693 + 2 * (i % 2)) * MiB);
  }
  const auto l = leak.growth(), d = dips.growth();
  EXPECT_EQ(l.samples, 180u);
  EXPECT_NEAR(l.rss_mib, 9.0, 0.2);  // 90 samples apart
  EXPECT_NEAR(l.device_mib, 4.5, 0.1);
  EXPECT_NEAR(d.device_mib, 0.0, 1e-9);
  EXPECT_NEAR(d.rss_mib, 0.0, 1e-9);
  EXPECT_EQ(core::FrameLog{}.growth().samples, 0u);
}

TEST(FrameLog, SummarisesIdleAndBenchmarkFramesApart) {
  core::FrameLog log;
  for (int i = 1; i <= 100; ++i) log.add(i, false);  // 1..100 ms
  log.add(5, true), log.add(20, true);
  const auto idle = log.summary(false), bench = log.summary(true);
  EXPECT_EQ(idle.frames, 100u);
  EXPECT_EQ(idle.p50, 50);
  EXPECT_EQ(idle.p99, 99);
  EXPECT_EQ(idle.max, 100);
  EXPECT_EQ(idle.over_budget, 84u);  // 17..100 ms miss 1/60 s
  EXPECT_EQ(bench.frames, 2u);
  EXPECT_EQ(bench.over_budget, 1u);
  EXPECT_EQ(core::FrameLog{}.summary(true).frames, 0u);
  std::string why;
  EXPECT_FALSE(log.write("/nonexistent-dir/frames.json", "r", &why));
  EXPECT_NE(why.find("frames.json"), std::string::npos);
}

namespace {

core::Trace model_trace(const std::string& algorithm, int block) {
  backend::TraceRequest req;
  req.algorithm = algorithm;
  req.block = block;
  for (int i = 1; i <= block; ++i) req.input.push_back(i);
  return backend::make_sim_backend()->trace(req);
}

}  // namespace

// Idle lane-steps count the inactive lanes of warps that worked; a warp with no active lane
// issues nothing and is not counted.
TEST(Compare, IdleLanesCountOnlyTheWarpsThatWorked) {
  const auto t = model_trace("sequential", 64);
  ASSERT_EQ(t.stages.size(), 7u);  // the load, then strides 32, 16, 8, 4, 2, 1
  const int want[] = {0, 0, 16, 24, 28, 30, 31};  // stride 32: warp 0 all busy, warp 1 all idle: none
  for (std::size_t k = 0; k < t.stages.size(); ++k) EXPECT_EQ(core::idle_lanes(t.stages[k], 64), want[k]) << t.stages[k].label;
  EXPECT_EQ(core::figures_of(t).idle_lanes, 16u + 24 + 28 + 30 + 31);
  // A block of 40: warp 1 has 8 lanes; with lanes 0-9 and 33 active, 22 + 7 idle.
  core::Stage s;
  s.active = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 33};
  EXPECT_EQ(core::idle_lanes(s, 40), 29);
  s.active.clear();
  EXPECT_EQ(core::idle_lanes(s, 40), 0);
}

// The table's other figures come from the trace: stages, bank conflicts, additions.
TEST(Compare, FiguresComeFromTheTrace) {
  const auto seq = core::figures_of(model_trace("sequential", 64));
  EXPECT_EQ(seq.stages, 7);
  EXPECT_EQ(seq.worst_conflict, 1);  // shared memory, never a conflict
  EXPECT_EQ(seq.conflict_sum, 0);
  EXPECT_EQ(seq.additions, 63u);
  EXPECT_TRUE(seq.additions_exact);
  // The lesson's degrees at 256 threads: 2, 4, 8, 8, 8, 4, 2, 1.
  const auto strided = core::figures_of(model_trace("interleaved-bank-conflicts", 256));
  EXPECT_EQ(strided.worst_conflict, 8);
  EXPECT_EQ(strided.conflict_sum, 2 + 4 + 8 + 8 + 8 + 4 + 2);
}

// Times pair up at the largest size that times both algorithms, in one type and operator.
TEST(Compare, TimesPairAtTheLargestSharedSize) {
  core::BenchReport r;
  const auto row = [](std::string algorithm, std::size_t n, std::string type, double us) {
    core::BenchRow b;
    b.algorithm = std::move(algorithm), b.n = n, b.type = std::move(type), b.op = "sum", b.median_us = us;
    return b;
  };
  r.rows = {row("sequential", 1024, "float", 4), row("sequential", 4096, "float", 9), row("warp-shuffle", 1024, "float", 2),
            row("warp-shuffle", 4096, "int", 3), row("cub", 8192, "float", 1)};
  const auto pair = core::pair_time(r, "sequential", "warp-shuffle");
  ASSERT_TRUE(pair);
  EXPECT_EQ(pair->n, 1024u);
  EXPECT_EQ(pair->type, "float");
  EXPECT_EQ(pair->first.median_us, 4);
  EXPECT_EQ(pair->second.median_us, 2);
  EXPECT_FALSE(core::pair_time(r, "sequential", "cub"));
  EXPECT_FALSE(core::pair_time({}, "sequential", "warp-shuffle"));
  EXPECT_EQ(core::size_text(std::size_t(1) << 28), "2^28");
  EXPECT_EQ(core::size_text(1000), "1000");
  // A matrix sweep: every shape holds the same n, so rows pair up by shape, and name it.
  auto shaped = [&](std::string algorithm, std::size_t rows, double us) {
    auto b = row(std::move(algorithm), std::size_t(1) << 20, "float", us);
    b.rows = rows, b.cols = b.n / rows;
    return b;
  };
  r.rows = {shaped("batched-rows", 16, 7), shaped("batched-rows", 4096, 5), shaped("column-sums", 4096, 3)};
  const auto matrix = core::pair_time(r, "batched-rows", "column-sums");
  ASSERT_TRUE(matrix);
  EXPECT_EQ(matrix->first.median_us, 5);
  EXPECT_EQ(core::shape_text(matrix->first), "2^12 x 2^8");
  EXPECT_EQ(core::shape_text(r.rows[0]), "2^4 x 2^16");
  // With the matrix on screen, the shape whose rows are nearest its row length: 50 columns pair at
  // rows of 64, 300 at rows of 256; an odd shape of fewer elements where it is nearer (15); columns
  // of 20 at 2^4 rows; where the nearest shape times only the first algorithm, the next nearest.
  r.rows.push_back(shaped("column-sums", 16, 4));
  r.rows.push_back(shaped("batched-rows", 1 << 14, 6));
  r.rows.push_back(shaped("column-sums", 1 << 14, 2));
  auto odd = row("batched-rows", 15000, "float", 8), odd2 = row("column-sums", 15000, "float", 9);
  odd.rows = odd2.rows = 1000, odd.cols = odd2.cols = 15;
  r.rows.push_back(odd), r.rows.push_back(odd2);
  const auto at = [&](std::size_t length, bool columns = false) {
    const auto p = core::pair_time(r, "batched-rows", "column-sums", length, columns);
    return p ? core::shape_text(p->first) : std::string("none");
  };
  EXPECT_EQ(at(50), "2^14 x 2^6");
  EXPECT_EQ(at(300), "2^12 x 2^8");
  EXPECT_EQ(at(15), "1000 x 15");
  EXPECT_EQ(at(20, true), "2^4 x 2^16");
  r.rows.push_back(shaped("batched-rows", 1 << 11, 1));  // rows of 512: timed for the first alone
  EXPECT_EQ(at(512), "2^12 x 2^8");
  EXPECT_EQ(core::shape_text(core::pair_time(r, "batched-rows", "column-sums")->first), "2^4 x 2^16");
}

// The machine code shipped beside redux-sync's lesson: its fields, and the counts the lesson
// quotes come from its lines (2 REDUX against 15 SHFL.DOWN in the H100 build); a file with a
// line that is none of the format's is refused naming that line.
TEST(MachineCode, TheLessonCountsTheShippedLines) {
  const auto code = core::shipped_machine_code("redux-sync");
  ASSERT_TRUE(code);
  EXPECT_EQ(code->device, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(core::count_opcode(*code, "redux-sync int sum", "REDUX"), 2u);
  EXPECT_EQ(core::count_opcode(*code, "redux-sync int sum", "SHFL"), 0u);
  EXPECT_EQ(core::count_opcode(*code, "warp-shuffle int sum", "SHFL"), 15u);
  EXPECT_EQ(core::count_opcode(*code, "no such kernel", "SHFL"), 0u);
  EXPECT_FALSE(core::shipped_machine_code("sequential"));
  const auto t = backend::make_sim_backend()->trace({"redux-sync", core::Op::Sum, core::DType::Int, 64, 0, {1, 2, 3}});
  EXPECT_EQ(core::fill_lesson("{redux_ops} {shfl_ops} {redux_instructions} {shuffle_instructions}", t), "2 15 56 144");
  EXPECT_EQ(core::fill_lesson("{redux_cycles} {shuffle_cycles}", t), "44.4 145.8");  // the timed chains

  const std::string ok = "device: D\nrecorded: R\nkernel: k\ninstructions: 9\n/*0010*/ @P0 SHFL.DOWN PT, R1, R2 ;\n";
  const auto parsed = core::parse_machine_code(ok);
  EXPECT_EQ(core::count_opcode(parsed, "k", "SHFL"), 1u);  // a predicated line counts too
  EXPECT_EQ(parsed.kernels[0].instructions, 9u);
  EXPECT_EQ(parsed.kernels[0].stage_cycles, 0);  // not timed
  EXPECT_EQ(core::parse_machine_code(ok + "stage cycles: 23.5\n").kernels[0].stage_cycles, 23.5);
  for (const std::string bad :
       {"device: D\nrecorded: R\nkernel: k\nREDUX UR4, R0\n", "device: D\nrecorded: R\n/*0010*/ REDUX UR4, R0 ;\n",
        "device: D\nrecorded: R\nkernel: k\ninstructions: lots\n", "device: D\nrecorded: R\nstage cycles: 4\n",
        "device: D\nrecorded: R\nkernel: k\nstage cycles: 1.2.3\n",
        "device: D\nrecorded: R\nkernel: k\nstage cycles: 0\n"}) {
    try {
      core::parse_machine_code(bad);
      ADD_FAILURE() << "accepted: " << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("line "), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(core::parse_machine_code("# only a comment\n"), std::invalid_argument);
}

// What the views and the Work tab say the hardware counted: the figures each needs, from the
// file, for the algorithms measured alone; a small count printed whole, not as "0.0 M"; figures
// out of range refused by name.
TEST(Counters, EachViewSaysWhatTheHardwareCountedForItsAlgorithm) {
  const std::string text =
      R"J({"device":"NVIDIA H100 80GB HBM3","driver":"1","recorded":"2026-11-27 02:10 UTC","tool":"T","metric":"M",
    "request":"Q","type":"float","n":16,"kernels":[{"algorithm":"sequential","kernel":"void sequential<float>()",
    "launches":1,"instructions":56295424,"duration_us":79.2,"grid":65536,"block":256,"shared_load_conflicts":35902,
    "shared_store_conflicts":4719898,"shared_loads":8454144,"shared_stores":4718592,"global_load_sectors":2097152,
    "global_load_requests":524288,"threads_per_instruction":31.6,"dram_pct":26.12,"input":"2^24 floats",
    "stalls":[{"reason":"long_scoreboard","cycles":9.25},{"reason":"barrier","cycles":12.5}]}]})J";
  const core::Counters c = core::parse_counters(text);
  const auto banks = core::counted_lines(c, "sequential", "banks");
  EXPECT_EQ(banks.context, "The hardware, a whole launch over 2^24 floats, 65536 blocks of 256 (H100 80GB HBM3):");
  EXPECT_EQ(banks.figures, "bank conflicts (extra wavefronts): 35,902 in 8.5 M shared loads, 4.7 M in 4.7 M stores");
  EXPECT_EQ(core::counted_lines(c, "sequential", "coalescing").figures,
            "2.1 M sectors in 0.5 M global load requests, 4.0 a request");
  EXPECT_EQ(core::counted_lines(c, "sequential", "divergence").figures,
            "31.6 of 32 threads active a warp instruction, over the whole kernel (lanes a predicate switched off "
            "count as active)");
  // With the lanes whose predicate was on, those lead: the lanes that did work (issue 47).
  std::string pred = text;
  pred.replace(pred.find("\"dram_pct\""), 0, "\"pred_on_per_instruction\":17.25,");
  EXPECT_EQ(core::counted_lines(core::parse_counters(pred), "sequential", "divergence").figures,
            "17.2 of 32 lanes on a warp instruction, 31.6 issued (a predicated if issues its body in every warp)");
  pred.replace(pred.find("17.25"), 5, "31.90");
  EXPECT_THROW(core::parse_counters(pred), std::runtime_error) << "more lanes on than active";
  const auto work = core::counted_lines(c, "sequential", "work");
  EXPECT_NE(work.context.find("Nsight Compute on an NVIDIA H100 80GB HBM3, 2026-11-27 02:10 UTC"), std::string::npos)
      << work.context;
  EXPECT_EQ(work.figures,
            "56.3 million warp instructions; DRAM at 26.1 % of its peak; a warp stalled most on barrier (12.5), "
            "long scoreboard (9.2) cycles an issued instruction");
  EXPECT_TRUE(core::counted_lines(c, "warp-shuffle", "banks").empty());  // not measured
  EXPECT_TRUE(core::counted_lines(c, "sequential", "grid").empty());     // no figures for that view
  for (const auto& [from, to, says] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"\"threads_per_instruction\":31.6", "\"threads_per_instruction\":33",
            "'threads_per_instruction' is outside 0 to 32"},
           {"\"dram_pct\":26.12", "\"dram_pct\":-1", "'dram_pct' is outside 0 to 100"},
           {"{\"reason\":\"barrier\",", "{\"reason\":\"\",", "stall reason without a name"},
           {"\"input\":\"2^24 floats\"", "\"input\":\"" + std::string(41, 'x') + "\"",
            "'input' or 'recorded' longer than 40"},
           {"\"input\":\"2^24 floats\"", "\"input\":\"2^24 floats\",\"recorded\":\"" + std::string(41, 'x') + "\"",
            "'input' or 'recorded' longer than 40"}}) {
    std::string broken = text;
    broken.replace(broken.find(from), from.size(), to);
    try {
      core::parse_counters(broken);
      ADD_FAILURE() << "accepted: " << to;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  }
  // A kernel counted in a later call than the file's says its own date.
  std::string later = text;
  later.replace(later.find("\"input\""), 7, "\"recorded\":\"2026-11-27 04:53 UTC\",\"input\"");
  EXPECT_NE(core::counted_lines(core::parse_counters(later), "sequential", "work").context.find("04:53 UTC"),
            std::string::npos);
  // The shipped file holds these figures for the kernels it measured.
  EXPECT_FALSE(core::shipped_counted_lines("interleaved-bank-conflicts", "banks").empty());
  EXPECT_TRUE(core::shipped_counted_lines("syncthreads-in-branch", "banks").empty());  // never launched
}

// The shipped counters belong to the shipped kernels: each row names a catalog algorithm, and the
// kernel Nsight Compute profiled is a __global__ function of that algorithm's own source file.
// A file with a field missing, of the wrong type or out of range is refused naming the field.
TEST(Counters, ShippedCountersBelongToTheShippedKernels) {
  const auto c = core::shipped_counters("h100");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->device, "NVIDIA H100 80GB HBM3");
  EXPECT_GE(c->kernels.size(), 6u);
  for (const auto& k : c->kernels) {
    SCOPED_TRACE(k.algorithm);
    const auto* row = kernels::find_row(k.algorithm);
    ASSERT_TRUE(row);
    const std::string name = k.kernel.substr(5, k.kernel.find('<') - 5);  // "void NAME<float, ...>(...)"
    ASSERT_EQ(k.kernel.rfind("void ", 0), 0u) << k.kernel;
    const std::string source(embedded::kernel_source(row->source));
    EXPECT_NE(source.find(" " + name + "("), std::string::npos) << name << " is not a kernel of " << row->source;
    EXPECT_NE(source.find("__global__"), std::string::npos);
    EXPECT_GT(k.instructions, 0u);
  }
  EXPECT_FALSE(core::shipped_counters("nowhere"));
  EXPECT_EQ(core::millions(42795008), "42.8 million");
  const std::string good =
      R"J({"device":"D","driver":"1","recorded":"R","tool":"T","metric":"M","request":"Q","type":"float",
    "n":16,"kernels":[{"algorithm":"sequential","kernel":"void sequential<float>()","launches":1,"instructions":5,
    "duration_us":1.5,"grid":2,"block":256}]})J";
  EXPECT_EQ(core::parse_counters(good).kernels[0].instructions, 5u);
  const std::pair<std::string, std::string> bad[] = {
      {R"J("device":"D",)J", "'device'"},
      {R"J("instructions":5,)J", "'instructions'"},
      {R"J("block":256})J", "out of range"},
  };
  const std::string replacement[] = {"", R"J("instructions":"five",)J", R"J("block":2048})J"};
  for (std::size_t i = 0; i < std::size(bad); ++i) {
    std::string text = good;
    text.replace(text.find(bad[i].first), bad[i].first.size(), replacement[i]);
    try {
      core::parse_counters(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(bad[i].second), std::string::npos) << e.what();
    }
  }
}
