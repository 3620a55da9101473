// Timing sweep for issue 53's streaming forms of the Hopper kernels (kernels/shuffle.cuh), the
// real kernels without probes, beside warp-shuffle-vectorized, vectorized-ordered and the teaching
// bulk-async: bulk tiles and stages, cluster sizes, block sizes. An exploration, not part of the
// app; docs/benchmarks.md holds what it measured. Build from the repository root:
//   nvcc -arch=sm_90 -O3 -std=c++20 -I. -o streaming_proto scripts/experiments/streaming_proto.cu
//   ./streaming_proto
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "experiments/perf_common.cuh"
#include "kernels/shuffle.cuh"

using namespace rl::kernels;
namespace ops = rl::ops;

static double g_peak = 0;  // GB/s
static int g_sms = 0;

static void report(const char* name, std::size_t n, std::size_t bytes, double us, bool ok) {
  const double gbs = double(bytes) / us / 1000.0;
  std::printf("%-44s n=2^%-2d %9.2f us %8.1f GB/s %5.1f %% %s\n", name, __builtin_ctzll(n), us, gbs,
              100.0 * gbs / g_peak, ok ? "ok" : "WRONG");
}

static std::size_t vector_grid(std::size_t n, int b) {  // first_pass_grid's Indexing::Vectors
  const std::size_t sms = std::size_t(g_sms), few = (n + 8 * b - 1) / (8 * b);
  if (few <= 4 * sms) return std::max<std::size_t>(1, few);
  return std::min((n + 32 * b - 1) / (32 * b), std::size_t(2048 / b) * sms);
}

template <class T>
struct Buffers {
  T* in = nullptr;
  T* out = nullptr;
  T* partials = nullptr;
  unsigned* retired = nullptr;
  std::size_t n = 0;
  explicit Buffers(const std::vector<T>& host) : n(host.size()) {
    CK(cudaMalloc(&in, n * sizeof(T)));
    CK(cudaMemcpy(in, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMalloc(&out, 64 * sizeof(T)));
    CK(cudaMalloc(&partials, (1 << 20) * sizeof(T)));
    CK(cudaMalloc(&retired, sizeof(unsigned)));
    CK(cudaMemset(retired, 0, sizeof(unsigned)));
  }
  T result() const {
    T r{};
    CK(cudaMemcpy(&r, out, sizeof(T), cudaMemcpyDeviceToHost));
    return r;
  }
};

template <class T>
static bool close(T got, double want) {
  if constexpr (std::is_same_v<T, int>) return double(got) == want;
  return std::abs(double(got) - want) <= 1e-3 * std::abs(want) + 1e-3;
}

template <class T>
static void baselines(Buffers<T>& d, double want, int b) {
  const std::size_t grid = vector_grid(d.n, b);
  char name[96];
  double us = median_us([&] {
    CK(cudaMemsetAsync(d.out, 0, sizeof(T)));
    warp_shuffle_vectorized<T, ops::Sum><<<grid, b, 32 * sizeof(T)>>>(d.in, d.out, d.n, NoProbe{}, (T*)nullptr);
  });
  std::snprintf(name, sizeof name, "warp-shuffle-vectorized b%d", b);
  report(name, d.n, d.n * sizeof(T), us, close(d.result(), want));
  us = median_us([&] {
    vectorized_ordered<T, ops::Sum><<<grid, b, 32 * sizeof(T)>>>(d.in, d.out, d.n, NoProbe{}, d.partials, d.retired);
  });
  std::snprintf(name, sizeof name, "vectorized-ordered b%d", b);
  report(name, d.n, d.n * sizeof(T), us, close(d.result(), want));
}

template <class T>
static void cluster_run(Buffers<T>& d, double want, int b, int c, bool fit) {
  std::size_t grid = vector_grid(d.n, b);
  grid = (grid + c - 1) / c * c;
  cudaLaunchConfig_t config{};
  if (fit) {  // as many clusters as fit at once, when fewer than the grid asks
    config.gridDim = dim3(unsigned(grid));
    config.blockDim = dim3(unsigned(b));
    config.dynamicSmemBytes = 32 * sizeof(T);
    cudaLaunchAttribute a{};
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = unsigned(c);
    a.val.clusterDim.y = a.val.clusterDim.z = 1;
    config.attrs = &a;
    config.numAttrs = 1;
    int clusters = 0;
    CK(cudaOccupancyMaxActiveClusters(&clusters, cluster_dsmem_streaming<T, ops::Sum, NoProbe>, &config));
    grid = std::min(grid, std::size_t(clusters) * c);
  }
  config.gridDim = dim3(unsigned(grid));
  config.blockDim = dim3(unsigned(b));
  config.dynamicSmemBytes = 32 * sizeof(T);
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = unsigned(c);
  attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  const double us = median_us([&] {
    CK(cudaLaunchKernelEx(&config, cluster_dsmem_streaming<T, ops::Sum, NoProbe>, (const T*)d.in, d.out, d.n, NoProbe{},
                          d.partials, d.retired));
  });
  char name[96];
  std::snprintf(name, sizeof name, "cluster-dsmem-streaming b%d c%d grid%zu%s", b, c, grid, fit ? " fit" : "");
  report(name, d.n, d.n * sizeof(T), us, close(d.result(), want));
}

template <class T, int kTile, int kStages>
static void bulk_run(Buffers<T>& d, double want, int b) {
  const int smem = kTile * kStages;
  auto* kernel = bulk_async_streaming<T, ops::Sum, NoProbe, kTile, kStages>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, b, smem));
  const std::size_t tiles = (d.n * sizeof(T) + kTile - 1) / kTile;
  const std::size_t grid = std::min<std::size_t>(tiles, std::size_t(per_sm) * g_sms);
  const double us = median_us([&] {
    CK(cudaMemsetAsync(d.out, 0, 16));
    kernel<<<grid, b, smem>>>(d.in, d.out, d.n, NoProbe{}, (T*)nullptr);
  });
  char name[96];
  std::snprintf(name, sizeof name, "bulk-streaming b%d tile%dK st%d (%d/SM)", b, kTile / 1024, kStages, per_sm);
  report(name, d.n, d.n * sizeof(T), us, close(d.result(), want));
}

template <class T>
static void bulk_teaching(Buffers<T>& d, double want, int b) {
  const int smem = kBulkStages * b * 16;
  auto* kernel = bulk_async<T, ops::Sum, NoProbe>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBulkStages * 1024 * 16));
  const std::size_t grid = vector_grid(d.n, b);
  const double us = median_us([&] {
    CK(cudaMemsetAsync(d.out, 0, 16));
    kernel<<<grid, b, smem>>>(d.in, d.out, d.n, NoProbe{}, (T*)nullptr);
  });
  char name[96];
  std::snprintf(name, sizeof name, "bulk-async (teaching) b%d", b);
  report(name, d.n, d.n * sizeof(T), us, close(d.result(), want));
}

static void ints(std::size_t n) {
  std::mt19937 rng(53);
  std::vector<int> h(n);
  double want = 0;
  for (auto& x : h) x = int(rng() % 2001) - 1000, want += x;
  Buffers<int> d(h);
  for (int b : {256, 1024}) {
    const std::size_t grid = vector_grid(n, b);
    const double us = median_us([&] {
      CK(cudaMemsetAsync(d.out, 0, sizeof(int)));
      redux_sync_streaming<int, ops::Sum><<<grid, b, 32 * sizeof(int)>>>(d.in, d.out, n, NoProbe{}, (int*)nullptr);
    });
    char name[96];
    std::snprintf(name, sizeof name, "redux-sync-streaming b%d", b);
    report(name, n, n * sizeof(int), us, close(d.result(), want));
    baselines(d, want, b);
  }
}

static void floats(std::size_t n) {
  std::mt19937 rng(54);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> h(n);
  double want = 0;
  for (auto& x : h) x = u(rng), want += x;
  Buffers<float> d(h);
  for (int b : {256, 1024}) {
    baselines(d, want, b);
    for (int c : {2, 4, 8}) cluster_run(d, want, b, c, false), cluster_run(d, want, b, c, true);
  }
  for (int b : {256, 1024}) {
    bulk_run<float, 16384, 2>(d, want, b);
    bulk_run<float, 32768, 2>(d, want, b);
    bulk_run<float, 32768, 3>(d, want, b);
    bulk_run<float, 24576, 2>(d, want, b);
    bulk_run<float, 49152, 2>(d, want, b);
    bulk_run<float, 16384, 3>(d, want, b);
    bulk_run<float, 8192, 2>(d, want, b);
  }
}

// One bulk variant at 2^28 floats, for Nsight Compute: streaming_proto bulk TILE STAGES BLOCK
// (TILE x STAGES one of 32768 x 2, 32768 x 4, 16384 x 4).
static int one_bulk(int tile, int stages, int b) {
  std::vector<float> h(std::size_t(1) << 28, 1.0f);
  Buffers<float> d(h);
  const double want = double(h.size());
  if (tile == 32768 && stages == 2)
    bulk_run<float, 32768, 2>(d, want, b);
  else if (tile == 32768 && stages == 4)
    bulk_run<float, 32768, 4>(d, want, b);
  else if (tile == 16384 && stages == 4)
    bulk_run<float, 16384, 4>(d, want, b);
  else
    return std::printf("no such variant\n"), 2;
  return 0;
}

int main(int argc, char** argv) {
  const DeviceFacts dev = device_facts();
  g_sms = dev.sms;
  g_peak = dev.peak;
  std::printf("%s, %d SMs, peak %.0f GB/s\n", dev.prop.name, g_sms, g_peak);
  if (argc == 5 && std::string(argv[1]) == "bulk")
    return one_bulk(std::atoi(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]));
  for (int e : {20, 28}) {
    ints(std::size_t(1) << e);
    floats(std::size_t(1) << e);
  }
  return 0;
}
