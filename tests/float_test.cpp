// Floating-point error: ulp distances, the reference sum, serial against tree order, and repeats.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

#include "app/backend/backend.h"
#include "app/backend/ladder.h"
#include "app/backend/repeat.h"
#include "app/core/catalog.h"
#include "app/core/facts.h"
#include "kernels/algorithms.h"
#include "app/core/float_error.h"
#include "app/core/precision_ladder.h"
#include "kernels/narrow_float.h"
#include "test_support.h"

using namespace rl;

namespace {

float from_bits(std::uint32_t bits) { return std::bit_cast<float>(bits); }

// n floats in [0, 1), exact: 24 random bits scaled by 2^-24.
std::vector<double> unit_floats(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> v(n);
  for (auto& x : v) x = double(rng() >> 40) * 0x1p-24;
  return v;
}

}  // namespace

TEST(Ulps, AdjacentFloatsAreOneApart) {
  EXPECT_EQ(core::ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)), 1u);
  EXPECT_EQ(core::ulp_distance(from_bits(0x3f800000), from_bits(0x3f800003)), 3u);
  EXPECT_EQ(core::ulp_distance(from_bits(0xbf800003), from_bits(0xbf800000)), 3u);  // both negative
  EXPECT_EQ(core::ulp_distance(1.0, std::nextafter(1.0, 0.0)), 1u);
}

TEST(Ulps, SameValueIsZeroAndSignedZerosAreEqual) {
  EXPECT_EQ(core::ulp_distance(0.1f, 0.1f), 0u);
  EXPECT_EQ(core::ulp_distance(0.0f, -0.0f), 0u);
  EXPECT_EQ(core::ulp_distance(-0.0, 0.0), 0u);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(core::ulp_distance(inf, inf), 0u);
}

TEST(Ulps, AcrossZeroCountsBothSides) {
  const float tiny = from_bits(0x00000001);  // the smallest subnormal
  EXPECT_EQ(core::ulp_distance(tiny, -tiny), 2u);
  EXPECT_EQ(core::ulp_distance(-tiny, 0.0f), 1u);
  EXPECT_EQ(core::ulp_distance(from_bits(0x00000005), from_bits(0x80000003)), 8u);
}

TEST(Ulps, NanAndInfinityHaveNoCount) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  EXPECT_FALSE(core::ulp_distance(nan, 1.0f));
  EXPECT_FALSE(core::ulp_distance(nan, nan));
  EXPECT_FALSE(core::ulp_distance(inf, std::numeric_limits<float>::max()));
  EXPECT_FALSE(core::ulp_distance(inf, -inf));
  EXPECT_FALSE(core::ulp_distance(std::numeric_limits<double>::quiet_NaN(), 0.0));
}

TEST(FloatError, ReferenceIsExactWherePlainSumsLoseEverything) {
  EXPECT_EQ(core::reference_sum({1e30, 1.0, -1e30}), 1.0L);
  EXPECT_EQ(core::reference_sum({1.0, 1e100, 1.0, -1e100}), 2.0L);
  // Issue 48, item 12: a compensated sum in long double said 0 here, and called the right answer
  // (1) 4607182418800017408 ulps off. The partials keep every bit.
  const double big = std::ldexp(1.0, 300), mid = std::ldexp(1.0, 70);
  EXPECT_EQ(core::reference_sum({big, mid, 1.0, -mid, -big}), 1.0L);
  EXPECT_EQ(core::reference_sum({mid, 1.0, big, -big, 0.5, -mid}), 1.5L);
  const auto e = core::float_report({big, mid, 1.0, -mid, -big}, 1.0, core::DType::Double);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->result.ulps, 0u);
  EXPECT_TRUE(std::isinf(core::reference_sum({1.0, std::numeric_limits<double>::infinity()})));
}

TEST(FloatError, KnownCase) {
  // 2^24 + 1 + 1 in float, left to right: each 1 is half an ulp of 2^24 and rounds away (ties
  // to even), so the serial sum stays 2^24; the exact sum is 2^24 + 2, one float step above.
  const std::vector<double> v = {0x1p24, 1.0, 1.0};
  const auto r = core::float_report(v, 0x1p24 + 2, core::DType::Float);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->reference, 0x1p24L + 2);
  EXPECT_EQ(r->serial.value, 0x1p24);
  EXPECT_EQ(r->serial.absolute, 2.0L);
  EXPECT_EQ(r->serial.relative, 2.0L / (0x1p24L + 2));
  EXPECT_EQ(r->serial.ulps, 1u);
  EXPECT_EQ(r->result.absolute, 0.0L);
  EXPECT_EQ(r->result.ulps, 0u);
  EXPECT_FALSE(core::float_report(v, 0, core::DType::Int));  // integer sums are exact
}

// Left to right, the error bound grows like n * u; a tree's like log2(n) * u. Over 2^20 values
// in [0, 1) the serial sum's rounding errors pile up; the tree's do not.
// A serial float sum of 2^20 values strays tens of ulps; the tree, a few. Per input the two may
// land on the same float by chance (CI drew such a seed: 16124677521045571274), so the claim is
// checked over five inputs together, with room to spare.
TEST(FloatError, SerialSumIsFurtherFromTheReferenceThanTheTree) {
  const auto base = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(base));
  auto sim = backend::make_sim_backend();
  long double serial = 0, tree = 0;
  for (std::uint64_t seed = base; seed < base + 5; ++seed) {
    backend::TraceRequest req{"sequential", core::Op::Sum, core::DType::Float, 256, 0, unit_floats(1 << 20, seed)};
    const auto r = core::float_report(req.input, sim->trace(req).result, core::DType::Float);
    ASSERT_TRUE(r);
    serial += r->serial.absolute, tree += r->result.absolute;
  }
  EXPECT_GT(serial, 2 * tree) << "serial " << double(serial) << ", tree " << double(tree);
}

TEST(Repeats, TheCpuModelGivesOneResult) {
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(test::test_seed()));
  backend::TraceRequest req{"warp-shuffle-vectorized", core::Op::Sum, core::DType::Float, 64, 0,
                            unit_floats(4096, test::test_seed())};
  auto sim = backend::make_sim_backend();
  const auto r = backend::repeat_trace(*sim, req, 7);
  EXPECT_EQ(r.backend, "sim");
  EXPECT_EQ(r.runs, 7);
  ASSERT_EQ(r.results.size(), 1u);
  EXPECT_EQ(r.results[0].count, 7);
  EXPECT_EQ(backend::repeat_trace(*sim, req, 1000).runs, backend::kMaxRepeats);
}

namespace {
const core::Rung& rung(const std::vector<core::Rung>& ladder, core::Narrow element, core::Narrow accumulator) {
  for (const auto& r : ladder)
    if (r.element == element && r.accumulator == accumulator) return r;
  throw std::logic_error("no such rung");
}
}  // namespace

// Half and bfloat16 rounding by hand: the ties go to even, half overflows past 65504 to infinity
// and keeps its subnormals; bfloat16 keeps float's range with 8 bits. Where the compiler has
// _Float16 (GCC), every 65537th float rounds as it does (the whole range was compared once:
// 613 million patterns, none apart).
TEST(NarrowFloat, HalfAndBf16RoundToNearestEven) {
  using kernels::round_half, kernels::round_bf16;
  EXPECT_EQ(round_half(2049.0f), 2048.0f);  // a tie between 2048 and 2050: the even one
  EXPECT_EQ(round_half(2051.0f), 2052.0f);
  EXPECT_EQ(round_half(65504.0f), 65504.0f);
  EXPECT_EQ(round_half(65519.0f), 65504.0f);
  EXPECT_TRUE(std::isinf(round_half(65520.0f)));
  EXPECT_EQ(round_half(std::ldexp(1.0f, -24)), std::ldexp(1.0f, -24));  // the smallest subnormal
  EXPECT_EQ(round_half(std::ldexp(1.0f, -25)), 0.0f);                   // its half: a tie, to 0
  EXPECT_EQ(round_half(std::ldexp(1.5f, -25)), std::ldexp(1.0f, -24));
  EXPECT_TRUE(std::isnan(round_half(std::nanf(""))));
  EXPECT_EQ(round_bf16(257.0f), 256.0f);  // a tie between 256 and 258
  EXPECT_EQ(round_bf16(259.0f), 260.0f);
  EXPECT_EQ(round_bf16(1.0f + std::ldexp(1.0f, -8)), 1.0f);
  EXPECT_EQ(round_bf16(16777216.0f), 16777216.0f);
  EXPECT_TRUE(std::isnan(round_bf16(std::nanf(""))));
  // From a double, one rounding: 1 + 2^-11 + 2^-30 is above the tie between 1 and 1 + 2^-10, while
  // its nearest float is the tie itself, which goes to the even 1.
  const double above_tie = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30);
  EXPECT_EQ(round_half(above_tie), 1 + std::ldexp(1.0f, -10));
  EXPECT_EQ(round_half(static_cast<float>(above_tie)), 1.0f);
  EXPECT_EQ(round_bf16(1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -30)), 1 + std::ldexp(1.0f, -7));
#ifdef __FLT16_MAX__
  for (std::uint64_t i = 0; i <= 0xffffffffull; i += 65537) {
    const float f = std::bit_cast<float>(std::uint32_t(i));
    if (std::isnan(f)) continue;
    EXPECT_EQ(std::bit_cast<std::uint16_t>(static_cast<_Float16>(f)), kernels::half_bits(f)) << f;
  }
#endif
}

// The ladder's hand cases: 2048 + 1 = 2048 in half and 256 + 1 = 256 in bfloat16 (their spacing
// there is 2), 2^24 + 1 = 2^24 in float; the same halves and bfloat16 add exactly in float; 2^24
// is past half's range. Ones stall a half sum at 2048 and a bfloat16 sum at 256.
TEST(Ladder, StallsWhereTheSpacingPassesTheAddend) {
  using core::Narrow;
  auto l = core::precision_ladder({2048, 1});
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Half).result, 2048);
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Half).stalled_at, 1u);
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Half).stalled_sum, 2048);
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Half).ulps, 0u);  // 2048 is the half nearest 2049 (a tie, to even)
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Float).result, 2049);
  EXPECT_FALSE(rung(l, Narrow::Half, Narrow::Float).stalled_at);
  EXPECT_NEAR(*core::correct_digits(rung(l, Narrow::Half, Narrow::Half)), -std::log10(1.0 / 2049), 1e-9);
  EXPECT_EQ(core::correct_digits(rung(l, Narrow::Double, Narrow::Double)), core::kExactDigits);
  l = core::precision_ladder({256, 1});
  EXPECT_EQ(rung(l, Narrow::Bf16, Narrow::Bf16).result, 256);
  EXPECT_EQ(rung(l, Narrow::Bf16, Narrow::Float).result, 257);
  l = core::precision_ladder({16777216, 1});
  EXPECT_EQ(rung(l, Narrow::Float, Narrow::Float).result, 16777216);
  EXPECT_EQ(rung(l, Narrow::Float, Narrow::Float).stalled_at, 1u);
  EXPECT_EQ(rung(l, Narrow::Double, Narrow::Double).result, 16777217);
  EXPECT_TRUE(std::isinf(rung(l, Narrow::Half, Narrow::Half).result));  // 2^24 is no half
  EXPECT_FALSE(rung(l, Narrow::Half, Narrow::Half).ulps);
  EXPECT_FALSE(core::correct_digits(rung(l, Narrow::Half, Narrow::Half)));  // overflow: no digits
  l = core::precision_ladder({65504, 65504, 1});  // half overflows; inf + 1 = inf is no lost add
  EXPECT_TRUE(std::isinf(rung(l, Narrow::Half, Narrow::Half).result));
  EXPECT_FALSE(rung(l, Narrow::Half, Narrow::Half).stalled_at);
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Float).result, 131009);
  l = core::precision_ladder(std::vector<double>(5000, 1.0));
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Half).result, 2048);
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Half).stalled_at, 2048u);
  EXPECT_EQ(rung(l, Narrow::Bf16, Narrow::Bf16).result, 256);
  EXPECT_EQ(rung(l, Narrow::Half, Narrow::Float).result, 5000);
  EXPECT_EQ(rung(l, Narrow::Bf16, Narrow::Float).result, 5000);
}

// On random values the wider rungs err less: in ulps of its own type each rung stays within a
// left-to-right loop's bound (n - 1 roundings of half an ulp of the running sum's magnitude,
// sum|x| here), and the narrow types adding in float land far closer than adding in their own.
TEST(Ladder, RandomInputsStayWithinTheLoopsBound) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(4099)}) {
    const auto values = test::random_values(n, core::DType::Float, seed + n);
    const auto ladder = core::precision_ladder(values);
    ASSERT_EQ(ladder.size(), 6u);
    for (const auto& r : ladder) {
      SCOPED_TRACE(core::narrow_name(r.element) + " in " + core::narrow_name(r.accumulator) +
                   " n=" + std::to_string(n));
      ASSERT_TRUE(r.ulps);
      const double spacing_ratio = test::abs_sum(values) / std::max(1e-300, std::fabs(double(r.reference)));
      EXPECT_LE(*r.ulps, double(n) * std::max(1.0, 2 * spacing_ratio) + 1);
    }
    if (n >= 1000) {  // the same halves lose less adding in float than in half
      using core::Narrow;
      const auto off = [&](Narrow a) {
        const auto& r = rung(ladder, Narrow::Half, a);
        return std::fabs(static_cast<long double>(r.result) - r.reference);
      };
      EXPECT_LT(off(Narrow::Float), off(Narrow::Half));
    }
  }
}

// The determinism lab over one input on the CPU model: a row for every array algorithm but the
// pitfalls, each run once (the model's order never changes), every sum within rounding of the
// reference; the algorithms that refuse the type say so in words; a block only non-pow2-block
// takes runs the others at 256.
TEST(Lab, EveryAlgorithmRunsOnTheSameInput) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  auto sim = backend::make_sim_backend();
  const auto input = test::random_values(3001, core::DType::Float, seed);
  const backend::TraceRequest req{"non-pow2-block", core::Op::Sum, core::DType::Float, 270, 0, input};
  const auto rows = backend::repeat_every(*sim, req, 20);
  std::size_t expected = 0;
  for (const auto& a : core::algorithms())
    expected += a.kind == core::Kind::Traced && !a.matrix && a.family != "pitfall";
  ASSERT_EQ(rows.size(), expected);
  for (const auto& r : rows) {
    SCOPED_TRACE(r.algorithm);
    if (kernels::find_row(r.algorithm)->ints_only) {
      EXPECT_NE(r.error.find("int only"), std::string::npos) << r.error;
      continue;
    }
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(r.repeats.runs, 1);
    ASSERT_EQ(r.repeats.results.size(), 1u);
    EXPECT_NEAR(r.repeats.results[0].result, test::reference(core::Op::Sum, input),
                test::sum_tolerance(core::DType::Float, input));
  }
  const backend::TraceRequest ints{"sequential", core::Op::Sum, core::DType::Int, 64, 0, {1, 2, 3}};
  bool refused = false;
  for (const auto& r : backend::repeat_every(*sim, ints, 3))
    refused |= r.algorithm == "compensated" && r.error.find("floats and doubles only") != std::string::npos;
  EXPECT_TRUE(refused);
}

// ---- Half and bfloat16 as element types (issue 35, part 1) ----

namespace {

backend::TraceRequest narrow_request(const std::string& id, core::DType type, core::Accumulate acc,
                                     std::vector<double> input, int block = 32) {
  backend::TraceRequest req{id, core::Op::Sum, type, block, 0, std::move(input)};
  req.accumulate = acc;
  return req;
}

// [big, 1, 1, ..., 1]: one block of 32 in sequential addressing. Cell 0 meets cell 16's 1 first
// (big + 1, a tie between big and big + 2 where the spacing at big is 2), then 2, 4, 8 and 16.
std::vector<double> big_then_ones(double big) {
  std::vector<double> v(32, 1.0);
  v[0] = big;
  return v;
}

}  // namespace

TEST(Narrow, TheFirstAddPastTheSpacingStallsInTheElementTypeAlone) {
  auto sim = backend::make_sim_backend();
  // half: 2048 + 1 = 2048 (ties to even), then + 2 + 4 + 8 + 16 = 2078; in float, 2079 exactly.
  EXPECT_EQ(
      sim->trace(narrow_request("sequential", core::DType::Half, core::Accumulate::Same, big_then_ones(2048))).result,
      2078);
  EXPECT_EQ(
      sim->trace(narrow_request("sequential", core::DType::Half, core::Accumulate::Float, big_then_ones(2048))).result,
      2079);
  // bf16: 256 + 1 = 256, then 258, 262, 270, 286; in float, 287.
  EXPECT_EQ(
      sim->trace(narrow_request("sequential", core::DType::Bf16, core::Accumulate::Same, big_then_ones(256))).result,
      286);
  EXPECT_EQ(
      sim->trace(narrow_request("sequential", core::DType::Bf16, core::Accumulate::Float, big_then_ones(256))).result,
      287);
}

// One block's tree in the element type, computed here from the rounding functions alone: the
// model's same-type sum must round after every add, as __hadd does.
TEST(Narrow, ASameTypeSumRoundsAfterEveryAdd) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  auto sim = backend::make_sim_backend();
  for (auto type : {core::DType::Half, core::DType::Bf16}) {
    // Roundings can cancel: draw again (from the seed) until the tree's sum differs from the
    // exact sum rounded once, so that a model rounding only at the end would fail.
    std::vector<double> v, cells;
    double once = 0;
    for (std::uint64_t draw = 0; draw < 64 && (cells.empty() || cells[0] == once); ++draw) {
      v = test::random_values(64, type, seed + draw);
      for (auto& x : v) x = core::round_to_type(x * 300, type);  // spacings of 1/8 to 2: roundings in every add
      cells = v;
      for (std::size_t s = 32; s > 0; s /= 2)
        for (std::size_t t = 0; t < s; ++t) cells[t] = core::round_to_type(cells[t] + cells[t + s], type);
      double exact = 0;
      for (double x : v) exact += x;
      once = core::round_to_type(exact, type);
    }
    ASSERT_NE(cells[0], once) << core::to_string(type) << ": no draw of 64 rounded differently in the tree";
    const core::Trace t = sim->trace(narrow_request("sequential", type, core::Accumulate::Same, v, 64));
    EXPECT_EQ(t.result, cells[0]) << core::to_string(type);
  }
}

TEST(Narrow, SixteenByteLoadsReadEightHalves) {
  auto sim = backend::make_sim_backend();
  for (auto type : {core::DType::Half, core::DType::Bf16})
    for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(1001), std::size_t(1) << 16}) {
      const core::Trace t = sim->trace(
          narrow_request("warp-shuffle-vectorized", type, core::Accumulate::Float, test::random_values(n, type, 7)));
      SCOPED_TRACE(core::to_string(type) + " n=" + std::to_string(n));
      ASSERT_FALSE(t.stages.empty());
      std::size_t vector_loads = 0, single = 0;
      for (const auto& l : t.stages[0].loads)
        for (std::size_t k = 0; k < l.elements.size(); ++k) {
          const int w = l.widths.empty() ? 1 : l.widths[k];
          EXPECT_TRUE(w == 8 || w == 1) << w;
          (w == 8 ? vector_loads : single)++;
        }
      EXPECT_EQ(vector_loads > 0, n >= 8);
      if (n % 8 == 0) {
        EXPECT_EQ(single, 0u) << "whole vectors only: no single loads";
      }
      if (n == 7) {
        EXPECT_EQ(single, 7u);  // seven halves: no whole vector, seven single loads
      }
    }
}

// Every array kernel that takes half and bf16 (not only the four above), every operator it takes
// for them, odd and large sizes, two blocks: sums within float's bound, min and max exact
// (issue 48: half and bf16 were outside every type sweep).
TEST(Narrow, EveryKernelThatTakesHalvesAgreesWithTheReference) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  auto sim = backend::make_sim_backend();
  int kernels_run = 0;
  for (const auto& id : core::array_ids())
    for (auto type : {core::DType::Half, core::DType::Bf16}) {
      bool ran = false;
      for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
        if (!backend::type_refusal(id, type, op).empty()) continue;
        for (std::size_t n : {std::size_t(1), std::size_t(37), std::size_t(4099)})
          for (int block : id == "non-pow2-block" ? std::vector<int>{33, 270} : std::vector<int>{32, 256}) {
            const std::vector<double> v = test::random_values(n, type, seed + n + std::size_t(block));
            backend::TraceRequest req = narrow_request(id, type, core::Accumulate::Float, v, block);
            req.op = op;
            SCOPED_TRACE(id + " " + core::to_string(type) + " " + core::to_string(op) + " n=" + std::to_string(n) +
                         " block=" + std::to_string(block));
            const core::Trace t = sim->trace(req);
            if (op == core::Op::Sum)
              EXPECT_NEAR(t.result, test::reference(op, v), test::sum_tolerance(type, v));
            else
              EXPECT_EQ(t.result, test::reference(op, v));
            ran = true;
          }
      }
      kernels_run += ran;
    }
  EXPECT_GE(kernels_run, 8) << "kernels x types that take halves";
}

TEST(Narrow, ResultsInFloatMatchADoubleSumOfTheHalves) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  auto sim = backend::make_sim_backend();
  for (const char* id : {"sequential", "warp-shuffle", "warp-shuffle-vectorized", "work-queue"})
    for (auto type : {core::DType::Half, core::DType::Bf16})
      for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4099), (std::size_t(1) << 18) + 5}) {
        const std::vector<double> v = test::random_values(n, type, seed + n);
        const core::Trace t = sim->trace(narrow_request(id, type, core::Accumulate::Float, v, 256));
        EXPECT_NEAR(t.result, test::reference(core::Op::Sum, v), test::sum_tolerance(type, v)) << id << " n=" << n;
        EXPECT_EQ(t.result, double(float(t.result))) << "a float accumulator's result is a float";
      }
}

TEST(Narrow, RowsThatTakeNoHalfSayWhichDo) {
  const std::string why = backend::type_refusal("cg-block", core::DType::Half, core::Op::Sum);
  EXPECT_NE(why.find("takes no half"), std::string::npos) << why;
  EXPECT_NE(why.find("warp-shuffle-vectorized"), std::string::npos) << why;
  EXPECT_EQ(backend::type_refusal("work-queue", core::DType::Bf16, core::Op::Sum), "");
  EXPECT_EQ(backend::type_refusal("work-queue", core::DType::Bf16, core::Op::Max), "");
  EXPECT_NE(backend::type_refusal("work-queue", core::DType::Bf16, core::Op::Max, core::Accumulate::Same), "");
  auto sim = backend::make_sim_backend();
  EXPECT_THROW(sim->trace(narrow_request("cg-block", core::DType::Half, core::Accumulate::Float, {1, 2})),
               std::invalid_argument);
}

TEST(Narrow, ValuesReadAsTheTypeHoldsThem) {
  EXPECT_EQ(core::format_value(core::round_to_type(0.1, core::DType::Half), core::DType::Half), "0.1");
  EXPECT_EQ(core::round_to_type(0.1, core::DType::Half), 0.0999755859375);
  EXPECT_EQ(core::format_value(45056, core::DType::Bf16), "45056");  // not 45000, which reads back as it
  EXPECT_EQ(core::format_value(65504, core::DType::Half), "65504");
  EXPECT_EQ(core::format_value(10, core::DType::Half), "10");
  EXPECT_EQ(core::round_to_type(65520, core::DType::Half), std::numeric_limits<double>::infinity());
}

TEST(Narrow, TracesKeepTheirAccumulatorAndRefuseValuesTheTypeCannotHold) {
  auto sim = backend::make_sim_backend();
  const core::Trace t = sim->trace(narrow_request("warp-shuffle", core::DType::Bf16, core::Accumulate::Same,
                                                  test::random_values(100, core::DType::Bf16, 3)));
  const std::string json = core::to_json(t);
  EXPECT_EQ(core::trace_from_json(json), t);
  EXPECT_NE(json.find("\"accumulate\": \"same\""), std::string::npos);
  std::string no_acc = json;
  no_acc.erase(no_acc.find("\"accumulate\": \"same\","), std::string("\"accumulate\": \"same\",").size());
  EXPECT_THROW(core::trace_from_json(no_acc), std::runtime_error);
  // 0.1 is no bfloat16: a file that says it is is refused, naming the field.
  std::string bad = json;
  const std::string first = "\"input\": [\n    ";
  const auto at = bad.find(first) + first.size();
  bad.replace(at, bad.find(',', at) - at, "0.1");
  try {
    core::trace_from_json(bad);
    ADD_FAILURE() << "a bf16 trace holding 0.1 was read";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no bf16"), std::string::npos) << e.what();
  }
}

// Shared memory of halves: two a 4-byte word, and a bank serves a word once. 32 threads 32 halves
// apart (64 bytes) meet in banks 0 and 16: a 16-way conflict, where floats 32 apart are 32-way.
TEST(Narrow, TwoHalvesShareABankWord) {
  std::vector<std::vector<int>> strided(32), neighbours(32);
  for (int t = 0; t < 32; ++t) strided[std::size_t(t)] = {32 * t}, neighbours[std::size_t(t)] = {t};
  EXPECT_EQ(core::bank_conflict_degree(strided, 2), 16);
  EXPECT_EQ(core::bank_conflict_degree(strided, 4), 32);
  EXPECT_EQ(core::bank_conflict_degree(neighbours, 2), 1);
}

// The matrix rows that take halves: every row's sum in float against a double sum of the row,
// and 16-byte loads of eight where a row's bytes are a multiple of 16.
TEST(Narrow, MatrixRowsOfHalvesMatchADoubleSumOfEachRow) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  auto sim = backend::make_sim_backend();
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {3, 4100}, {33, 257}, {1000, 16}, {4097, 3}, {5, 24}};
  for (const char* id : {"batched-rows-vectorized", "lanes-per-row", "flat-rows"})
    for (auto type : {core::DType::Half, core::DType::Bf16})
      for (const auto& [rows, cols] : shapes) {
        auto req =
            narrow_request(id, type, core::Accumulate::Float, test::random_values(rows * cols, type, seed + cols), 256);
        req.rows = rows, req.cols = cols;
        const core::Trace t = sim->trace(req);
        SCOPED_TRACE(std::string(id) + " " + core::to_string(type) + " " + std::to_string(rows) + "x" +
                     std::to_string(cols));
        ASSERT_EQ(t.outputs_total, rows);
        for (std::size_t r = 0; r < t.outputs.size(); ++r) {
          const std::vector<double> row(req.input.begin() + std::ptrdiff_t(r * cols),
                                        req.input.begin() + std::ptrdiff_t((r + 1) * cols));
          ASSERT_NEAR(t.outputs[r], test::reference(core::Op::Sum, row), test::sum_tolerance(type, row)) << "row " << r;
        }
        int widest = 1;
        for (const auto& l : t.stages[0].loads)
          for (int w : l.widths) widest = std::max(widest, w);
        // batched-rows-vectorized reads every row's body in vectors (at most 7 halves before its
        // first 16-byte boundary); lanes-per-row only rows whose bytes are a multiple of 16;
        // flat-rows' tiles come by bulk copy, its loads are the last elements past the last whole
        // vector, one a thread.
        const bool peeled = std::string(id) == "batched-rows-vectorized", flat = std::string(id) == "flat-rows";
        EXPECT_EQ(widest, !flat && (peeled ? cols >= 15 : cols % 8 == 0) ? 8 : 1)
            << "16-byte loads of eight halves from a row's first 16-byte boundary";
        if (std::string(id) == "lanes-per-row" && cols == 16) {
          EXPECT_EQ(t.geometry.segment_lanes, 2) << "16 halves: two 16-byte loads, a lane each";
        }
      }
}

// The ladder run through a kernel keeps the kernel's order: 3000 ones in half, left to right, stop
// at 2048; sequential's tree adds them in blocks of 256 and then the blocks' sums, every partial a
// multiple of 8 below 4096, which half holds, so the tree's half sum is exact.
TEST(Narrow, TheLadderThroughAKernelKeepsItsOrder) {
  const std::vector<double> ones(3000, 1.0);
  EXPECT_EQ(core::precision_ladder(ones)[0].result, 2048);
  const backend::LadderRun run = backend::run_ladder("sequential", ones, backend::Choice::Sim);
  ASSERT_EQ(run.rungs.size(), 6u);
  EXPECT_FALSE(run.gpu);
  EXPECT_EQ(run.rungs[0].rung.element, core::Narrow::Half);
  EXPECT_EQ(run.rungs[0].rung.accumulator, core::Narrow::Half);
  EXPECT_EQ(run.rungs[0].rung.result, 3000);
  EXPECT_EQ(run.rungs[0].rung.ulps, 0u);
  for (const auto& r : run.rungs) EXPECT_EQ(r.median_us, 0) << "the CPU model is never timed as a GPU";
  EXPECT_THROW(backend::run_ladder("cg-block", ones, backend::Choice::Sim), std::invalid_argument);
  EXPECT_THROW(backend::run_ladder("cub", ones, backend::Choice::Sim), std::invalid_argument);  // no kernel of ours
  EXPECT_THROW(backend::run_ladder("lanes-per-row", ones, backend::Choice::Sim), std::invalid_argument);  // a matrix
}
