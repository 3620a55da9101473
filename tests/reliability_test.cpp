// Bad input and IEEE special values: what the user sees, checked. (docs/reliability.md lists
// each case and the test that covers it.)
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <tuple>

#include "app/backend/backend.h"
#include "app/backend/bench_runner.h"
#include "app/cli/cli.h"
#include "app/core/catalog.h"
#include "app/core/bench.h"
#include "app/core/input.h"
#include "app/core/trace.h"
#include "cli_support.h"
#include "test_support.h"

using namespace rl;

namespace {

const auto run = test::run_cli;

std::string temp_file(const std::string& name, const std::string& text) {
  const auto path = testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST(Reliability, InputFilesThatCannotBeReadSayWhy) {
  const auto empty = temp_file("redlab_empty.txt", "  # only a comment\n");
  auto r = run({"trace", "-a", "sequential", "--input", empty, "--backend", "sim"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("holds no numbers"), std::string::npos) << r.err;

  const auto nan_int = temp_file("redlab_nan.txt", "1 2\nnan 4\n");
  r = run({"trace", "-a", "sequential", "--input", nan_int, "--type", "int", "--backend", "sim"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find(":2: 'nan' is not an integer (NaN and Inf exist only for float and double)"), std::string::npos)
      << r.err;

  const auto big = temp_file("redlab_overflow.txt", "1e40\n");
  r = run({"trace", "-a", "sequential", "--input", big, "--type", "float", "--backend", "sim"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("does not fit a float"), std::string::npos) << r.err;

  // A file too large to read is refused by its size, before a byte is read (sparse here).
  const auto huge = testing::TempDir() + "redlab_huge.txt";
  { std::ofstream(huge) << "1"; }
  std::filesystem::resize_file(huge, core::kMaxInputFileBytes + 1);
  r = run({"trace", "-a", "sequential", "--input", huge, "--backend", "sim"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("MiB of text is read"), std::string::npos) << r.err;
  std::filesystem::remove(huge);
}

TEST(Reliability, NanAndInfFollowIeeeForEveryAlgorithmAndOperator) {
  const std::uint64_t seed = test::test_seed();
  std::mt19937_64 rng(seed);
  const auto sim = backend::make_sim_backend();
  for (const auto& a : core::algorithms()) {
    if (a.kind == core::Kind::Baseline || a.id == "global-halving") continue;  // halving: below
    if (a.ints_only) continue;  // no floats to hold a NaN (Reliability.IntOnlyKernelsRefuseOtherTypesInWords)
    for (core::DType type : {core::DType::Float, core::DType::Double}) {
      for (int trial = 0; trial < 3; ++trial) {
        const std::size_t n = 1 + rng() % 700;
        std::vector<double> v = core::generate_input({core::InputSpec::Kind::Random, rng(), {}}, n, type);
        const std::size_t at = rng() % n;
        SCOPED_TRACE(a.id + " " + core::to_string(type) + " n=" + std::to_string(n) + " at=" + std::to_string(at) +
                     " seed=" + std::to_string(seed));
        const auto reduce = [&](core::Op op, const std::vector<double>& in) {
          backend::TraceRequest req{a.id, op, type, 64, 0, in};
          if (a.id == "non-pow2-block") req.block = 48;
          test::one_output_shape(req);
          return sim->trace(req).result;
        };
        std::vector<double> with_nan = v, with_inf = v, both_inf = v;
        with_nan[at] = kNaN;
        with_inf[at] = kInf;
        both_inf[at] = kInf;
        both_inf[(at + 1) % n] = n > 1 ? -kInf : kInf;
        EXPECT_TRUE(std::isnan(reduce(core::Op::Sum, with_nan)));
        EXPECT_EQ(reduce(core::Op::Sum, with_inf), kInf);
        if (n > 1) {
          EXPECT_TRUE(std::isnan(reduce(core::Op::Sum, both_inf)));  // inf + -inf
        }
        if (!kernels::takes(*kernels::find_row(a.id), false, kernels::OpKind::Min))
          continue;  // FloatMinAndMax... below
        EXPECT_EQ(reduce(core::Op::Max, with_inf), kInf);
        // The minimum of the rest; +inf itself where it is the only element.
        EXPECT_EQ(reduce(core::Op::Min, with_inf), *std::min_element(with_inf.begin(), with_inf.end()));
        if (a.id == "cg-reduce-update-async") {  // CUDA's atomic min/max promise nothing for NaN
          backend::TraceRequest req{a.id, core::Op::Min, type, 64, 0, with_nan};
          EXPECT_THROW(sim->trace(req), std::invalid_argument);
          continue;
        }
        EXPECT_TRUE(std::isnan(reduce(core::Op::Min, with_nan)));  // a NaN operand wins, in any order
        EXPECT_TRUE(std::isnan(reduce(core::Op::Max, with_nan)));
      }
    }
  }
  backend::TraceRequest halving{"global-halving", core::Op::Max, core::DType::Float, 64, 0, {1, kNaN, 3, 2, 5}};
  EXPECT_TRUE(std::isnan(sim->trace(halving).result));
}

TEST(Reliability, SpecialValuesAreShownAsSuch) {
  backend::TraceRequest req{"sequential", core::Op::Sum, core::DType::Float, 32, 0, {1, kNaN, kInf, -kInf, 2}};
  const auto t = backend::make_sim_backend()->trace(req);
  const std::string json = core::to_json(t);
  EXPECT_NE(json.find("\"nan\""), std::string::npos);
  EXPECT_NE(json.find("\"inf\""), std::string::npos);
  EXPECT_NE(json.find("\"-inf\""), std::string::npos);
  const auto back = core::trace_from_json(json);
  EXPECT_TRUE(std::isnan(back.result));
  EXPECT_TRUE(std::isnan(back.input[1]));
  EXPECT_EQ(back.input[3], -kInf);
  EXPECT_EQ(core::format_value(kNaN, core::DType::Float), "nan");
  EXPECT_EQ(core::format_value(-kInf, core::DType::Double), "-inf");
}

TEST(Reliability, SizesBeyondMemoryAreRefusedWithTheAmounts) {
  const auto r = run({"bench", "--backend", "sim", "-a", "sequential", "--sizes", "2^40"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("MiB of host memory"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Reliability, BrokenResultsFilesAreReportedAndKept) {
  const std::string text = "{\"device\": \"x\", \"rows\": [{\"algorithm\": ";
  const auto path = temp_file("redlab_broken_results.json", text);
  const auto r = run({"render", "--chart", path, "--out", testing::TempDir() + "redlab_chart.png"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("results"), std::string::npos) << r.err;
  std::ifstream f(path);
  std::stringstream kept;
  kept << f.rdbuf();
  EXPECT_EQ(kept.str(), text);  // untouched
}

TEST(Reliability, BaselinesHaveNoStagesToTrace) {
  const auto r = run({"trace", "-a", "cub", "--backend", "sim"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'cub' is a baseline"), std::string::npos) << r.err;
}

// redux-sync takes int alone: a float or double trace or bench is refused in words naming the
// type and the instruction, and the default bench of floats leaves it out rather than failing.
TEST(Reliability, IntOnlyKernelsRefuseOtherTypesInWords) {
  for (const char* type : {"float", "double"}) {
    auto r = run({"trace", "-a", "redux-sync", "--backend", "sim", "--type", type, "-n", "100"});
    EXPECT_EQ(r.code, 2) << type;
    EXPECT_NE(r.err.find("'redux-sync' reduces int only, not " + std::string(type)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("redux.sync"), std::string::npos) << r.err;
    r = run({"bench", "--backend", "sim", "-a", "redux-sync", "--type", type, "--sizes", "2^10"});
    EXPECT_EQ(r.code, 2) << type;
    EXPECT_NE(r.err.find("reduces int only"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run({"trace", "-a", "redux-sync", "--backend", "sim", "--type", "int", "-n", "100"}).code, 0);
  const auto floats = backend::default_bench_algorithms(core::DType::Float);
  const auto ints = backend::default_bench_algorithms(core::DType::Int);
  EXPECT_EQ(std::count(floats.begin(), floats.end(), "redux-sync"), 0);
  EXPECT_EQ(std::count(ints.begin(), ints.end(), "redux-sync"), 1);
}

// bulk-async's bulk reduction adds floats and doubles but has no min or max of them: a trace or a
// bench of one is refused in words; int min and float sums run.
TEST(Reliability, FloatMinAndMaxOfBulkAsyncAreRefusedInWords) {
  for (const char* type : {"float", "double"})
    for (const char* op : {"min", "max"}) {
      SCOPED_TRACE(std::string(type) + " " + op);
      auto r = run({"trace", "-a", "bulk-async", "--backend", "sim", "--type", type, "--op", op, "-n", "100"});
      EXPECT_EQ(r.code, 2);
      EXPECT_NE(r.err.find("'bulk-async' takes the " + std::string(op) + " of int only, not of " + type),
                std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("cp.reduce.async.bulk"), std::string::npos) << r.err;
      r = run({"bench", "--backend", "sim", "-a", "bulk-async", "--type", type, "--op", op, "--sizes", "2^10"});
      EXPECT_EQ(r.code, 2);
      EXPECT_NE(r.err.find("of int only"), std::string::npos) << r.err;
    }
  EXPECT_EQ(run({"trace", "-a", "bulk-async", "--backend", "sim", "--type", "int", "--op", "min", "-n", "100"}).code,
            0);
  EXPECT_EQ(run({"trace", "-a", "bulk-async", "--backend", "sim", "--type", "double", "-n", "100"}).code, 0);
  const auto float_mins = backend::default_bench_algorithms(core::DType::Float, core::Op::Min);
  EXPECT_EQ(std::count(float_mins.begin(), float_mins.end(), "bulk-async"), 0);
  const auto float_sums = backend::default_bench_algorithms(core::DType::Float, core::Op::Sum);
  EXPECT_EQ(std::count(float_sums.begin(), float_sums.end(), "bulk-async"), 1);
}

// --cluster: a size clusters cannot take, a cluster asked of a kernel without them, and a traced
// block that is not a cluster's first are refused in words; a good one runs.
TEST(Reliability, ClusterSizesAreRefusedInWords) {
  auto r = run({"trace", "-a", "cluster-dsmem", "--backend", "sim", "--cluster", "3", "-n", "1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--cluster"), std::string::npos) << r.err;
  r = run({"trace", "-a", "warp-shuffle", "--backend", "sim", "--cluster", "2", "-n", "1000"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("warp-shuffle launches no clusters"), std::string::npos) << r.err;
  r = run({"trace", "-a", "cluster-dsmem", "--backend", "sim", "--cluster", "8", "-n", "1000", "-b", "32",
           "--trace-block", "9"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("not the first of its cluster of 8: trace block 8"), std::string::npos) << r.err;
  r = run({"bench", "--backend", "sim", "-a", "warp-shuffle", "--cluster", "2", "--sizes", "2^10"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a cluster size is for cluster-dsmem"), std::string::npos) << r.err;
  r = run({"trace", "-a", "cluster-dsmem", "--backend", "sim", "--cluster", "8", "-n", "1000", "-b", "32",
           "--trace-block", "8"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"cluster\": 8"), std::string::npos);
}

TEST(Reliability, UnwritableOutputPathsAreNamed) {
  auto r = run({"render", "-a", "sequential", "--stage", "0", "--backend", "sim", "--out", "/nonexistent/dir/x.png"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("/nonexistent/dir/x.png"), std::string::npos) << r.err;
  r = run({"bench", "--backend", "sim", "-a", "sequential", "--sizes", "2^10", "--out", "/nonexistent/dir/r.json"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("/nonexistent/dir/r.json"), std::string::npos) << r.err;
}

// Found by fuzz_trace and fuzz_results: a number past double's range made the JSON library
// throw an exception the readers did not turn into their own error.
TEST(Reliability, NumbersOutOfRangeInJsonAreReportedAsBrokenFiles) {
  EXPECT_THROW(core::trace_from_json("{\"algorithm\": 1e99999}"), std::runtime_error);
  EXPECT_THROW(core::bench_from_json("{\"rows\": [2.0e960246]}"), std::runtime_error);
  try {
    core::bench_from_json("[1e400]");
    ADD_FAILURE() << "a number past double's range was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not valid JSON"), std::string::npos) << e.what();
  }
}

// Found by fuzz_results: an integer field holding 8.4e27 (or -1) was cast to int by the JSON
// library, undefined behaviour. Integer fields now must be integers within their type's range.
TEST(Reliability, IntegerFieldsOutOfRangeAreReportedByName) {
  const std::string row = R"({"algorithm": "sequential", "type": "float", "op": "sum", "n": 1024, "median_us": 5.9,
    "noise_pct": 2.0, "samples": 10, "discarded": 0, "gbps": 1.0, "pct_of_peak": 0.0, "device": "d",
    "check_ok": true, "check": "exact"})";
  const auto results = [&](const std::string& from, const std::string& to) {
    std::string r = row;
    r.replace(r.find(from), from.size(), to);
    return R"({"device": "d", "driver": "", "date": "", "backend": "sim", "peak_gbps": 0, "rows": [)" + r + "]}";
  };
  EXPECT_EQ(core::bench_from_json(results("\"n\": 1024", "\"n\": 1024")).rows.at(0).n, 1024u);
  for (const auto& [from, to, name] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"\"discarded\": 0", "\"discarded\":8457555555555555555550971448", "discarded"},
           {"\"samples\": 10", "\"samples\": -1e30", "samples"},
           {"\"samples\": 10", "\"samples\": 4294967296", "samples"},
           {"\"samples\": 10", "\"samples\": 10.5", "samples"},
           {"\"n\": 1024", "\"n\": -5", "'n'"}}) {
    try {
      core::bench_from_json(results(from, to));
      ADD_FAILURE() << to << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  backend::TraceRequest req{"sequential", core::Op::Sum, core::DType::Int, 32, 0, {1, 2, 3}};
  std::string json = core::to_json(backend::make_sim_backend()->trace(req));
  const auto at = json.find("\"block\": 32");
  ASSERT_NE(at, std::string::npos) << json.substr(0, 400);
  json.replace(at, 11, "\"block\": 1e30");
  try {
    core::trace_from_json(json);
    ADD_FAILURE() << "block 1e30 was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("block"), std::string::npos) << e.what();
  }
}

// Issue 48, items 2, 3, 4 and 7: fields a reader took that crashed, hung or lied in a view.
// Each is refused by name, at the reader, before any view draws it.
TEST(Reliability, FieldsThatCrashedHungOrLiedInAViewAreRefusedByName) {
  const auto traced = [](const std::string& algorithm, std::size_t n) {
    std::vector<double> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = double(i % 7) - 3;
    backend::TraceRequest req{algorithm, core::Op::Sum, core::DType::Int, 64, 0, in};
    return nlohmann::json::parse(core::to_json(backend::make_sim_backend()->trace(req)));
  };
  const auto refused = [](const nlohmann::json& j, const std::string& name) {
    try {
      core::trace_from_json(j.dump());
      ADD_FAILURE() << name << ": accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  };
  auto j = traced("sequential", 300);
  ASSERT_NO_THROW(core::trace_from_json(j.dump()));
  j["stages"][1]["shared"] = nlohmann::json::array();  // SIGSEGV in render::cell_texts
  refused(j, "shared");
  j = traced("sequential", 300);
  j["pass_outputs"] = {std::uint64_t(1) << 63, 5};  // SIGFPE in the grid view
  refused(j, "pass_outputs");
  j["pass_outputs"] = {5, 5};  // a launch leaves fewer results than the last
  refused(j, "pass_outputs");
  std::vector<std::size_t> launches;  // 65 launches, each one fewer: only the count is wrong
  for (std::size_t n = 0; n < 65; ++n) launches.push_back(j["grid"].get<std::size_t>() - n);
  j["pass_outputs"] = launches;
  refused(j, "more than 64 launches");
  // A load's element at 2^63 - 1: e + 1 overflowed in the check itself (UBSan, fuzz_views).
  for (const long long e : {std::numeric_limits<long long>::max(), 300LL}) {
    j = traced("sequential", 300);
    j["stages"][0]["loads"][0]["elements"][0] = e;
    refused(j, "loads");
  }
  j = traced("sequential", 300);
  j["stages"][0]["loads"][0]["elements"][0] = 299;  // the last element is one
  EXPECT_NO_THROW(core::trace_from_json(j.dump()));
  j = traced("sequential", 300);
  j["partials"] = std::vector<int>(1000, 1);  // 1,000 partials for 5 blocks
  refused(j, "partials");
  // Values no int holds: 2^64 - 1 in a cell reached format_value's cast to long long (UBSan,
  // fuzz_views); 3e9 and 2.5 were shown as int cells.
  for (const double bad : {18446744073709551615.0, 3e9, 2.5, -2147483649.0}) {
    j = traced("sequential", 300);
    j["stages"][1]["shared"][3] = bad;
    refused(j, "shared");
    j = traced("sequential", 300);
    j["result"] = bad;
    refused(j, "result");
  }
  // Names the reader maps to enums: an unknown one is refused by name, never dereferenced.
  for (const auto& [key, bad] : {std::pair{"type", "quad"}, {"op", "average"}, {"combine", "telepathy"}}) {
    j = traced("sequential", 300);
    j[key] = bad;
    refused(j, key);
  }
  j = traced("sequential", 300);
  j["stages"][1]["shared"][3] = -2147483648.0;  // the least int is one
  EXPECT_NO_THROW(core::trace_from_json(j.dump()));
  // A float trace: values a float holds, and the infinities min and max start from.
  backend::TraceRequest f{"sequential", core::Op::Min, core::DType::Float, 64, 0, std::vector<double>(100, 0.5)};
  auto fj = nlohmann::json::parse(core::to_json(backend::make_sim_backend()->trace(f)));
  fj["stages"][1]["shared"][3] = "inf";
  EXPECT_NO_THROW(core::trace_from_json(fj.dump()));
  fj["stages"][1]["shared"][3] = 0.1;  // no float is 0.1
  refused(fj, "shared");
  backend::TraceRequest m{"batched-rows", core::Op::Sum, core::DType::Int, 32, 0, std::vector<double>(3 * 40, 1.0)};
  m.rows = 3, m.cols = 40;
  auto mj = nlohmann::json::parse(core::to_json(backend::make_sim_backend()->trace(m)));
  ASSERT_NO_THROW(core::trace_from_json(mj.dump()));
  for (const double bad : {18446744073709551615.0, 2.5}) {  // 2^64 in a window cell: UBSan, fuzz_views
    auto cell = mj;
    cell["window"]["values"][1] = bad;
    refused(cell, "window values");
  }
  mj["window"]["row"] = std::numeric_limits<std::uint64_t>::max();  // row + rows wrapped: a hang
  refused(mj, "window");
  for (const char* side : {"rows", "cols"}) {  // one past the matrix, from its first row and column
    auto past = nlohmann::json::parse(core::to_json(backend::make_sim_backend()->trace(m)));
    past["window"]["row"] = 0, past["window"]["col"] = 0;
    past["window"][side] = std::string(side) == "rows" ? 4 : 41;
    // values and owned as many as the window claims: only its place in the matrix is wrong
    const std::size_t cells = past["window"]["rows"].get<std::size_t>() * past["window"]["cols"].get<std::size_t>();
    past["window"]["values"] = std::vector<int>(cells, 1);
    past["window"]["owned"] = std::vector<int>(cells, 0);
    refused(past, "window");
  }
  // A results file's figures as a run can give them; its text capped for the window and terminal.
  const std::string row = R"({"algorithm": "sequential", "type": "float", "op": "sum", "n": 1024, "median_us": 5.9,
    "noise_pct": 2.0, "samples": 10, "discarded": 0, "gbps": 1.0, "pct_of_peak": 0.0, "check_ok": true, "check": "exact"})";
  const auto results = [&](const std::string& from, const std::string& to, const std::string& date = "d") {
    std::string r = row;
    if (!from.empty()) r.replace(r.find(from), from.size(), to);
    return R"({"device": "d", "driver": "", "date": ")" + date +
           R"(", "backend": "cuda", "peak_gbps": 4800, "rows": [)" + r + "]}";
  };
  for (const auto& [from, to, name] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"\"gbps\": 1.0", "\"gbps\": -1e300", "gbps"},
           {"\"median_us\": 5.9", "\"median_us\": -2", "median_us"},
           {"\"n\": 1024", "\"n\": 0", "'n'"},
           {"\"n\": 1024", "\"n\": 18446744073709551615", "'n'"},
           {"\"samples\": 10", "\"samples\": -1", "negative count"},
           {"\"discarded\": 0", "\"discarded\": -3", "negative count"}}) {
    try {
      core::bench_from_json(results(from, to));
      ADD_FAILURE() << to << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
    }
  }
  // A peak of 1e-310 GB/s drew a line so low the chart's ticks never ended (fuzz_views): a peak
  // is 0 (none known) or at least 1 GB/s.
  for (const char* peak : {"1e-310", "0.5", "-1", "1e6"}) {
    std::string text = results("", "");
    text.replace(text.find("4800"), 4, peak);
    try {
      core::bench_from_json(text);
      ADD_FAILURE() << "a peak of " << peak << " GB/s was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("peak_gbps"), std::string::npos) << e.what();
    }
  }
  const auto long_date = core::bench_from_json(results("", "", std::string(20000, '7')));
  EXPECT_LT(long_date.date.size(), 300u) << "a 20,000-character date reaches ImGui whole";
}
