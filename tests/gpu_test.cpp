// On a real GPU: every traced stage equals the CPU model's bit for bit, and the timed
// (uninstrumented) kernels give the right whole-array results. Skips, saying so, without a GPU.
#include <gtest/gtest.h>

#include <cstring>

#include "app/backend/backend.h"
#include "app/core/catalog.h"
#include "kernels/reduce_api.h"
#include "test_support.h"

#ifdef REDLAB_HAS_CUDA
#include "kernels/reference/tree_model.h"
#endif

using namespace rl;

namespace {

bool quick() { return std::getenv("REDLAB_GPU_QUICK") != nullptr; }  // for the sanitizers

std::unique_ptr<backend::Backend> gpu_or_skip(std::string* why) {
  auto b = backend::make_cuda_backend(why);
  return b;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_identical(const core::Trace& gpu, const core::Trace& model) {
  EXPECT_EQ(gpu.backend, "cuda");
  ASSERT_EQ(gpu.stages.size(), model.stages.size());
  EXPECT_TRUE(same_bits(gpu.result, model.result)) << gpu.result << " vs " << model.result;
  EXPECT_EQ(gpu.input, model.input);
  for (std::size_t k = 0; k < gpu.stages.size(); ++k) {
    const auto &g = gpu.stages[k], &m = model.stages[k];
    SCOPED_TRACE("stage " + std::to_string(k));
    EXPECT_EQ(g.label, m.label);
    EXPECT_EQ(g.line, m.line);
    EXPECT_EQ(g.active, m.active);
    EXPECT_EQ(g.accesses, m.accesses);
    ASSERT_TRUE(g.shared && m.shared);
    ASSERT_EQ(g.shared->size(), m.shared->size());
    for (std::size_t i = 0; i < g.shared->size(); ++i)
      if (!same_bits((*g.shared)[i], (*m.shared)[i])) {
        ADD_FAILURE() << "shared[" << i << "]: gpu " << (*g.shared)[i] << " model " << (*m.shared)[i];
        return;
      }
  }
}

std::vector<std::size_t> sizes() {
  if (quick()) return {1, 31, 1000, 4099};
  return {1, 31, 33, 1000, (std::size_t(1) << 20) + 3};
}

std::vector<int> blocks() {
  if (quick()) return {32, 256, 1024};
  return {32, 64, 128, 256, 512, 1024};
}

}  // namespace

TEST(Gpu, TracesEqualTheCpuModelBitForBit) {
  std::string why;
  auto gpu = gpu_or_skip(&why);
  if (!gpu) GTEST_SKIP() << "SKIPPED: no GPU: " << why;
  auto model = backend::make_sim_backend();
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::uint64_t case_no = 0;
  for (const auto& id : core::algorithm_ids())
    for (std::size_t n : sizes())
      for (int block : blocks())
        for (auto type : {core::DType::Int, core::DType::Float})
          for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
            const int grid = int((n + block - 1) / block);
            backend::TraceRequest req{id, op, type, block, int(case_no % grid),
                                      test::random_values(n, type, seed + ++case_no)};
            SCOPED_TRACE(id + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " traced=" +
                         std::to_string(req.trace_block) + " " + core::to_string(op) + " " + core::to_string(type));
            expect_identical(gpu->trace(req), model->trace(req));
            if (HasFailure()) return;
          }
}

#ifdef REDLAB_HAS_CUDA
template <class T>
void check_timed(kernels::Algo algo, const std::string& name, std::uint64_t seed) {
  const auto type = std::is_same_v<T, int> ? core::DType::Int : core::DType::Float;
  for (std::size_t n : sizes())
    for (int block : blocks())
      for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
        const auto values = test::random_values(n, type, seed + n * 7 + block);
        const std::vector<T> in(values.begin(), values.end());
        const auto kop = op == core::Op::Sum ? kernels::OpKind::Sum : op == core::Op::Min ? kernels::OpKind::Min : kernels::OpKind::Max;
        const T got = kernels::gpu_reduce<T>(algo, kop, in.data(), n, block, nullptr, 0);
        const double ref = test::reference(op, values);
        SCOPED_TRACE(name + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " " + core::to_string(op));
        // Float sums: a tree of depth log2(n) adds at most ~log2(n) roundings of |x|; 2e-6 of
        // sum |x| covers n = 2^20 with margin. Everything else must be exact.
        if (std::is_same_v<T, float> && op == core::Op::Sum)
          EXPECT_NEAR(double(got), ref, 2e-6 * test::abs_sum(values));
        else
          EXPECT_EQ(double(got), ref);
      }
}

TEST(Gpu, TimedKernelsMatchADoubleReference) {
  std::string why;
  if (!kernels::cuda_available(&why)) GTEST_SKIP() << "SKIPPED: no GPU: " << why;
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const std::pair<kernels::Algo, const char*> algos[] = {
      {kernels::Algo::InterleavedDivergent, "interleaved-divergent"},
      {kernels::Algo::InterleavedBankConflicts, "interleaved-bank-conflicts"},
      {kernels::Algo::Sequential, "sequential"}};
  for (const auto& [algo, name] : algos) {
    check_timed<int>(algo, name, seed);
    check_timed<float>(algo, name, seed);
  }
}

TEST(Gpu, ImpossibleLaunchesAreRefusedBeforeTheGpu) {
  std::string why;
  if (!kernels::cuda_available(&why)) GTEST_SKIP() << "SKIPPED: no GPU: " << why;
  const std::vector<int> in(100, 1);
  EXPECT_THROW(kernels::gpu_reduce<int>(kernels::Algo::Sequential, kernels::OpKind::Sum, in.data(), 100, 96, nullptr, 0),
               std::invalid_argument);
  EXPECT_THROW(kernels::gpu_reduce<int>(kernels::Algo::Sequential, kernels::OpKind::Sum, in.data(), 0, 32, nullptr, 0),
               std::invalid_argument);
  // And the GPU still works afterwards.
  EXPECT_EQ(kernels::gpu_reduce<int>(kernels::Algo::Sequential, kernels::OpKind::Sum, in.data(), 100, 32, nullptr, 0), 100);
}
#endif
