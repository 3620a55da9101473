// The all-reduce across GPUs' CPU model (kernels/model/all_reduce.h, issue 52): the ring's steps
// worked by hand for 2, 3 and 4 GPUs, its order of adds against the sums it leaves, the bits every
// GPU ends with, ring against one-shot on an input with cancellation, and the refusals.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/model/all_reduce.h"
#include "test_support.h"

namespace rl {
namespace {

using model::all_reduce::Algorithm;
using model::all_reduce::Move;

double as_float(double x) { return double(float(x)); }
double exact(double x) { return x; }

bool same(const Move& a, const Move& b) {
  return a.from == b.from && a.to == b.to && a.chunk == b.chunk && a.add == b.add;
}

// Three GPUs, one value a chunk: step by step as the ring passes the chunks on (1, 10, 100 a GPU
// plus the chunk's place, so each sum names who added into it).
TEST(AllReduce, TheRingsStepsByHandForThreeGpus) {
  const std::vector<std::vector<double>> in = {{1, 2, 3}, {10, 20, 30}, {100, 200, 300}};
  const auto r = model::all_reduce::run(Algorithm::Ring, in, exact);
  ASSERT_EQ(r.steps.size(), 4u);  // 2(N - 1)
  EXPECT_EQ(r.steps[0].label, "reduce-scatter 1 of 2");
  // Step 1: GPU g sends chunk g - 1 to GPU g + 1, which adds it.
  const std::vector<Move> first = {{0, 1, 2, true}, {1, 2, 0, true}, {2, 0, 1, true}};
  for (std::size_t k = 0; k < 3; ++k) EXPECT_TRUE(same(r.steps[0].moves[k], first[k])) << k;
  EXPECT_EQ(r.steps[0].after[1], (std::vector<double>{10, 20, 33}));
  EXPECT_EQ(r.steps[0].after[2], (std::vector<double>{110, 200, 300}));
  EXPECT_EQ(r.steps[0].after[0], (std::vector<double>{1, 202, 3}));
  // Step 2: GPU g sends chunk g - 2; then GPU g holds its own chunk g whole.
  EXPECT_TRUE(same(r.steps[1].moves[0], {0, 1, 1, true}));
  EXPECT_EQ(r.steps[1].after[0][0], 111);
  EXPECT_EQ(r.steps[1].after[1][1], 222);
  EXPECT_EQ(r.steps[1].after[2][2], 333);
  // The all-gather copies the whole chunks on: GPU g first sends its own.
  EXPECT_EQ(r.steps[2].label, "all-gather 1 of 2");
  EXPECT_TRUE(same(r.steps[2].moves[0], {0, 1, 0, false}));
  for (const auto& gpu : r.results) EXPECT_EQ(gpu, (std::vector<double>{111, 222, 333}));
}

// Two and four GPUs: each holds its own chunk whole after the reduce-scatter; and what each GPU sends
// in all: 2(N - 1) chunks, the 2(N - 1)/N of the buffer that bus bandwidth counts.
TEST(AllReduce, ChunkOwnershipAndTrafficForTwoAndFourGpus) {
  for (int n : {2, 4}) {
    SCOPED_TRACE(n);
    std::vector<std::vector<double>> in(std::size_t(n), std::vector<double>(std::size_t(n), 0.0));
    for (int g = 0; g < n; ++g)
      for (int c = 0; c < n; ++c) in[std::size_t(g)][std::size_t(c)] = double(1 << (4 * g)) * (c + 1);
    const auto r = model::all_reduce::run(Algorithm::Ring, in, exact);
    const auto& scattered = r.steps[std::size_t(n - 2)].after;
    for (int g = 0; g < n; ++g) {
      const int c = g;  // its own chunk
      double whole = 0;
      for (int k = 0; k < n; ++k) whole += in[std::size_t(k)][std::size_t(c)];
      EXPECT_EQ(scattered[std::size_t(g)][std::size_t(c)], whole) << "GPU " << g << " chunk " << c;
    }
    std::vector<int> sent(std::size_t(n), 0);
    for (const auto& step : r.steps)
      for (const Move& mv : step.moves) ++sent[std::size_t(mv.from)];
    for (int g = 0; g < n; ++g) EXPECT_EQ(sent[std::size_t(g)], 2 * (n - 1));
  }
  EXPECT_DOUBLE_EQ(model::all_reduce::bus_bandwidth(1e9, 1.0, 4), 1.5e9);  // 2(4 - 1)/4
  EXPECT_DOUBLE_EQ(model::all_reduce::bus_bandwidth(1e9, 1.0, 2), 1e9);
}

// For any N from 2 to 8 and sizes not divisible by N, every GPU ends with the same bits, and each
// element's float sum is the one its documented order of adds gives.
TEST(AllReduce, EveryGpuEndsWithTheBitsItsOrderOfAddsGives) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (Algorithm a : {Algorithm::Ring, Algorithm::OneShot})
    for (int n = 2; n <= 8; ++n)
      for (std::size_t count : {std::size_t(1), std::size_t(7), std::size_t(1000 + 3)}) {
        SCOPED_TRACE("gpus " + std::to_string(n) + " count " + std::to_string(count));
        std::vector<std::vector<double>> in(std::size_t(n), std::vector<double>(count, 0.0));
        std::uniform_real_distribution<double> d(-1e4, 1e4);
        for (auto& b : in)
          for (double& x : b) x = as_float(d(rng));
        const auto r = model::all_reduce::run(a, in, as_float);
        for (int g = 1; g < n; ++g) ASSERT_EQ(r.results[std::size_t(g)], r.results[0]);
        for (std::size_t i = 0; i < count; ++i) {
          const std::vector<int> order = model::all_reduce::order_of_adds(a, n, count, i);
          double sum = in[std::size_t(order[0])][i];
          for (std::size_t k = 1; k < order.size(); ++k) sum = as_float(sum + in[std::size_t(order[k])][i]);
          ASSERT_EQ(r.results[0][i], sum) << "element " << i;
        }
      }
}

// An input with cancellation: 1e8, 1 and -1e8 in float. One-shot adds 0, 1, 2 everywhere: the 1
// is lost in 1e8 + 1. The ring starts chunk c at GPU c + 1: chunk 1 adds -1e8 + 1e8 first and
// keeps the 1. Different orders, different sums; exact, the same.
TEST(AllReduce, RingAndOneShotAddInDifferentOrders) {
  const std::vector<std::vector<double>> in = {{1e8, 1e8, 1e8}, {1, 1, 1}, {-1e8, -1e8, -1e8}};
  const auto ring = model::all_reduce::run(Algorithm::Ring, in, as_float);
  const auto shot = model::all_reduce::run(Algorithm::OneShot, in, as_float);
  EXPECT_EQ(shot.results[0], (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(ring.results[0], (std::vector<double>{0, 1, 0}));
  EXPECT_EQ(model::all_reduce::run(Algorithm::Ring, in, exact).results[0], (std::vector<double>{1, 1, 1}));
}

TEST(AllReduce, RefusesWhatItCannotRunInWords) {
  const auto said = [](const std::vector<std::vector<double>>& in) {
    try {
      model::all_reduce::run(Algorithm::Ring, in, exact);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(said({{1}}), "an all-reduce over 1 GPU: the model takes 2 to 8");
  EXPECT_EQ(said(std::vector<std::vector<double>>(9, {1})), "an all-reduce over 9 GPUs: the model takes 2 to 8");
  EXPECT_EQ(said({{1, 2}, {1}}), "an all-reduce over buffers of different sizes (1 and 2 values)");
  EXPECT_EQ(model::all_reduce::chunk_bounds(10, 4), (std::vector<std::size_t>{0, 2, 5, 7, 10}));
}

}  // namespace
}  // namespace rl
