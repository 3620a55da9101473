// Experiment behind docs/perf-notes.md ("Large arrays"): block size, loads in flight, load
// hints, access layout and how the result is initialised, for the vectorised single-pass sum
// at 2^24..2^28, against CUB on the same data, samples interleaved round-robin so drift hits
// every variant alike. `big_n SAMPLES waves` and `big_n SAMPLES tickets` run the later sets
// (several waves of blocks; work tickets from a counter, from 2^20). Not a test: configure
// with -DREDLAB_PERF=ON (target big_n), or build alone with
//   nvcc -O3 -std=c++17 -arch=sm_90 -I kernels experiments/big_n.cu -o big_n
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "reduce_ops.h"
#include "shuffle.cuh"
#include "perf_common.cuh"

using namespace rl;
using kernels::fold;
using kernels::Vec16;

enum class Hint { Plain, L2Prefetch256, Streaming };
enum class Layout { GridStride, WarpChunk, BlockChunk };

template <Hint h>
__device__ __forceinline__ float4 load(const float4* p) {
  if constexpr (h == Hint::Plain) return *p;
  else if constexpr (h == Hint::Streaming) return __ldcs(p);
  else {
    float4 r;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
        : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(p));
    return r;
  }
}
template <Hint h>
__device__ __forceinline__ int4 load(const int4* p) {
  if constexpr (h == Hint::Plain) return *p;
  else if constexpr (h == Hint::Streaming) return __ldcs(p);
  else {
    int4 r;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4];"
        : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w) : "l"(p));
    return r;
  }
}

template <class T>
__device__ T block_sum(T v) {
  __shared__ T warp_sums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : T(0);
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  }
  return v;
}

// K loads in flight per thread. `next`, when set, is the result slot of the following launch:
// block 0 zeroes it, so no memset is needed between launches.
template <class T, int K, Layout L, Hint H>
__global__ void variant(const T* __restrict__ in, T* out, T* next, std::size_t n) {
  using V = typename Vec16<T>::type;
  constexpr std::size_t per = sizeof(V) / sizeof(T);
  const std::size_t vectors = n / per;
  const V* in16 = reinterpret_cast<const V*>(in);
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  std::size_t i, end = vectors, stride, step;  // first index, batch stride (between the K), batch step
  if constexpr (L == Layout::GridStride) {
    i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x, stride = threads, step = K * threads;
  } else if constexpr (L == Layout::WarpChunk) {
    const std::size_t gw = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    i = gw * K * 32 + threadIdx.x % 32, stride = 32, step = K * threads;
  } else {
    const std::size_t chunk = (vectors + gridDim.x - 1) / gridDim.x;
    i = blockIdx.x * chunk + threadIdx.x, end = (blockIdx.x + 1) * chunk < vectors ? (blockIdx.x + 1) * chunk : vectors;
    stride = blockDim.x, step = K * std::size_t(blockDim.x);
  }
  T v = 0;
  for (; i + (K - 1) * stride < end; i += step) {
    V q[K];
#pragma unroll
    for (int k = 0; k < K; ++k) q[k] = load<H>(in16 + i + k * stride);
#pragma unroll
    for (int k = 0; k < K; ++k) v = fold<ops::Sum>(v, q[k]);
  }
  // The rest, one vector at a time (only for the experiment: the product uses a cascade).
  for (int k = 0; k < K; ++k, i += stride)
    if (i < end) v = fold<ops::Sum>(v, in16[i]);
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t j = per * vectors + gid; j < n; j += threads) v += in[j];
  v = block_sum(v);
  if (threadIdx.x == 0) {
    atomicAdd(out, v);
    if (next && blockIdx.x == 0) *next = T(0);
  }
}

// Third set (`big_n SAMPLES tickets`): one resident wave, but blocks take work from a counter,
// K vectors a thread (K x block vectors) at a time, so an SM that streams faster takes more.
// A block's first ticket is its index; later ones come from the counter, offset by the grid.
// Thread 0 fetches the next ticket while the block loads the current one. `count` is zero at
// launch; block 0 zeroes `next_count` for the following launch.
template <class T, int K>
__global__ void tickets(const T* __restrict__ in, T* out, T* next, std::size_t n, unsigned long long* count,
                        unsigned long long* next_count) {
  using V = typename Vec16<T>::type;
  constexpr std::size_t per = sizeof(V) / sizeof(T);
  const std::size_t vectors = n / per;
  const V* in16 = reinterpret_cast<const V*>(in);
  const std::size_t chunk = std::size_t(K) * blockDim.x;  // vectors a ticket covers
  const std::size_t chunks = (vectors + chunk - 1) / chunk;
  __shared__ unsigned long long ticket[2];
  if (threadIdx.x == 0) ticket[0] = blockIdx.x;
  __syncthreads();
  T v = 0;
  for (int b = 0;; b ^= 1) {
    const std::size_t c = ticket[b];
    if (c >= chunks) break;
    if (threadIdx.x == 0) ticket[b ^ 1] = gridDim.x + atomicAdd(count, 1ull);
    std::size_t i = c * chunk + threadIdx.x;
    if (c * chunk + chunk <= vectors) {
      V q[K];
#pragma unroll
      for (int k = 0; k < K; ++k) q[k] = in16[i + k * blockDim.x];
#pragma unroll
      for (int k = 0; k < K; ++k) v = fold<ops::Sum>(v, q[k]);
    } else {
      for (; i < vectors; i += blockDim.x) v = fold<ops::Sum>(v, in16[i]);
    }
    __syncthreads();  // the next ticket is visible, and nobody still reads this one
  }
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t j = per * vectors + gid; j < n; j += threads) v += in[j];
  v = block_sum(v);
  if (threadIdx.x == 0) {
    atomicAdd(out, v);
    if (blockIdx.x == 0) *next = T(0), *next_count = 0;
  }
}

enum class Init { Memset, NextSlot };

struct Variant {
  const char* name;
  int block, per_sm, k;
  Layout layout;
  Hint hint;
  Init init;
  int waves = 1;  // grid = blocks that fit at once x this: later waves go to whichever SM frees first
  int tickets = 0;  // vectors a thread loads per ticket; 0: no tickets, a fixed share
};

const Variant kVariants[] = {
    {"b256", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::Memset},  // the product's kernel today
    {"b256-next", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::NextSlot},
    {"b512", 512, 4, 8, Layout::GridStride, Hint::Plain, Init::Memset},
    {"b1024", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::Memset},
    {"b1024-next", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot},
    {"b1024x1", 1024, 1, 8, Layout::GridStride, Hint::Plain, Init::Memset},
    {"b256-l2pf", 256, 8, 8, Layout::GridStride, Hint::L2Prefetch256, Init::Memset},
    {"b256-cs", 256, 8, 8, Layout::GridStride, Hint::Streaming, Init::Memset},
    {"b256-warpchunk", 256, 8, 8, Layout::WarpChunk, Hint::Plain, Init::Memset},
    {"b256-blockchunk", 256, 8, 8, Layout::BlockChunk, Hint::Plain, Init::Memset},
    {"b256-k4", 256, 8, 4, Layout::GridStride, Hint::Plain, Init::Memset},
    {"b256-k16x4", 256, 4, 16, Layout::GridStride, Hint::Plain, Init::Memset},
    {"b1024-l2pf-next", 1024, 2, 8, Layout::GridStride, Hint::L2Prefetch256, Init::NextSlot},
    {"b1024-warpchunk-next", 1024, 2, 8, Layout::WarpChunk, Hint::Plain, Init::NextSlot},
};

// Second set (`big_n SAMPLES waves`): one resident wave with equal shares (the product's
// kernel) against several waves of blocks, as CUB launches, so faster SMs take more blocks.
const Variant kWaves[] = {
    {"b1024-next", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot},  // the product's
    {"b256-next", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::NextSlot},
    {"b256-stride-w4", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 4},
    {"b256-stride-w8", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 8},
    {"b256-chunk-w4", 256, 8, 8, Layout::BlockChunk, Hint::Plain, Init::NextSlot, 4},
    {"b256-chunk-w8", 256, 8, 8, Layout::BlockChunk, Hint::Plain, Init::NextSlot, 8},
    {"b256-chunk-w16", 256, 8, 8, Layout::BlockChunk, Hint::Plain, Init::NextSlot, 16},
    {"b256-chunk-w32", 256, 8, 8, Layout::BlockChunk, Hint::Plain, Init::NextSlot, 32},
    {"b1024-chunk-w8", 1024, 2, 8, Layout::BlockChunk, Hint::Plain, Init::NextSlot, 8},
    {"b1024-stride-w4", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 4},
};
// grid = resident blocks x waves; tickets: vectors a thread loads per ticket.
const Variant kTickets[] = {
    {"b1024-next", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot},  // the product's
    {"b256-next", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::NextSlot},
    {"t1024k8", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 1, 8},
    {"t1024k4", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 1, 4},
    {"t1024k2", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 1, 2},
    {"t1024k16", 1024, 2, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 1, 16},
    {"t256k8", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 1, 8},
    {"t256k4", 256, 8, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 1, 4},
    {"t512k8", 512, 4, 8, Layout::GridStride, Hint::Plain, Init::NextSlot, 1, 8},
};
const Variant* kVariantsInUse = kVariants;
int kCount = int(sizeof kVariants / sizeof kVariants[0]);

template <class T>
using Kernel = void (*)(const T*, T*, T*, std::size_t);

template <class T, int K>
Kernel<T> pick_k(Layout l, Hint h) {
  if (l == Layout::WarpChunk) return variant<T, K, Layout::WarpChunk, Hint::Plain>;
  if (l == Layout::BlockChunk) return variant<T, K, Layout::BlockChunk, Hint::Plain>;
  if (h == Hint::L2Prefetch256) return variant<T, K, Layout::GridStride, Hint::L2Prefetch256>;
  if (h == Hint::Streaming) return variant<T, K, Layout::GridStride, Hint::Streaming>;
  return variant<T, K, Layout::GridStride, Hint::Plain>;
}
template <class T>
using TicketKernel = void (*)(const T*, T*, T*, std::size_t, unsigned long long*, unsigned long long*);
template <class T>
TicketKernel<T> pick_tickets(int batches) {
  if (batches == 8) return tickets<T, 8>;
  if (batches == 4) return tickets<T, 4>;
  if (batches == 2) return tickets<T, 2>;
  return tickets<T, 16>;
}
template <class T>
const void* kernel_of(const Variant& v);
template <class T>
Kernel<T> pick(const Variant& v) {
  if (v.k == 4) return pick_k<T, 4>(v.layout, v.hint);
  if (v.k == 16) return pick_k<T, 16>(v.layout, v.hint);
  return pick_k<T, 8>(v.layout, v.hint);
}

template <class T>
const void* kernel_of(const Variant& v) {
  return v.tickets ? reinterpret_cast<const void*>(pick_tickets<T>(v.tickets)) : reinterpret_cast<const void*>(pick<T>(v));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class T>
void run_type(const char* tname, int sms, std::size_t l2, double peak_gbps, int samples) {
  const std::size_t max_n = std::size_t(1) << 28;
  T *in, *slots;
  void* flush;
  const std::size_t flush_bytes = 2 * l2;
  CK(cudaMalloc(&in, max_n * sizeof(T)));
  CK(cudaMalloc(&slots, 3 * sizeof(T)));
  CK(cudaMemset(slots, 0, 3 * sizeof(T)));
  unsigned long long* counts;
  CK(cudaMalloc(&counts, 3 * sizeof(unsigned long long)));
  CK(cudaMemset(counts, 0, 3 * sizeof(unsigned long long)));
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaMemset(flush, 1, flush_bytes));
  upload_random(in, max_n);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, z;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&z));
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, slots, max_n, st));
  CK(cudaMalloc(&temp, temp_bytes));

  std::vector<unsigned> grids(kCount);
  for (int k = 0; k < kCount; ++k) {
    int fit = 0;
    cudaFuncAttributes fa{};
    CK(cudaFuncGetAttributes(&fa, kernel_of<T>(kVariantsInUse[k])));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel_of<T>(kVariantsInUse[k]), kVariantsInUse[k].block, 0));
    grids[k] = unsigned(std::min(fit, kVariantsInUse[k].per_sm) * sms * kVariantsInUse[k].waves);
    std::printf("# %s %-22s regs %d, blocks/SM that fit %d, grid %u\n", tname, kVariantsInUse[k].name, fa.numRegs, fit, grids[k]);
  }
  std::printf("%s sum: median of %d cold samples, %% of the %.0f GB/s peak (us)\n%-6s %14s", tname, samples, peak_gbps, "n", "cub");
  for (int k = 0; k < kCount; ++k) std::printf(" %22s", kVariantsInUse[k].name);
  std::printf("\n");
  int launches = 0;
  const std::vector<int> sizes = kVariantsInUse == kTickets ? std::vector<int>{20, 22, 24, 25, 26, 27, 28}
                                                             : std::vector<int>{24, 26, 27, 28};
  for (int lg : sizes) {
    const std::size_t n = std::size_t(1) << lg;
    std::vector<std::vector<double>> us(kCount + 1);
    auto launch = [&](int k) -> T* {
      if (k == kCount) {
        CK(cub::DeviceReduce::Sum(temp, temp_bytes, in, slots, n, st));
        return slots;
      }
      const Variant& v = kVariantsInUse[k];
      T* out = slots + launches % 3;
      ++launches;
      CK(cudaMemsetAsync(out, 0, sizeof(T), st));
      pick<T>(v)<<<grids[k], v.block, 0, st>>>(in, out, nullptr, n);
      CK(cudaGetLastError());
      return out;
    };
    double want = 0;
    for (int rep = -3; rep < samples; ++rep) {
      for (int k = 0; k <= kCount; ++k) {
        // A NextSlot launch finds its slot zeroed by the launch before it; here that is done
        // untimed, and the kernel still pays for zeroing the next one.
        const Variant* v = k < kCount ? &kVariantsInUse[k] : nullptr;
        T* out = slots + launches % 3;
        if (v && v->init == Init::NextSlot) CK(cudaMemsetAsync(out, 0, sizeof(T), st));
        if (v && v->tickets) CK(cudaMemsetAsync(counts + launches % 3, 0, sizeof *counts, st));
        evict_l2<<<sms * 4, 256, 0, st>>>(static_cast<const int4*>(flush), flush_bytes / 16, static_cast<int*>(flush));
        CK(cudaGetLastError());
        CK(cudaEventRecord(a, st));
        T* result;
        if (v && v->init == Init::NextSlot) {
          T* next = slots + (launches + 1) % 3;
          ++launches;
          if (v->tickets)
            pick_tickets<T>(v->tickets)<<<grids[k], v->block, 0, st>>>(in, out, next, n, counts + (launches - 1) % 3,
                                                                       counts + launches % 3);
          else
            pick<T>(*v)<<<grids[k], v->block, 0, st>>>(in, out, next, n);
          CK(cudaGetLastError());
          result = out;
        } else {
          result = launch(k);
        }
        CK(cudaEventRecord(z, st));
        CK(cudaEventSynchronize(z));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, z));
        if (rep >= 0) us[k].push_back(ms * 1e3);
        if (rep == 0) {  // every variant must agree with CUB (ints exactly)
          T r;
          CK(cudaMemcpy(&r, result, sizeof(T), cudaMemcpyDeviceToHost));
          if (k == 0) want = double(r);
          if (std::is_same_v<T, int> ? double(r) != want : std::abs(double(r) - want) > 1e-3 * double(n))
            std::printf("MISMATCH %s n=2^%d: %g vs %g\n", v ? v->name : "cub", lg, double(r), want);
        }
      }
    }
    const double bytes = double(n) * sizeof(T);
    auto pct = [&](double t) { return 100.0 * bytes / (t * 1e-6) / (peak_gbps * 1e9); };
    const double c = median(us[kCount]);
    std::printf("2^%-4d %5.1f%% %7.2f", lg, pct(c), c);
    for (int k = 0; k < kCount; ++k) {
      const double m = median(us[k]);
      std::printf("        %5.1f%% %7.2f", pct(m), m);
    }
    std::printf("\n");
  }
  cudaFree(temp), cudaFree(in), cudaFree(slots), cudaFree(flush), cudaFree(counts);
}

int main(int argc, char** argv) {
  const int samples = argc > 1 ? std::atoi(argv[1]) : 101;
  if (argc > 2 && std::string(argv[2]) == "waves") {
    kVariantsInUse = kWaves;
    kCount = int(sizeof kWaves / sizeof kWaves[0]);
  } else if (argc > 2 && std::string(argv[2]) == "tickets") {
    kVariantsInUse = kTickets;
    kCount = int(sizeof kTickets / sizeof kTickets[0]);
  }
  int dev = 0, sms = 0, l2 = 0, clock_khz = 0, bus = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  CK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
  const double peak = 2.0 * clock_khz * 1e3 * (bus / 8.0) / 1e9;
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, dev));
  std::printf("%s, %d SMs, L2 %d MB, peak %.0f GB/s\n", p.name, sms, l2 >> 20, peak);
  run_type<float>("float", sms, std::size_t(l2), peak, samples);
  run_type<int>("int", sms, std::size_t(l2), peak, samples);
}
