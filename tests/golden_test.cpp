// The CPU model against what GPUs really did: every golden trace (recorded on a GPU by
// scripts/gpu-suite.sh golden) replayed on the model, bit for bit, on every CI run.
#include <gtest/gtest.h>

#include <set>

#include "app/backend/backend.h"
#include "golden.h"
#include "kernels/matrix_shapes.h"
#include "trace_compare.h"

using namespace rl;

TEST(Golden, TheModelReplaysEveryGpuRecordingBitForBit) {
  auto model = backend::make_sim_backend();
  for (const auto& c : test::golden_cases()) {
    SCOPED_TRACE(c.name);
    test::GoldenFile file;
    ASSERT_NO_THROW(file = test::read_golden(c));
    const core::Trace& g = file.trace;
    EXPECT_NE(file.device.find("NVIDIA"), std::string::npos) << file.device;
    ASSERT_EQ(g.algorithm, c.algorithm);
    ASSERT_EQ(g.size, c.n);
    ASSERT_EQ(g.block, c.block);
    ASSERT_EQ(g.type, c.type);
    ASSERT_EQ(g.op, c.op);
    const auto req = test::golden_request(c, g.trace_block, g.grid, g.tickets);
    const core::Trace m = model->trace(req);
    test::expect_identical(test::with_words_of(g, m), m, !test::atomic_float_sum(c.algorithm, c.type, c.op), test::sum_tolerance(c.type, req.input));
  }
}

// What the recordings must hold to be worth replaying: last blocks that are partly filled, and
// work-queue tickets taken in an order the model's own round-robin would not give.
TEST(Golden, RecordingsHoldPartialLastBlocksAndOutOfOrderTickets) {
  int partial_last = 0;
  for (const auto& c : test::golden_cases()) {
    const auto file = test::read_golden(c);
    const core::Trace& g = file.trace;
    const bool last = std::size_t(g.trace_block) + 1 == g.grid;
    if (last && g.grid > 1 && c.n % std::size_t(c.block) != 0) ++partial_last;
    if (c.algorithm != "work-queue") continue;
    SCOPED_TRACE(c.name);
    ASSERT_GT(g.tickets.size(), g.grid) << "no ticket beyond the first wave: none taken from the counter";
    int off_round_robin = 0;
    std::set<int> takers;
    for (std::size_t i = g.grid; i < g.tickets.size(); ++i) {
      off_round_robin += std::size_t(g.tickets[i]) != i % g.grid;
      takers.insert(g.tickets[i]);
    }
    EXPECT_GE(off_round_robin, 8);
    EXPECT_GT(takers.size(), 1u);
  }
  EXPECT_GE(partial_last, 8);
}
