// Work, depth and cost counted from CPU-model traces, and Harris' quoted G80 speedups.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "app/backend/backend.h"
#include "app/core/bench.h"
#include "app/core/catalog.h"
#include "app/backend/geometry.h"
#include "app/core/work.h"
#include "kernels/stage_tags.h"
#include "test_support.h"

using namespace rl;

namespace {

core::Trace traced(const std::string& algo, std::size_t n, int block, std::uint64_t seed, int trace_block = 0,
                   core::DType type = core::DType::Int) {
  if (!backend::type_refusal(algo, type, core::Op::Sum).empty()) type = test::types_of(algo).front();  // compensated
  backend::TraceRequest req{algo, core::Op::Sum, type, block, trace_block, test::random_values(n, type, seed)};
  return backend::make_sim_backend()->trace(req);
}

// The first block, and the last when there are several (a partial block past the end of n).
std::vector<core::Trace> first_and_last(const std::string& algo, std::size_t n, int block, std::uint64_t seed,
                                        core::DType type = core::DType::Int) {
  std::vector<core::Trace> out{traced(algo, n, block, seed, 0, type)};
  if (out[0].grid > 1) out.push_back(traced(algo, n, block, seed, int(out[0].grid) - 1, type));
  return out;
}

std::size_t adds_of(const core::Work& w, std::initializer_list<int> tags) {
  std::size_t n = 0;
  for (const auto& s : w.stages)
    for (int tag : tags) n += s.tag == tag ? s.additions : 0;
  return n;
}

int ceil_log2(int x) {
  int k = 0;
  while ((1 << k) < x) ++k;
  return k;
}

struct Shape {
  std::size_t n;
  int block;
};
// Sizes 1, odd, not a power of two, a whole block, and the largest block.
const Shape kShapes[] = {{1, 32}, {777, 64}, {1000, 128}, {256, 256}, {5000, 1024}};

}  // namespace

TEST(Work, TreeStepsAddBMinusOneTimes) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const char* id : {"sequential", "interleaved-divergent", "interleaved-bank-conflicts", "non-pow2-block",
                         "threadfence-single-pass", "missing-syncthreads"})
    for (const Shape& sh : kShapes)
      for (const auto& t : first_and_last(id, sh.n, sh.block, seed)) {
        SCOPED_TRACE(std::string(id) + " n=" + std::to_string(sh.n) + " block " + std::to_string(t.trace_block));
        const core::Work w = core::work_of(t);
        EXPECT_EQ(adds_of(w, {kernels::kTagStep}), std::size_t(sh.block - 1));  // B/2 + B/4 + ... + 1
        EXPECT_EQ(w.additions, std::size_t(sh.block - 1));  // a plain load adds nothing
        EXPECT_TRUE(w.exact);
        EXPECT_EQ(w.ideal_additions, std::size_t(sh.block - 1));
        EXPECT_EQ(w.ideal_depth, ceil_log2(sh.block));
        EXPECT_EQ(w.adding_stages, ceil_log2(sh.block));  // every step adds; the load does not
      }
}

TEST(Work, NonPowerOfTwoBlocksStillAddBMinusOneTimes) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (int block : {2, 3, 77, 100, 1000})
    for (std::size_t n : {std::size_t(1), std::size_t(block), std::size_t(3 * block + 5)}) {
      SCOPED_TRACE("block " + std::to_string(block) + " n=" + std::to_string(n));
      const core::Work w = core::work_of(traced("non-pow2-block", n, block, seed));
      EXPECT_EQ(w.additions, std::size_t(block - 1));
      EXPECT_EQ(w.ideal_depth, ceil_log2(block));
    }
}

TEST(Work, NaiveSerialAddsEachCellAfterTheFirst) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const Shape& sh : kShapes) {
    const core::Work w = core::work_of(traced("naive-serial", sh.n, sh.block, seed));
    EXPECT_EQ(adds_of(w, {kernels::kTagSerial}), std::size_t(sh.block - 1)) << "block " << sh.block;
    EXPECT_EQ(w.depth, 2);  // the load, then one serial stage
  }
}

TEST(Work, AddOnLoadAddsOnceAThreadThenTheTree) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const Shape& sh : kShapes)
    for (const auto& t : first_and_last("first-add-on-load", sh.n, sh.block, seed)) {
      const core::Work w = core::work_of(t);
      EXPECT_EQ(adds_of(w, {kernels::kTagLoadAdd}), std::size_t(sh.block));
      EXPECT_EQ(w.additions, std::size_t(2 * sh.block - 1)) << "block " << sh.block;  // 2B values to one
    }
}

TEST(Work, LastWarpStepsAddInAll32Threads) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const char* id : {"unroll-last-warp", "complete-unroll", "legacy-warp-synchronous"})
    for (int block : {64, 256, 1024}) {
      SCOPED_TRACE(std::string(id) + " block " + std::to_string(block));
      const core::Work w = core::work_of(traced(id, 3000, block, seed));
      EXPECT_EQ(adds_of(w, {kernels::kTagWarpStep}), 6u * 32);  // strides 32..1, every thread of warp 0
      EXPECT_GT(adds_of(w, {kernels::kTagStep, kernels::kTagWarpStep}), std::size_t(block - 1));
    }
}

TEST(Work, ShufflesAddInEveryLaneMoreThanNeeded) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const Shape& sh : kShapes) {
    SCOPED_TRACE("block " + std::to_string(sh.block));
    const core::Work w = core::work_of(traced("warp-shuffle", sh.n, sh.block, seed));
    const std::size_t shuffles = adds_of(w, {kernels::kTagShuffle, kernels::kTagFinalShuffle});
    EXPECT_EQ(shuffles, 5u * std::size_t(sh.block) + 5u * 32);  // 5 steps in every lane, then warp 0's 5
    EXPECT_GT(shuffles, std::size_t(sh.block - 1));
    EXPECT_EQ(w.additions, shuffles);  // loads and stores add nothing
    EXPECT_TRUE(w.exact);
  }
}

TEST(Work, DepthEfficiencyAndTotalsHoldForEveryAlgorithm) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& id : core::array_ids())
    for (const Shape& sh : kShapes) {
      if (id == "non-pow2-block" || sh.n > 1000) continue;  // covered above; keeps global-halving small
      SCOPED_TRACE(id + " n=" + std::to_string(sh.n) + " block=" + std::to_string(sh.block));
      const core::Trace t = traced(id, sh.n, sh.block, seed);
      const core::Work w = core::work_of(t);
      EXPECT_EQ(w.depth, int(t.stages.size()));
      ASSERT_EQ(w.stages.size(), t.stages.size());
      std::size_t sum = 0, busy = 0;
      for (std::size_t k = 0; k < t.stages.size(); ++k) {
        sum += w.stages[k].additions;
        busy += t.stages[k].active.size();
        EXPECT_EQ(w.stages[k].active, int(t.stages[k].active.size()));
        EXPECT_FALSE(w.stages[k].counted.empty());
      }
      EXPECT_EQ(w.additions, sum);
      EXPECT_EQ(w.busy, busy);
      EXPECT_EQ(w.available, std::size_t(w.threads) * t.stages.size());
      EXPECT_GT(w.efficiency, 0);
      EXPECT_LE(w.efficiency, 1);
      EXPECT_EQ(w.elements, t.input.size());
      EXPECT_TRUE(!w.exact || w.additions >= w.ideal_additions);  // no reduction beats the fewest
    }
}

TEST(Work, GlobalHalvingMergesTheArrayIntoOne) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : {1, 2, 7, 100, 513}) {
    const core::Work w = core::work_of(traced("global-halving", n, 32, seed));
    EXPECT_EQ(w.threads, int(n));
    EXPECT_EQ(w.additions, n - 1) << n;  // each launch's addition removes one value
    EXPECT_EQ(w.ideal_depth, ceil_log2(int(n)));
    EXPECT_EQ(w.depth, 1 + ceil_log2(int(n)));  // the input, then one launch a halving
  }
}

// The fold counts restate the kernels' indexing: their elements must be the ones the trace
// says the block read (kernels::traced_elements, written separately).
TEST(Work, FoldsCoverExactlyTheElementsTheBlockRead) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const char* id : {"multiple-per-thread", "cg-two-phase", "cg-reduce-update-async", "cg-grid-sync",
                         "warp-shuffle-vectorized", "work-queue"})
    for (core::DType type : {core::DType::Int, core::DType::Double})
      for (const Shape& sh : {Shape{1, 32}, Shape{777, 64}, Shape{1000, 128}, Shape{20003, 32}, Shape{70001, 256}})
        for (const auto& t : first_and_last(id, sh.n, sh.block, seed, type)) {
          SCOPED_TRACE(std::string(id) + " " + core::to_string(type) + " n=" + std::to_string(sh.n) + " block " +
                       std::to_string(t.trace_block));
          const auto& folds = t.geometry.folds;
          ASSERT_EQ(folds.size(), std::size_t(sh.block));
          std::size_t elements = 0, adds = 0;
          for (const auto& f : folds) elements += f.elements, adds += f.additions;
          EXPECT_EQ(elements, t.input.size());
          const core::Work w = core::work_of(t);
          EXPECT_EQ(adds_of(w, {kernels::kTagGridStride, kernels::kTagVectorLoad}), adds);
          EXPECT_TRUE(w.stages[0].exact);
        }
}

TEST(Work, GridStrideAddsElementsLessOneAThread) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const core::Trace t = traced("cg-two-phase", 100000, 128, seed);
  ASSERT_GE(t.input.size(), 128u);  // every thread reads at least one element
  const core::Work w = core::work_of(t);
  EXPECT_EQ(w.stages[0].additions, t.input.size() - 128);
}

TEST(Work, TileReductionsAreLowerBounds) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const core::Work w = core::work_of(traced("cg-block", 1000, 256, seed));
  EXPECT_FALSE(w.exact);
  EXPECT_EQ(adds_of(w, {kernels::kTagTileReduce}), 8u * 31);  // 8 tiles, each 32 lanes to one
  EXPECT_EQ(adds_of(w, {kernels::kTagFinalReduce}), 31u);
  const core::Work warp = core::work_of(traced("cg-warp", 1000, 256, seed));
  EXPECT_EQ(warp.results, 8);  // one partial a warp
  EXPECT_EQ(warp.ideal_additions, 256u - 8);
  EXPECT_EQ(warp.ideal_depth, 5);
}

TEST(Work, WorkQueueWithoutItsTicketsGivesALowerBound) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  core::Trace t = traced("work-queue", 70001, 64, seed, 1);
  const std::size_t exact = core::work_of(t).stages[0].additions;
  t.tickets.pop_back();  // a record cut short: the backend can give no thread's fold
  t.geometry = backend::geometry(kernels::recorded_plan(kernels::Algo::WorkQueue, {1, t.size}, t.block, t.grid,
                                                        t.trace_block, core::element_bytes(t.type)),
                                 t.tickets);
  EXPECT_TRUE(t.geometry.folds.empty());
  const core::Work w = core::work_of(t);
  EXPECT_FALSE(w.stages[0].exact);
  EXPECT_LE(w.stages[0].additions, exact);
  EXPECT_EQ(w.stages[0].additions, t.input.size() - 64);
}

namespace {

core::BenchReport harris_report(const std::vector<std::string>& ids) {
  core::BenchReport r;
  double us = 1000;
  for (const auto& id : ids) {
    core::BenchRow row;
    row.algorithm = id, row.type = "int", row.op = "sum", row.n = 1 << 22, row.median_us = us, row.block = 256;
    r.rows.push_back(row);
    us /= 2;
  }
  return r;
}

}  // namespace

TEST(HarrisG80, QuotedBesideTheMeasuredStepOverTheSameKernel) {
  const auto& harris = core::harris_kernels();
  ASSERT_EQ(harris.size(), std::size(core::kHarrisG80Step) + 1);
  std::vector<std::string> ids(harris.begin(), harris.end());
  ids.push_back("cub");
  const auto t = core::harris_table(harris_report(ids), 1 << 22, "int", "sum");
  ASSERT_EQ(t.size(), 8u);
  EXPECT_TRUE(std::isnan(t[0].g80_step));  // kernel 1 has no step
  for (std::size_t k = 1; k < 7; ++k) {
    EXPECT_DOUBLE_EQ(t[k].g80_step, core::kHarrisG80Step[k - 1]) << t[k].algorithm;
    EXPECT_DOUBLE_EQ(t[k].step_speedup, 2);
  }
  EXPECT_TRUE(std::isnan(t[7].g80_step));  // cub: not one of Harris' kernels
  // Without kernel 3, kernel 4's measured step is over kernel 2: Harris' 4-over-3 is not shown.
  ids.erase(ids.begin() + 2);
  const auto gap = core::harris_table(harris_report(ids), 1 << 22, "int", "sum");
  EXPECT_EQ(gap[2].algorithm, harris[3]);
  EXPECT_TRUE(std::isnan(gap[2].g80_step));
  EXPECT_DOUBLE_EQ(gap[3].g80_step, core::kHarrisG80Step[3]);
}

// The matrix family: a block that reduces one row adds every element but one; column sums
// leave one value a column, so their block adds elements less its columns.
TEST(Work, MatrixBlocksAddTheirElementsLessTheirResults) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto matrix = [&](const std::string& id, std::size_t rows, std::size_t cols, int block, int traced) {
    backend::TraceRequest req{id, core::Op::Sum, core::DType::Int, block, traced, test::random_values(rows * cols, core::DType::Int, seed)};
    req.rows = rows, req.cols = cols;
    return core::work_of(backend::make_sim_backend()->trace(req));
  };
  const auto rows = matrix("batched-rows", 3, 70, 32, 1);
  EXPECT_EQ(rows.additions, 69u);  // 6 threads fold 3, 26 fold 2: 38; the tree 31
  EXPECT_EQ(rows.results, 1);
  EXPECT_TRUE(rows.exact);
  const auto naive = matrix("column-sums-naive", 5, 40, 32, 1);  // columns 32..39
  EXPECT_EQ(naive.results, 8);
  EXPECT_EQ(naive.additions, 8u * 4);
  const auto cols = matrix("column-sums", 5, 40, 64, 1);  // 8 columns, rows 0-1: one step of 32 threads
  EXPECT_EQ(cols.results, 8);
  EXPECT_EQ(cols.additions, 32u);
  EXPECT_EQ(cols.ideal_additions, 8u);  // 8 columns' 2 rows held: 16 values into 8
  // 40 x 30 in blocks of 8 x 4, 4 columns a thread: one row each, so the loads add nothing; the
  // tree's 2 steps add 4 cells in 16 then 8 threads (96), columns 30 and 31 padding. The 120
  // elements of 30 columns need 90.
  const auto vec = matrix("column-sums-vectorized", 40, 30, 32, 0);
  EXPECT_EQ(vec.elements, 120u);
  EXPECT_EQ(vec.results, 30);
  EXPECT_EQ(vec.additions, 96u);
  EXPECT_EQ(vec.ideal_additions, 90u);
  EXPECT_EQ(vec.ideal_depth, 2);
  const auto whole = matrix("block-2d", 7, 33, 64, 0);
  EXPECT_EQ(whole.results, 1);
  EXPECT_EQ(whole.additions, whole.elements - 1 + (64 - std::min<std::size_t>(whole.elements, 64)));  // padding adds too

  core::Trace columns, tiles;  // the work pane's words for them: a column sum is no tile
  columns.rows = 5;
  EXPECT_EQ(core::results_text(columns, cols), "8 values (one a column)");
  EXPECT_EQ(core::results_text(tiles, cols), "8 values (one a tile)");
  EXPECT_EQ(core::results_text(columns, whole), "1 value");
}
