// GPU = CPU: two traces of a kernel of your own compared bit for bit, the first difference named.
// Here both traces come from the CPU path (the GPU suite compares real GPU runs), one altered.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "app/core/embedded.h"
#include "app/own/own_compare.h"
#include "app/own/own_trace.h"
#include "own_support.h"
#include "test_support.h"

namespace rl {
namespace {

core::Trace starter_trace(const char* file, std::size_t n, std::uint64_t seed) {
  const auto values = test::random_values(n, core::DType::Float, seed);
  own::OwnRequest r = own::own_request(std::string(embedded::own_file(file)), std::string(file) + ".cu",
                                       core::DType::Float, values, 128, 1);
  return own::trace_own(r, false, core::Op::Sum, 0);
}

TEST(OwnCompare, EqualTracesAgreeAndEveryDifferenceIsNamed) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const core::Trace g = starter_trace("reduce3", 1000, seed);
  ASSERT_GE(g.stages.size(), 4u);
  const own::Agreement same = own::agreement(g, g);
  EXPECT_TRUE(same.compared && same.equal) << same.text;
  EXPECT_EQ(same.text, "GPU = CPU, bit for bit: " + std::to_string(g.stages.size()) + " stages, " +
                           std::to_string(g.stages.size() * 128) + " recorded cells, " +
                           std::to_string(g.partials.size()) + " block results and the value");

  core::Trace c = g;
  auto& cell = (*c.stages[2].shared)[17];
  cell = -cell + 1;
  own::Agreement d = own::agreement(g, c);
  EXPECT_TRUE(d.compared && !d.equal);
  EXPECT_EQ(d.stage, 2);
  EXPECT_EQ(d.cell, 17);
  EXPECT_EQ(d.text.rfind("GPU and CPU differ from stage 3 (" + g.stages[2].label + "): shared[17] is ", 0), 0u)
      << d.text;

  c = g, (*c.stages[0].shared)[0] = 0.0, (*c.stages[0].shared)[0] *= -1;  // -0: equal as a value, not as bits
  auto z = g;
  (*z.stages[0].shared)[0] = 0.0;
  EXPECT_EQ(own::agreement(z, c).cell, 0);

  c = g, c.stages[1].line += 1;
  d = own::agreement(g, c);
  EXPECT_EQ(d.stage, 1);
  EXPECT_EQ(d.cell, -1);
  c = g, c.stages.pop_back();
  EXPECT_NE(own::agreement(g, c).text.find("the GPU recorded " + std::to_string(g.stages.size()) + " stages"),
            std::string::npos);
  c = g, c.partials[1] += 1;
  d = own::agreement(g, c);
  EXPECT_EQ(d.stage, -1);
  EXPECT_EQ(d.cell, 1);
  c = g, c.result += 1;
  EXPECT_EQ(own::agreement(g, c).text.rfind("GPU and CPU differ in the value: ", 0), 0u);
  c = g, c.result = std::nan(""), c.findings.push_back({"race", "block 0: ...", 12});
  d = own::agreement(g, c);
  EXPECT_FALSE(d.compared);
  EXPECT_EQ(d.text.rfind("Not compared: ", 0), 0u);
}

// rl_lanes' registers are compared as the shared memory is.
TEST(OwnCompare, LaneValuesAreComparedToo) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const core::Trace g = starter_trace("warp-shuffle", 1000, seed);
  std::size_t k = 0;
  while (k < g.stages.size() && !g.stages[k].lanes) ++k;
  ASSERT_LT(k, g.stages.size());
  core::Trace c = g;
  (*c.stages[k].lanes)[5] += 1;
  const own::Agreement d = own::agreement(g, c);
  EXPECT_EQ(d.stage, int(k));
  EXPECT_EQ(d.cell, 5);
  EXPECT_NE(d.text.find("lane[5] is "), std::string::npos) << d.text;
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

// A race seen in the snapshots: reduce2 without its loop's barrier, run with warps in turn and
// then interleaved at random, differs, and the finding names where; a race-free starter's two
// schedules agree bit for bit (no finding), at several seeds.
TEST(OwnSchedule, TwoSchedulesOfARacyKernelDifferWhereTheRaceLands) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::string racy(embedded::own_file("reduce2"));
  racy.replace(racy.rfind("__syncthreads();"), 16, "");
  const auto values = test::random_values(1000, core::DType::Int, seed);
  const own::OwnRequest r = own::own_request(racy, "racy.cu", core::DType::Int, values, 128, 0);
  const core::Trace t = own::trace_own(r, false, core::Op::Sum, seed % 1000 + 1);
  const auto kind = [&](const char* k) {
    const auto f =
        std::find_if(t.findings.begin(), t.findings.end(), [&](const core::Finding& x) { return x.kind == k; });
    return f == t.findings.end() ? std::string() : f->text;
  };
  EXPECT_NE(kind("race").find("with no barrier between them"), std::string::npos) << kind("race");
  const std::string s = kind("schedule");
  EXPECT_EQ(s.rfind("Warps in turn and warps interleaved at random differ ", 0), 0u) << s;
  EXPECT_NE(s.find(" with warps in turn and "), std::string::npos) << s;
  EXPECT_NE(s.find("interleaved at random with seed " + std::to_string(seed % 1000 + 1)), std::string::npos) << s;
  EXPECT_FALSE(std::isnan(t.result));  // the race is reported, the run goes on

  for (const char* file : {"reduce2", "reduce4", "reduce6", "warp-shuffle"})
    for (std::uint64_t k = 1; k <= 3; ++k) {
      const own::OwnRequest ok =
          own::own_request(std::string(embedded::own_file(file)), "ok.cu", core::DType::Float, values, 128, 1);
      const core::Trace in_turn = own::trace_own(ok, false, core::Op::Sum, 0);
      EXPECT_FALSE(own::schedule_finding(ok, core::Op::Sum, in_turn, seed + k)) << file << " schedule " << seed + k;
    }
}

}  // namespace
}  // namespace rl
