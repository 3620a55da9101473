// Issue 53: bulk-async-streaming with its tiles handed out by a counter. On the slower H100s
// bulk-async-streaming misses 93 % at 2^28 by 0.4-0.7 points while work-queue, which hands its
// chunks out as blocks free up, reads about 2 more; more, shorter blocks won back part of it
// (docs/benchmarks.md, "The streaming kernels in more, shorter blocks"). Here thread 0 asks a
// counter for the tile that refills a buffer while the block folds that buffer, and tells the
// block which tile it brought through the buffer's mbarrier. An exploration, not part of the app.
// On H100s (2026-12-06) a ticket a tile read 84.8-86.2 % at 2^28 against the catalog's 93.3-94.4 %,
// asked one to four refills ahead alike, 82.9-86.2 % with 1 to 16 tiles a ticket; the same kernel
// by grid stride too: its ring began 48 bytes past a 128-byte boundary (16 off a 32-byte one:
// the static arrays before it), and rounded up to one it read as fast as the catalog's (kAlign).
// Build from the repository root:
//   nvcc -arch=sm_90 -O3 -std=c++20 -I. -o streaming_queue scripts/experiments/streaming_queue.cu
//   ./streaming_queue [log2 n ...]   (default 28 24)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "experiments/perf_common.cuh"
#include "kernels/shuffle.cuh"

using namespace rl::kernels;
namespace ops = rl::ops;

static double g_peak = 0;  // GB/s
static int g_sms = 0;

// The ring of bulk_ring (kernels/shuffle.cuh), its tiles from a counter past the first kStages a
// block (blockIdx.x + s * gridDim.x, which need none). tile_of[s] names the tile buffer s holds:
// thread 0 stores it before the arrival that completes the buffer's phase (a release at the
// block's scope), and the waiters read it after their wait (an acquire). A tile past the end
// arrives with no copy, and the block stops there; tickets rise, so every tile before it held data.
// kAhead: tickets thread 0 holds asked before their refill. kGroup: tiles a ticket (ticket t:
// tiles ring + t x kGroup, ... in order), so the counter is asked once for kGroup refills.
// kAlign: the ring's first byte rounded up to a multiple of kAlign bytes of shared memory (0: where
// the dynamic shared memory begins, after the static arrays).
template <class T, class Op, int kStages, int kTileVectors, int kAhead, int kGroup = 1, int kAlign = 0>
__global__ void bulk_queue(const T* __restrict__ in, std::size_t n, QueueSlot<T> q) {
  using V = typename Vec16<T>::type;
  constexpr unsigned per = sizeof(V) / sizeof(T), cells = kBulkReduceBytes / sizeof(T);
  __shared__ alignas(16) T staging[cells];
  __shared__ T warp_totals[32];
  __shared__ std::uint64_t full[kStages];
  __shared__ std::size_t tile_of[kStages];
  V* tiles = shared_array<V>();
  if constexpr (kAlign > 0) {
    const unsigned at = unsigned(__cvta_generic_to_shared(tiles));
    tiles += ((kAlign - at % kAlign) % kAlign) / sizeof(V);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0 && n == 3)
    printf("bulk_queue stages %d group %d align %d: the ring at shared byte %u\n", kStages, kGroup, kAlign,
           unsigned(__cvta_generic_to_shared(tiles)));
  const unsigned tid = threadIdx.x;
  const std::size_t vectors = n / per, count = (vectors + kTileVectors - 1) / kTileVectors;
  const V* in16 = reinterpret_cast<const V*>(in);
  const auto held = [&](std::size_t tile) {
    return vectors - tile * kTileVectors < std::size_t(kTileVectors) ? vectors - tile * kTileVectors
                                                                     : std::size_t(kTileVectors);
  };
  const auto start = [&](std::size_t tile, int s) {  // thread 0 only
    tile_of[s] = tile;
    if (tile >= count) {
      (void)ptx::mbarrier_arrive(&full[s]);  // no copy: the phase completes on the arrival alone
      return;
    }
    const auto bytes = unsigned(held(tile) * sizeof(V));
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], bytes);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tiles + s * kTileVectors, in16 + tile * kTileVectors,
                       bytes, &full[s]);
  };
  bool more = blockIdx.x + std::size_t(kStages - 1) * gridDim.x < count;  // thread 0: asks the counter
  if (tid == 0) {
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
    for (int s = 0; s < kStages; ++s) start(blockIdx.x + std::size_t(s) * gridDim.x, s);
  }
  __syncthreads();

  unsigned long long ahead[kAhead];  // thread 0: tickets asked, oldest first; they rise
  if (tid == 0 && more && kGroup)
    for (int i = 0; i < kAhead; ++i) ahead[i] = atomicAdd(q.taken, 1ull);
  int used = 0;  // thread 0: tiles of ahead[0] started
  T v = Op::template identity<T>();
  for (std::size_t k = 0;; ++k) {
    const int s = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], std::uint32_t(k / kStages) & 1u)) {}
    const std::size_t tile = tile_of[s];
    if (tile >= count) break;
    const V* buffer = tiles + s * kTileVectors;
    const std::size_t here = held(tile);
    for (std::size_t j = tid; j < here; j += blockDim.x) v = fold<Op>(v, buffer[j]);
    __syncthreads();  // every thread has read buffer s and tile_of[s]: both may be refilled
    if (tid == 0 && more) {
      const std::size_t next = kGroup ? std::size_t(kStages) * gridDim.x + ahead[0] * kGroup + std::size_t(used)
                                      : tile + std::size_t(kStages) * gridDim.x;  // kGroup 0: by grid stride
      more = next < count;
      if (kGroup && ++used == kGroup) {
        used = 0;
#pragma unroll
        for (int i = 0; i + 1 < kAhead; ++i) ahead[i] = ahead[i + 1];
        if (more) ahead[kAhead - 1] = atomicAdd(q.taken, 1ull);
      }
      ptx::fence_proxy_async(ptx::space_shared);
      start(next, s);
    }
  }
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + tid, threads = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t j = per * vectors + gid; j < n; j += threads) v = Op{}(v, in[j]);  // the scalar tail
  NoProbe probe;
  int stage = 1;
  v = block_shuffle<T, Op>(v, warp_totals, probe, stage);
  if (tid == 0) bulk_hand_out<T, Op>(v, q.out, staging);
  if (tid == 0 && blockIdx.x == 0 && q.next_out) {
    for (unsigned i = 0; i < cells; ++i) q.next_out[i] = Op::template identity<T>();
    *q.next_taken = 0;
  }
}

struct Buffers {
  float* in = nullptr;
  float* out = nullptr;  // two 16-byte slots: launch k reduces into slot k % 2 and readies the other
  float* partials = nullptr;
  unsigned* retired = nullptr;
  unsigned long long* taken = nullptr;
  std::size_t n = 0;
  double want = 0, mag = 0;
  explicit Buffers(std::size_t count) : n(count) {
    CK(cudaMalloc(&in, n * sizeof(float)));
    upload_random(in, n);
    CK(cudaMalloc(&out, 64 * sizeof(float)));
    CK(cudaMemset(out, 0, 64 * sizeof(float)));
    CK(cudaMalloc(&partials, (1 << 20) * sizeof(float)));
    CK(cudaMalloc(&retired, sizeof(unsigned)));
    CK(cudaMemset(retired, 0, sizeof(unsigned)));
    CK(cudaMalloc(&taken, 2 * sizeof(unsigned long long)));
    CK(cudaMemset(taken, 0, 2 * sizeof(unsigned long long)));
    std::vector<float> h(n);
    CK(cudaMemcpy(h.data(), in, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (float x : h) want += double(x), mag += std::abs(double(x));
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  ~Buffers() { cudaFree(in), cudaFree(out), cudaFree(partials), cudaFree(retired), cudaFree(taken); }
  // The slot the last of median_us's 28 launches (k = 27) reduced into; then both slots cleared.
  bool check(int slot) {
    float r = 0;
    CK(cudaMemcpy(&r, out + slot, sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemset(out, 0, 64 * sizeof(float)));
    CK(cudaMemset(taken, 0, 2 * sizeof(unsigned long long)));
    return std::abs(double(r) - want) <= 1e-3 * std::abs(want) + 1e-7 * mag + 1e-6;  // streaming_waves.cu, and n = 3
  }
};

static void report(const char* kernel, int b, std::size_t grid, const Buffers& d, double us, bool ok) {
  const double gbs = double(d.n * sizeof(float)) / us / 1000.0;
  std::printf("%-34s b%-5d grid %6zu %10.2f us %7.1f GB/s %5.1f %% %s\n", kernel, b, grid, us, gbs,
              100.0 * gbs / g_peak, ok ? "ok" : "WRONG");
  std::fflush(stdout);
}

template <class Kernel>
static std::size_t one_wave(Kernel kernel, int b, int smem) {
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));  // past 48 KB with the static
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, b, smem));
  return std::size_t(per_sm) * g_sms;
}

// The catalog's kernel (kernels/shuffle.cuh) in one wave, as the bench launches it.
template <int kTile, int kStages>
static void catalog_bulk(Buffers& d, int b) {
  auto* kernel = bulk_async_streaming<float, ops::Sum, NoProbe, kTile, kStages>;
  const std::size_t tiles = (d.n * sizeof(float) + kTile - 1) / kTile;
  const int smem = ring_bytes(std::size_t(kTile) * kStages);
  const std::size_t grid = std::min(tiles, one_wave(kernel, b, smem));
  const double us = median_us(
      [&](int k) { kernel<<<grid, b, smem>>>(d.in, d.out + 4 * (k % 2), d.n, NoProbe{}, d.out + 4 * ((k + 1) % 2)); });
  char name[64];
  std::snprintf(name, sizeof name, "bulk-async-streaming %dKx%d", kTile / 1024, kStages);
  report(name, b, grid, d, us, d.check(4 * (27 % 2)));
}

template <int kTile, int kStages, int kAhead, int kGroup = 1, int kAlign = 0>
static void queued_bulk(Buffers& d, int b) {
  auto* kernel = bulk_queue<float, ops::Sum, kStages, kTile / 16, kAhead, kGroup, kAlign>;
  const std::size_t tiles = (d.n * sizeof(float) + kTile - 1) / kTile;
  const int smem = kTile * kStages + kAlign;
  const std::size_t grid = std::min(tiles, one_wave(kernel, b, smem));
  const double us = median_us([&](int k) {
    const QueueSlot<float> q{d.out + 4 * (k % 2), d.taken + k % 2, d.out + 4 * ((k + 1) % 2), d.taken + (k + 1) % 2};
    kernel<<<grid, b, smem>>>(d.in, d.n, q);
  });
  char name[80];
  std::snprintf(name, sizeof name, "bulk queue %dKx%d, %d ahead, %d a ticket, align %d", kTile / 1024, kStages, kAhead,
                kGroup, kAlign);
  report(name, b, grid, d, us, d.check(4 * (27 % 2)));
}

static void work_queue_wave(Buffers& d, int b) {
  const std::size_t grid = std::size_t(2048 / b) * g_sms;
  const double us = median_us([&](int k) {
    const QueueSlot<float> q{d.out + 4 * (k % 2), d.taken + k % 2, d.out + 4 * ((k + 1) % 2), d.taken + (k + 1) % 2};
    work_queue<float, ops::Sum><<<grid, b, 32 * sizeof(float)>>>(d.in, d.n, NoProbe{}, q);
  });
  report("work-queue", b, grid, d, us, d.check(4 * (27 % 2)));
}

static void pass(Buffers& d) {
  for (int b : {1024, 256}) work_queue_wave(d, b);
  for (int b : {1024, 256}) catalog_bulk<32768, 2>(d, b);
  for (int b : {1024, 256}) {
    queued_bulk<32768, 2, 1, 0>(d, b);
    queued_bulk<32768, 2, 1, 0, 128>(d, b);
    queued_bulk<32768, 2, 1, 1, 128>(d, b);
    queued_bulk<16384, 3, 1, 0>(d, b);  // three and four buffers, where the ring starts and on 128 bytes
    queued_bulk<16384, 3, 1, 0, 128>(d, b);
    queued_bulk<16384, 4, 1, 0>(d, b);
    queued_bulk<16384, 4, 1, 0, 128>(d, b);
    queued_bulk<16384, 4, 1, 1, 128>(d, b);
  }
}

int main(int argc, char** argv) {
  const DeviceFacts dev = device_facts();
  g_sms = dev.sms;
  g_peak = dev.peak;
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty()) sizes = {28, 24};
  std::printf("%s, %d SMs, peak %.0f GB/s, floats, median of 25 launches back to back\n", dev.prop.name, g_sms, g_peak);
  for (int e : sizes) {
    Buffers d(std::size_t(1) << e);
    for (int p = 1; p <= 2; ++p) {
      std::printf("-- n = 2^%d, pass %d\n", e, p);
      pass(d);
    }
  }
  for (std::size_t n :
       {std::size_t(3), std::size_t(1000003), (std::size_t(1) << 20) + 3}) {  // checks: scalar tails, short tiles
    Buffers d(n);
    std::printf("-- n = %zu, a check\n", n);
    pass(d);
  }
  return 0;
}
