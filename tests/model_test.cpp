// The CPU model against stages derived by hand, and its results against a double reference.
#include <gtest/gtest.h>

#include <limits>

#include "app/backend/backend.h"
#include "app/core/catalog.h"
#include "app/core/facts.h"
#include "app/core/input.h"
#include "test_support.h"

using namespace rl;

namespace {

core::Trace model_trace(const std::string& algo, std::vector<double> input, int block = 32,
                        core::Op op = core::Op::Sum, core::DType type = core::DType::Int, int trace_block = 0) {
  backend::TraceRequest req{algo, op, type, block, trace_block, std::move(input)};
  return backend::make_sim_backend()->trace(req);
}

std::vector<double> iota(std::size_t n) {
  return core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, n, core::DType::Int);
}

std::vector<int> range(int first, int last, int step = 1) {
  std::vector<int> v;
  for (int i = first; i < last; i += step) v.push_back(i);
  return v;
}

}  // namespace

TEST(Model, SequentialIotaStagesByHand) {
  const auto t = model_trace("sequential", iota(32));
  ASSERT_EQ(t.stages.size(), 6u);  // load + strides 16, 8, 4, 2, 1
  EXPECT_EQ(t.result, 528);
  EXPECT_EQ(t.stages[0].label, "load into shared memory");
  EXPECT_EQ(t.stages[0].active, range(0, 32));
  for (int i = 0; i < 32; ++i) EXPECT_EQ((*t.stages[0].shared)[i], i + 1);
  // Stride 16: thread t < 16 adds cell t+16: (t+1) + (t+17).
  EXPECT_EQ(t.stages[1].label, "stride 16");
  EXPECT_EQ(t.stages[1].active, range(0, 16));
  for (int i = 0; i < 16; ++i) EXPECT_EQ((*t.stages[1].shared)[i], 2 * i + 18);
  for (int i = 16; i < 32; ++i) EXPECT_EQ((*t.stages[1].shared)[i], i + 1);
  EXPECT_EQ(t.stages[1].accesses[3], (core::Access{3, {3, 19}, {3}}));
  EXPECT_EQ(t.stages[5].label, "stride 1");
  EXPECT_EQ(t.stages[5].active, std::vector<int>{0});
  EXPECT_EQ((*t.stages[5].shared)[0], 528);
}

TEST(Model, InterleavedDivergentStagesByHand) {
  const auto t = model_trace("interleaved-divergent", iota(32));
  ASSERT_EQ(t.stages.size(), 6u);
  EXPECT_EQ(t.stages[1].label, "stride 1");
  EXPECT_EQ(t.stages[1].active, range(0, 32, 2));  // every even thread: divergent
  for (int i = 0; i < 32; i += 2) EXPECT_EQ((*t.stages[1].shared)[i], 2 * i + 3);
  for (int i = 1; i < 32; i += 2) EXPECT_EQ((*t.stages[1].shared)[i], i + 1);
  EXPECT_EQ(t.stages[2].active, range(0, 32, 4));
  EXPECT_EQ(t.stages[2].accesses[1], (core::Access{4, {4, 6}, {4}}));
  EXPECT_EQ(core::divergent_warps(t.stages[1], 32), 1);
  EXPECT_EQ(t.stages[5].label, "stride 16");
  EXPECT_EQ(t.result, 528);
}

TEST(Model, InterleavedBankConflictsStagesByHand) {
  const auto t = model_trace("interleaved-bank-conflicts", iota(64), 64);
  ASSERT_EQ(t.stages.size(), 7u);
  // Same cells as the divergent version, but done by threads 0..31 with index 2*s*t.
  EXPECT_EQ(t.stages[1].active, range(0, 32));
  EXPECT_EQ(t.stages[1].accesses[5], (core::Access{5, {10, 11}, {10}}));
  for (int i = 0; i < 64; i += 2) EXPECT_EQ((*t.stages[1].shared)[i], 2 * i + 3);
  EXPECT_EQ(t.stages[2].active, range(0, 16));
  EXPECT_EQ(t.stages[2].accesses[3], (core::Access{3, {12, 14}, {12}}));
  EXPECT_EQ(core::divergent_warps(t.stages[1], 64), 0);  // warp 0 all busy, warp 1 all idle
  EXPECT_EQ(t.result, 64 * 65 / 2);
}

TEST(Model, TraceLinesPointAtTheTaggedSourceLines) {
  for (const auto& id : core::algorithm_ids()) {
    const auto& src = core::source_of(id);
    const auto t = model_trace(id, iota(64), 32);
    ASSERT_FALSE(t.stages.empty());
    const auto line_text = [&](int line) { return src.lines.at(line - src.first_line); };
    EXPECT_NE(line_text(t.stages[0].line).find("// [load]"), std::string::npos) << id;
    for (std::size_t k = 1; k < t.stages.size(); ++k)
      EXPECT_NE(line_text(t.stages[k].line).find("// [step]"), std::string::npos) << id;
    EXPECT_NE(src.lines.front().find("template"), std::string::npos) << id;
    EXPECT_EQ(t.source, "kernels/tree.cuh");
  }
}

TEST(Model, TailBlockIsPaddedWithTheIdentity) {
  const auto input = iota(40);
  auto t = model_trace("sequential", input, 32, core::Op::Sum, core::DType::Int, 1);
  EXPECT_EQ(t.input, std::vector<double>(input.begin() + 32, input.end()));
  for (int i = 8; i < 32; ++i) EXPECT_EQ((*t.stages[0].shared)[i], 0);
  EXPECT_EQ(t.result, 820);
  t = model_trace("sequential", input, 32, core::Op::Min, core::DType::Int, 1);
  EXPECT_EQ((*t.stages[0].shared)[20], std::numeric_limits<int>::max());
  EXPECT_EQ(t.result, 1);
  t = model_trace("sequential", input, 32, core::Op::Max, core::DType::Float, 1);
  EXPECT_EQ((*t.stages[0].shared)[20], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(t.result, 40);
}

TEST(Model, ResultsMatchDoubleReferenceOnRandomInputs) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& id : core::algorithm_ids())
    for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(33), std::size_t(1000), std::size_t(4099), (std::size_t(1) << 17) + 3})
      for (int block : {32, 128, 1024})
        for (auto type : {core::DType::Int, core::DType::Float})
          for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
            const auto input = test::random_values(n, type, seed + n + block);
            const auto t = model_trace(id, input, block, op, type);
            const double ref = test::reference(op, input);
            SCOPED_TRACE(id + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " " +
                         core::to_string(op) + " " + core::to_string(type));
            if (type == core::DType::Int || op != core::Op::Sum) EXPECT_EQ(t.result, ref);
            else EXPECT_NEAR(t.result, ref, 2e-6 * test::abs_sum(input));
          }
}

TEST(Model, IntSumsWrapLikeTheGpu) {
  const std::vector<double> big(4, 2147483647.0);
  const auto t = model_trace("sequential", big, 32);
  EXPECT_EQ(t.result, -4);  // 4 * (2^31 - 1) mod 2^32, as a signed int
}

TEST(Model, ImpossibleRequestsNameTheProblem) {
  const auto expect_msg = [](auto fn, const std::string& part) {
    try {
      fn();
      ADD_FAILURE() << "no exception, expected one mentioning " << part;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expect_msg([] { model_trace("sequential", {}, 32); }, "size must be at least 1");
  expect_msg([] { model_trace("sequential", iota(8), 48); }, "power of two");
  expect_msg([] { model_trace("sequential", iota(8), 2048); }, "32 to 1024");
  expect_msg([] { model_trace("sequential", iota(8), 16); }, "power of two");
  expect_msg([] { model_trace("sequential", iota(40), 32, core::Op::Sum, core::DType::Int, 2); }, "outside the grid");
  expect_msg([] { model_trace("nope", iota(8), 32); }, "unknown algorithm");
}
