// Our all-reduce kernels (kernels/all_reduce.cuh) on a GPU, against the CPU model bit for bit:
// every step's kept values and every buffer at the end, for 2 to 8 buffers, every type, sizes
// whose chunks start off any 16-byte boundary. On a machine of one GPU the buffers share it (the
// same kernels, run one after another: never a run across GPUs); with two or more, each on its own.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "kernels/model/all_reduce.h"
#include "test_support.h"
#include "trace_compare.h"

#ifdef REDLAB_HAS_CUDA
#include "kernels/all_reduce_api.h"
#include "kernels/gpu_api.h"
#endif

namespace rl {
namespace {

#ifdef REDLAB_HAS_CUDA
namespace ar = model::all_reduce;

// Each add rounded to the type once (core::round_to_type), as the model takes it; ints wrap.
template <core::DType D>
double round_to(double x) {
  if constexpr (D == core::DType::Int) return core::wrap_int32(x);
  return core::round_to_type(x, D);
}

template <class T, core::DType type>
void expect_model(ar::Algorithm algorithm, const std::vector<int>& devices, std::size_t n, std::uint64_t seed) {
  SCOPED_TRACE(std::string(algorithm == ar::Algorithm::Ring ? "ring" : "one-shot") + " over " +
               std::to_string(devices.size()) + " buffers of " + std::to_string(n) + " " + core::to_string(type));
  std::vector<std::vector<T>> in;
  std::vector<std::vector<double>> as_doubles;
  for (std::size_t g = 0; g < devices.size(); ++g) {
    as_doubles.push_back(test::random_values(n, type, seed + g));
    in.emplace_back();
    for (double x : as_doubles.back()) in.back().push_back(T(x));
  }
  kernels::AllReduceSteps steps;
  const auto got = kernels::gpu_all_reduce<T>(algorithm, devices, in, 4, &steps);
  const ar::Run want = ar::run(algorithm, as_doubles, round_to<type>, 4);
  ASSERT_EQ(steps.size(), want.steps.size());
  for (std::size_t s = 0; s < steps.size(); ++s) EXPECT_EQ(steps[s], want.steps[s].after) << "step " << s;
  for (std::size_t g = 0; g < devices.size(); ++g)
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_TRUE(test::same_bits(double(got[g][i]), want.results[g][i]))
          << "buffer " << g << " element " << i << ": gpu " << double(got[g][i]) << " model " << want.results[g][i];
}

std::vector<int> devices_for(int buffers) {
  const int present = kernels::cuda_device_count();
  std::vector<int> d;
  for (int g = 0; g < buffers; ++g) d.push_back(present >= buffers ? g : 0);
  return d;
}
#endif

TEST(GpuAllReduce, TheKernelsStepAsTheModelBitForBit) {
#ifdef REDLAB_HAS_CUDA
  std::string why;
  if (!kernels::cuda_available(&why)) {
    if (std::getenv("REDLAB_REQUIRE_GPU")) FAIL() << "no GPU, but REDLAB_REQUIRE_GPU is set: " << why;
    GTEST_SKIP() << "SKIPPED: no GPU: " << why;
  }
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const auto algorithm : {ar::Algorithm::Ring, ar::Algorithm::OneShot})
    for (int buffers : {2, 3, 4, 8})
      for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(1003), std::size_t(65537)}) {
        const auto d = devices_for(buffers);
        expect_model<int, core::DType::Int>(algorithm, d, n, seed);
        expect_model<float, core::DType::Float>(algorithm, d, n, seed);
        expect_model<double, core::DType::Double>(algorithm, d, n, seed);
        expect_model<narrow::Half, core::DType::Half>(algorithm, d, n, seed);
        expect_model<narrow::Bf16, core::DType::Bf16>(algorithm, d, n, seed);
      }
#else
  GTEST_SKIP() << "SKIPPED: this build has no CUDA";
#endif
}

}  // namespace
}  // namespace rl
