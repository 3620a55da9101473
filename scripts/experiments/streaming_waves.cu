// Issue 53: the grid-stride streaming kernels (kernels/shuffle.cuh) over grids of 1 to 32 waves,
// beside work-queue in its one wave. On an H100 the one-wave grid-stride kernels stay 1.8-2.1
// points under work-queue (docs/benchmarks.md, "Issue 53 on H100s"); this asks whether more,
// shorter blocks (the GPU handing an SM the next block as one leaves) close that. An exploration,
// not part of the app. Build from the repository root:
//   nvcc -arch=sm_90 -O3 -std=c++20 -I. -o streaming_waves scripts/experiments/streaming_waves.cu
//   ./streaming_waves [log2 n, default 28] [vectors [floats] | bulk]
// `vectors`: grids that give each thread 32, 16, 8, 4 or 2 vectors (beside one wave) in place of
// 1 to 32 waves; a third argument leaves the ints out. `bulk`: bulk-async-streaming's kernel with
// one or two 32 KB buffers, a tile, two or four a block or one wave, in blocks of 128 to 512.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "experiments/perf_common.cuh"
#include "kernels/shuffle.cuh"

using namespace rl::kernels;
namespace ops = rl::ops;

static double g_peak = 0;  // GB/s
static int g_sms = 0;

template <class T>
struct Buffers {
  T* in = nullptr;
  T* out = nullptr;  // two 16-byte slots: launch k combines into slot k % 2 and readies the other
  T* partials = nullptr;
  unsigned* retired = nullptr;
  unsigned long long* taken = nullptr;
  std::size_t n = 0;
  explicit Buffers(std::size_t count) : n(count) {
    CK(cudaMalloc(&in, n * sizeof(T)));
    upload_random(in, n);
    CK(cudaMalloc(&out, 64 * sizeof(T)));
    CK(cudaMemset(out, 0, 64 * sizeof(T)));
    CK(cudaMalloc(&partials, (1 << 20) * sizeof(T)));
    CK(cudaMalloc(&retired, sizeof(unsigned)));
    CK(cudaMemset(retired, 0, sizeof(unsigned)));
    CK(cudaMalloc(&taken, 2 * sizeof(unsigned long long)));
    CK(cudaMemset(taken, 0, 2 * sizeof(unsigned long long)));
  }
  T result(int slot) const {
    T r{};
    CK(cudaMemcpy(&r, out + slot, sizeof(T), cudaMemcpyDeviceToHost));
    return r;
  }
};

// The sum on the host, in double, and the sum of the magnitudes it rounds against.
struct Want {
  double sum = 0, mag = 0;
};

template <class T>
static Want host_sum(const Buffers<T>& d) {
  std::vector<T> h(d.n);
  CK(cudaMemcpy(h.data(), d.in, d.n * sizeof(T), cudaMemcpyDeviceToHost));
  Want w;
  for (T x : h) w.sum += double(x), w.mag += std::abs(double(x));
  return w;
}

// Ints exactly. Floats within 1e-3 of the sum plus 1e-7 of the magnitudes: this input's float sum
// cancels to about 6e3 out of 1.3e8, so the order of the adds alone moves it by several units
// (a CPU fold in 65536 blocks of 256's order is 7.3 off; docs/benchmarks.md).
template <class T>
static bool close(T got, const Want& want) {
  if constexpr (std::is_same_v<T, int>) return double(got) == want.sum;
  return std::abs(double(got) - want.sum) <= 1e-3 * std::abs(want.sum) + 1e-7 * want.mag;
}

static void report(const char* kernel, const char* type, int b, std::size_t grid, double waves, std::size_t bytes,
                   double us, bool ok) {
  const double gbs = double(bytes) / us / 1000.0;
  std::printf("%-24s %-5s b%-4d grid %6zu (%5.2f waves) %9.2f us %7.1f GB/s %5.1f %% %s\n", kernel, type, b, grid,
              waves, us, gbs, 100.0 * gbs / g_peak, ok ? "ok" : "WRONG");
  std::fflush(stdout);
}

// The grid: w waves of blocks (w > 0), or as many blocks as give each thread -w 16-byte vectors.
template <class T>
static std::size_t grid_of(const Buffers<T>& d, int b, int w) {
  const std::size_t wave = std::size_t(2048 / b) * g_sms;
  if (w > 0) return wave * w;
  const std::size_t vectors = d.n * sizeof(T) / 16, share = std::size_t(-w) * b;
  return std::max<std::size_t>(2, (vectors + share - 1) / share + 1) / 2 * 2;  // whole clusters of 2
}

static double waves_of(std::size_t grid, int b) { return double(grid) / double(std::size_t(2048 / b) * g_sms); }

template <class T>
static void atomic_kernels(Buffers<T>& d, const Want& want, const char* type, int b, int w) {
  const std::size_t grid = grid_of(d, b, w);
  const std::size_t smem = 32 * sizeof(T);
  double us = median_us([&](int k) {
    warp_shuffle_vectorized<T, ops::Sum>
        <<<grid, b, smem>>>(d.in, d.out + 4 * (k % 2), d.n, NoProbe{}, d.out + 4 * ((k + 1) % 2));
  });
  report("warp-shuffle-vectorized", type, b, grid, waves_of(grid, b), d.n * sizeof(T), us,
         close(d.result(4 * (27 % 2)), want));
  if constexpr (std::is_same_v<T, int>) {
    us = median_us([&](int k) {
      redux_sync_streaming<T, ops::Sum>
          <<<grid, b, smem>>>(d.in, d.out + 4 * (k % 2), d.n, NoProbe{}, d.out + 4 * ((k + 1) % 2));
    });
    report("redux-sync-streaming", type, b, grid, waves_of(grid, b), d.n * sizeof(T), us,
           close(d.result(4 * (27 % 2)), want));
  }
  us = median_us([&](int) {
    vectorized_ordered<T, ops::Sum><<<grid, b, smem>>>(d.in, d.out, d.n, NoProbe{}, d.partials, d.retired);
  });
  report("vectorized-ordered", type, b, grid, waves_of(grid, b), d.n * sizeof(T), us, close(d.result(0), want));
}

template <class T>
static void cluster_kernel(Buffers<T>& d, const Want& want, const char* type, int b, int w) {
  const std::size_t grid = grid_of(d, b, w);  // even: whole clusters of 2
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(grid));
  config.blockDim = dim3(unsigned(b));
  config.dynamicSmemBytes = 32 * sizeof(T);
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = 2;
  attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  const double us = median_us([&](int) {
    CK(cudaLaunchKernelEx(&config, cluster_dsmem_streaming<T, ops::Sum, NoProbe>, (const T*)d.in, d.out, d.n, NoProbe{},
                          d.partials, d.retired));
  });
  report("cluster-dsmem-streaming", type, b, grid, waves_of(grid, b), d.n * sizeof(T), us, close(d.result(0), want));
}

template <class T>
static void bulk_kernel(Buffers<T>& d, const Want& want, const char* type, int b, int w) {
  constexpr int kTile = 32768, kStages = 2;
  auto* kernel = bulk_async_streaming<T, ops::Sum, NoProbe, kTile, kStages>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kTile * kStages));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, b, kTile * kStages));
  const std::size_t wave = std::size_t(per_sm) * g_sms;
  // w < 0: -w vectors a thread, in tiles: (-w x 16 x b) / kTile tiles a block, at least one.
  const std::size_t tiles = (d.n * sizeof(T) + kTile - 1) / kTile;
  const std::size_t per = std::max<std::size_t>(1, std::size_t(w < 0 ? -w : 1) * 16 * b / kTile);
  const std::size_t grid = w > 0 ? std::min(tiles, wave * w) : (tiles + per - 1) / per;
  const double us = median_us([&](int k) {
    kernel<<<grid, b, kTile * kStages>>>(d.in, d.out + 4 * (k % 2), d.n, NoProbe{}, d.out + 4 * ((k + 1) % 2));
  });
  report("bulk-async-streaming", type, b, grid, double(grid) / double(wave), d.n * sizeof(T), us,
         close(d.result(4 * (27 % 2)), want));
}

template <class T>
static void queue_kernel(Buffers<T>& d, const Want& want, const char* type, int b) {
  const std::size_t wave = std::size_t(2048 / b) * g_sms;
  const double us = median_us([&](int k) {
    const QueueSlot<T> q{d.out + 4 * (k % 2), d.taken + k % 2, d.out + 4 * ((k + 1) % 2), d.taken + (k + 1) % 2};
    work_queue<T, ops::Sum><<<wave, b, 32 * sizeof(T)>>>(d.in, d.n, NoProbe{}, q);
  });
  report("work-queue", type, b, wave, 1, d.n * sizeof(T), us, close(d.result(4 * (27 % 2)), want));
}

// bulk-async-streaming's kernel with kStages buffers of 32 KB, `per` tiles a block (0: one wave).
template <int kStages>
static void bulk_tiles(Buffers<float>& d, const Want& want, int b, std::size_t per) {
  constexpr int kTile = 32768;
  auto* kernel = bulk_async_streaming<float, ops::Sum, NoProbe, kTile, kStages>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kTile * kStages));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, b, kTile * kStages));
  const std::size_t wave = std::size_t(per_sm) * g_sms, tiles = (d.n * sizeof(float) + kTile - 1) / kTile;
  const std::size_t grid = per ? (tiles + per - 1) / per : std::min(tiles, wave);
  const double us = median_us([&](int k) {
    kernel<<<grid, b, kTile * kStages>>>(d.in, d.out + 4 * (k % 2), d.n, NoProbe{}, d.out + 4 * ((k + 1) % 2));
  });
  char name[64];
  std::snprintf(name, sizeof name, "bulk %d stage%s %zu tile%s", kStages, kStages > 1 ? "s" : "", per,
                per == 1 ? "" : "s");
  report(per ? name : (kStages == 1 ? "bulk 1 stage, one wave" : "bulk 2 stages, one wave"), "float", b, grid,
         double(grid) / double(wave), d.n * sizeof(float), us, close(d.result(4 * (27 % 2)), want));
}

// `bulk` mode: a tile, two or four a block, or one wave, with one or two buffers, blocks of 128 to 512.
static void bulk_sweep(std::size_t n) {
  Buffers<float> d(n);
  const Want want = host_sum(d);
  for (int pass = 1; pass <= 2; ++pass) {
    std::printf("-- bulk tiles, float, n = 2^%d, pass %d\n", __builtin_ctzll(n), pass);
    queue_kernel(d, want, "float", 256);
    for (int b : {256, 128, 512})
      for (std::size_t per : {0, 1, 2, 4}) bulk_tiles<1>(d, want, b, per), bulk_tiles<2>(d, want, b, per);
  }
}

// Grids: waves from the list, then (with VECTORS) -v for v vectors a thread.
static std::vector<int> g_grids = {1, 2, 4, 8, 16, 32};

template <class T>
static void sweep(const char* type, std::size_t n) {
  Buffers<T> d(n);
  const Want want = host_sum(d);
  for (int pass = 1; pass <= 2; ++pass) {
    std::printf("-- %s, n = 2^%d, pass %d\n", type, __builtin_ctzll(n), pass);
    for (int b : {1024, 256}) {
      queue_kernel(d, want, type, b);
      for (int w : g_grids) {
        atomic_kernels(d, want, type, b, w);
        cluster_kernel(d, want, type, b, w);
        if constexpr (std::is_same_v<T, float>) bulk_kernel(d, want, type, b, w);
      }
    }
  }
}

int main(int argc, char** argv) {
  const DeviceFacts dev = device_facts();
  g_sms = dev.sms;
  g_peak = dev.peak;
  const int e = argc > 1 ? std::atoi(argv[1]) : 28;
  if (argc > 2 && std::string(argv[2]) == "vectors") g_grids = {1, -32, -16, -8, -4, -2};
  std::printf("%s, %d SMs, peak %.0f GB/s, n = 2^%d, median of 25 launches back to back\n", dev.prop.name, g_sms,
              g_peak, e);
  if (argc > 2 && std::string(argv[2]) == "bulk") return bulk_sweep(std::size_t(1) << e), 0;
  sweep<float>("float", std::size_t(1) << e);
  if (argc <= 3) sweep<int>("int", std::size_t(1) << e);
  return 0;
}
