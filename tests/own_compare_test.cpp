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
