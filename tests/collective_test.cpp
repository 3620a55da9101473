// The family across GPUs as a trace (backend/collective.h, issue 52): every step's transfers and
// held values are the model's, the results every GPU's, the JSON round-trips, a file's fields are
// checked one by one, refusals in words, and the views say which of them show it.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/backend/collective.h"
#include "app/core/catalog.h"
#include "app/core/facts.h"
#include "app/core/views.h"
#include "kernels/collectives.h"
#include "test_support.h"

namespace rl {
namespace {

namespace ar = model::all_reduce;

std::vector<std::vector<double>> drawn(int gpus, std::size_t n, core::DType type, std::uint64_t seed) {
  std::vector<std::vector<double>> out;
  for (int g = 0; g < gpus; ++g) out.push_back(test::random_values(n, type, seed + std::uint64_t(g)));
  return out;
}

backend::CollectiveRequest request(const std::string& id, std::vector<std::vector<double>> inputs,
                                   core::DType type = core::DType::Int) {
  backend::CollectiveRequest r;
  r.algorithm = id, r.type = type, r.inputs = std::move(inputs);
  return r;
}

std::string refusal_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Every stage is the model's step: the inputs first, then 2(N - 1) ring steps (or one-shot's one),
// their transfers, each chunk's first values, and every GPU's result; at awkward sizes (one value,
// fewer values than GPUs, odd) and every N.
TEST(Collective, EveryStageIsTheModelsStep) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const auto& row : kernels::kCollectives)
    for (int gpus = 2; gpus <= 8; ++gpus)
      for (std::size_t n : {std::size_t(1), std::size_t(3), std::size_t(17), std::size_t(1003)}) {
        SCOPED_TRACE(std::string(row.id) + " on " + std::to_string(gpus) + " GPUs, " + std::to_string(n) + " values");
        const auto in = drawn(gpus, n, core::DType::Float, seed);
        const core::Trace t = backend::trace_collective(request(std::string(row.id), in, core::DType::Float));
        const ar::Run run = ar::run(
            row.algorithm, in, [](double x) { return double(float(x)); }, n);
        ASSERT_TRUE(t.collective);
        const core::Collective& c = *t.collective;
        ASSERT_EQ(t.stages.size(), run.steps.size() + 1);
        EXPECT_EQ(t.stages.size(), row.algorithm == ar::Algorithm::Ring ? std::size_t(2 * gpus - 1) : 2u);
        EXPECT_EQ(c.chunk_begin, run.chunk_begin);
        EXPECT_EQ(c.stages[0].held, ar::kept_values(in, run.chunk_begin, kernels::kKeptChunkValues));
        for (std::size_t k = 0; k < run.steps.size(); ++k) {
          EXPECT_EQ(t.stages[k + 1].label, run.steps[k].label);
          ASSERT_EQ(c.stages[k + 1].transfers.size(), run.steps[k].moves.size());
          for (std::size_t m = 0; m < run.steps[k].moves.size(); ++m) {
            const auto& x = c.stages[k + 1].transfers[m];
            const auto& mv = run.steps[k].moves[m];
            EXPECT_TRUE(x.from == mv.from && x.to == mv.to && x.chunk == mv.chunk && x.add == mv.add) << k << " " << m;
          }
          EXPECT_EQ(c.stages[k + 1].held,
                    ar::kept_values(run.steps[k].after, run.chunk_begin, kernels::kKeptChunkValues));
        }
        ASSERT_EQ(c.results.size(), std::size_t(gpus));
        for (int g = 0; g < gpus; ++g) EXPECT_EQ(c.results[std::size_t(g)], run.results[std::size_t(g)]);
        EXPECT_TRUE(c.agree);
        EXPECT_EQ(t.result, run.results[0][0]);
        EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);  // through a file and back
      }
}

// Each add rounds to the buffers' type: an int sum wraps at 2^32 as a GPU's does, a half sum
// rounds at every add (the order of adds, then each add rounded to half).
TEST(Collective, EachAddRoundsToTheBuffersType) {
  const core::Trace ints = backend::trace_collective(request("one-shot-all-reduce", {{2147483000.0}, {1000.0}}));
  EXPECT_EQ(ints.collective->results[0][0], 2147483000.0 + 1000.0 - 4294967296.0);
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto in = drawn(5, 11, core::DType::Half, seed);
  const core::Trace t = backend::trace_collective(request("ring-all-reduce", in, core::DType::Half));
  for (std::size_t i = 0; i < 11; ++i) {
    double sum = 0;
    bool first = true;
    for (int g : ar::order_of_adds(ar::Algorithm::Ring, 5, 11, i))
      sum = first ? in[std::size_t(g)][i] : core::round_to_type(sum + in[std::size_t(g)][i], core::DType::Half),
      first = false;
    EXPECT_EQ(t.collective->results[3][i], sum) << i;
  }
  EXPECT_EQ(t.accumulate, core::Accumulate::Same);
}

// A trace file's collective fields, each made wrong in turn, is refused naming the field.
TEST(Collective, AFilesFieldsAreCheckedOneByOne) {
  const core::Trace t = backend::trace_collective(request("ring-all-reduce", drawn(3, 7, core::DType::Int, 5)));
  const auto j = nlohmann::json::parse(core::to_json(t));
  const auto refused = [&](const std::function<void(nlohmann::json&)>& change) {
    nlohmann::json bad = j;
    change(bad);
    return refusal_of([&] { core::trace_from_json(bad.dump()); });
  };
  EXPECT_NE(refused([](auto& x) { x["gpus"] = 9; }).find("'gpus'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["chunk_begin"] = {0, 3, 8}; }).find("'chunk_begin'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["chunk_begin"] = {0, 5, 3, 7}; }).find("'chunk_begin'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["kept"] = 0; }).find("'kept'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["stages"][1]["transfers"][0]["to"] = 3; }).find("'transfers'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["stages"][1]["transfers"][0]["to"] = 0; }).find("'transfers'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["stages"][1]["transfers"][0]["chunk"] = -1; }).find("'transfers'"),
            std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["stages"][2]["held"][1].push_back(4); }).find("'held'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["stages"][2]["held"][1][0] = 0.5; }).find("'held'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["stages"][2].erase("held"); }).find("'held'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["gpu_results"].erase(0); }).find("'gpu_results'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["gpu_results"][0][0] = 3e9; }).find("'gpu_results'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["block"] = 32; }).find("no block"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["size"] = 8; }).find("'chunk_begin'"), std::string::npos);
  EXPECT_NE(refused([](auto& x) { x["stages"][1]["file"] = "kernels/elsewhere.cuh"; }).find("'file'"),
            std::string::npos);
  nlohmann::json deep = j;  // more GPUs' lists than any all-reduce has
  for (int g = 0; g < 9; ++g) deep["gpu_results"].push_back(deep["gpu_results"][0]);
  EXPECT_NE(refusal_of([&] { core::trace_from_json(deep.dump()); }).find("'gpu_results'"), std::string::npos);
}

TEST(Collective, RefusesWhatItCannotRunInWords) {
  const auto said = [](backend::CollectiveRequest r) { return refusal_of([&] { backend::trace_collective(r); }); };
  EXPECT_NE(said(request("ring-all-reduce", drawn(1, 4, core::DType::Int, 1))).find("2 to 8 GPUs, not 1"),
            std::string::npos);
  EXPECT_NE(said(request("ring-all-reduce", drawn(9, 4, core::DType::Int, 1))).find("not 9"), std::string::npos);
  auto max = request("one-shot-all-reduce", drawn(2, 4, core::DType::Int, 1));
  max.op = core::Op::Max;
  EXPECT_NE(said(max).find("sum only"), std::string::npos);
  auto half = request("ring-all-reduce", drawn(2, 4, core::DType::Half, 1), core::DType::Half);
  half.accumulate = core::Accumulate::Float;
  EXPECT_NE(said(half).find("--accumulate same"), std::string::npos);
  EXPECT_NE(said(request("ring-all-reduce", {{}, {}})).find("1 to 2^20"), std::string::npos);
  EXPECT_NE(said(request("ring-all-reduce", {{1, 2}, {3}})).find("different sizes"), std::string::npos);
  EXPECT_NE(said(request("sequential", drawn(2, 4, core::DType::Int, 1))).find("not an all-reduce"), std::string::npos);
}

// The gpus view shows a collective alone; every other view says why it has nothing of one.
TEST(Collective, TheViewsSayWhichShowIt) {
  const core::Trace t = backend::trace_collective(request("ring-all-reduce", drawn(2, 4, core::DType::Int, 1)));
  for (const auto& row : core::kViewRows)
    EXPECT_EQ(core::why_not(row.view, t).empty(), row.view == core::View::Gpus) << row.name;
  EXPECT_EQ(core::next_view(core::View::Memory, &t), core::View::Gpus);
  core::Trace one_gpu;
  one_gpu.stages.resize(1);
  EXPECT_NE(core::why_not(core::View::Gpus, one_gpu).find("inside one GPU"), std::string::npos);
}

// The ring and the one-shot on an input with cancellation (1e8, -1e8 and 1 in float on three GPUs):
// the ring starts chunk c at GPU c + 1, so its first two elements lose the 1 that the one-shot's
// order (0, 1, 2) keeps; ints give the same bits whatever the order.
TEST(Collective, TheTwoOrdersOfAddsGiveOtherBitsOnCancellation) {
  auto r = request("ring-all-reduce", {{1e8, 1e8, 1e8}, {-1e8, -1e8, -1e8}, {1, 1, 1}}, core::DType::Float);
  const backend::OrderDifference d = backend::compare_orders(r);
  EXPECT_EQ(d.elements, 3u);
  EXPECT_EQ(d.differing, 2u);
  EXPECT_EQ(d.first, 0u);
  EXPECT_EQ(d.ring, 0.0);
  EXPECT_EQ(d.one_shot, 1.0);
  EXPECT_EQ(backend::compare_orders(request("one-shot-all-reduce", drawn(5, 1003, core::DType::Int, 7))).differing, 0u);
}

// Each row has its lesson, whose Look names a stage that the model's run at the default GPUs has.
TEST(Collective, EachLessonLooksAtAStageTheRunHas) {
  for (const auto& row : kernels::kCollectives) {
    const core::AlgorithmInfo* info = core::find_collective(row.id);
    ASSERT_TRUE(info) << row.id;
    EXPECT_EQ(info->family, "across GPUs");
    EXPECT_GT(info->lesson.size(), 40u) << "kernels/lessons/" << row.id << ".md";
    EXPECT_GT(info->detail.size(), 100u) << row.id;
    ASSERT_TRUE(info->look) << row.id;
    EXPECT_EQ(info->look->view, "gpus");
    const auto t =
        backend::trace_collective(request(std::string(row.id), drawn(kernels::kModelGpus, 16, core::DType::Int, 2)));
    EXPECT_GE(core::pointed_stage(t, *info->look), 0) << row.id;
  }
}

}  // namespace
}  // namespace rl
