// Experiment behind docs/perf-notes.md: grid sizes, tails and result initialisation for the
// vectorised single-pass sum, against CUB, on the same data, samples interleaved round-robin
// so drift hits every variant alike. Not a test: configure with -DREDLAB_PERF=ON (target
// vector_policies), or build alone with
//   nvcc -O3 -std=c++17 -arch=sm_90 -I kernels experiments/vector_policies.cu -o vector_policies
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "reduce_ops.h"
#include "shuffle.cuh"
#include "perf_common.cuh"

using namespace rl;
using kernels::fold;
using kernels::Vec16;

enum class Tail { Single, Cascade };
enum class Combine { Atomic, LastBlock };

template <class T, class Op>
__device__ T block_total(T v) {
  __shared__ T warp_sums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int o = 16; o > 0; o >>= 1) v = Op{}(v, __shfl_down_sync(0xffffffffu, v, o));
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : Op::template identity<T>();
    for (int o = 16; o > 0; o >>= 1) v = Op{}(v, __shfl_down_sync(0xffffffffu, v, o));
  }
  return v;
}

template <class T, class Op, Tail tail, Combine combine>
__global__ void variant(const T* __restrict__ in, T* out, std::size_t n, T* partials, unsigned* retired) {
  using V = typename Vec16<T>::type;
  constexpr std::size_t per = sizeof(V) / sizeof(T);
  const std::size_t gid = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t vectors = n / per;
  const V* in16 = reinterpret_cast<const V*>(in);
  T v = Op::template identity<T>();
  std::size_t i = gid;
  for (; i + 7 * threads < vectors; i += 8 * threads) {
    V q[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) q[k] = in16[i + k * threads];
#pragma unroll
    for (int k = 0; k < 8; ++k) v = fold<Op>(v, q[k]);
  }
  if constexpr (tail == Tail::Cascade) {
    if (i + 3 * threads < vectors) {
      V q[4];
#pragma unroll
      for (int k = 0; k < 4; ++k) q[k] = in16[i + k * threads];
#pragma unroll
      for (int k = 0; k < 4; ++k) v = fold<Op>(v, q[k]);
      i += 4 * threads;
    }
    if (i + threads < vectors) {
      const V a = in16[i], b = in16[i + threads];
      v = fold<Op>(fold<Op>(v, a), b);
      i += 2 * threads;
    }
  }
  for (; i < vectors; i += threads) v = fold<Op>(v, in16[i]);
  for (std::size_t j = per * vectors + gid; j < n; j += threads) v = Op{}(v, in[j]);
  v = block_total<T, Op>(v);
  if constexpr (combine == Combine::Atomic) {
    if (threadIdx.x == 0) kernels::atomic_combine<Op>(out, v);
  } else {
    __shared__ bool last;
    if (threadIdx.x == 0) {
      partials[blockIdx.x] = v;
      __threadfence();
      last = atomicInc(retired, gridDim.x - 1) == gridDim.x - 1;  // wraps to 0 for the next run
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    T acc = Op::template identity<T>();
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) acc = Op{}(acc, ((volatile T*)partials)[b]);
    acc = block_total<T, Op>(acc);
    if (threadIdx.x == 0) *out = acc;
  }
}

enum class Grid { Current, WholeBatches, Resident };
enum class Init { Memcpy, Memset, Kernel, None };

struct Variant {
  const char* name;
  Grid grid;
  Tail tail;
  Init init;
};

const Variant kVariants[] = {
    {"current", Grid::Current, Tail::Single, Init::Memcpy},
    {"batches", Grid::WholeBatches, Tail::Single, Init::Memcpy},
    {"batches+cascade", Grid::WholeBatches, Tail::Cascade, Init::Memcpy},
    {"batches+memset", Grid::WholeBatches, Tail::Single, Init::Memset},
    {"batches+lastblock", Grid::WholeBatches, Tail::Single, Init::None},
    {"cascade+memset", Grid::Current, Tail::Cascade, Init::Memset},
    {"cascade+lastblock", Grid::Current, Tail::Cascade, Init::None},
    {"cascade+kernelinit", Grid::Current, Tail::Cascade, Init::Kernel},
};

std::size_t grid_of(Grid g, std::size_t n, std::size_t per, int sms) {
  const std::size_t b = 256, resident = 8 * std::size_t(sms);
  const std::size_t vectors = std::max<std::size_t>(1, n / per);
  switch (g) {
    case Grid::Current: return std::max<std::size_t>(1, std::min((n + 8 * b - 1) / (8 * b), resident));
    case Grid::Resident: return resident;
    case Grid::WholeBatches: {
      const std::size_t per_thread_batches = (vectors + 8 * b * resident - 1) / (8 * b * resident);
      return std::max<std::size_t>(1, (vectors + 8 * b * per_thread_batches - 1) / (8 * b * per_thread_batches));
    }
  }
  return 1;
}

template <class T>
void run_type(const char* tname, int sms, std::size_t l2, int samples) {
  using Op = ops::Sum;
  constexpr std::size_t per = 16 / sizeof(T);
  const std::size_t max_n = std::size_t(1) << 28;
  T *in, *out, *partials, *host_id;
  unsigned* retired;
  void* flush;
  const std::size_t flush_bytes = 2 * l2;
  CK(cudaMalloc(&in, max_n * sizeof(T)));
  CK(cudaMalloc(&out, sizeof(T)));
  CK(cudaMalloc(&partials, 65536 * sizeof(T)));
  CK(cudaMalloc(&retired, sizeof(unsigned)));
  CK(cudaMemset(retired, 0, sizeof(unsigned)));
  CK(cudaMalloc(&flush, flush_bytes));
  CK(cudaMemset(flush, 1, flush_bytes));
  CK(cudaMallocHost(&host_id, sizeof(T)));
  *host_id = T(0);
  upload_random(in, max_n);
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t a, z;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&z));
  void* temp = nullptr;
  std::size_t temp_bytes = 0;
  CK(cub::DeviceReduce::Sum(nullptr, temp_bytes, in, out, max_n, st));
  CK(cudaMalloc(&temp, temp_bytes));

  const int nv = int(sizeof kVariants / sizeof kVariants[0]);
  std::printf("%s sum, median of %d cold samples (us); ratio = CUB / variant\n%-6s %9s", tname, samples, "n", "cub");
  for (const auto& v : kVariants) std::printf(" %18s", v.name);
  std::printf("\n");
  for (int lg = 16; lg <= 28; ++lg) {
    const std::size_t n = std::size_t(1) << lg;
    std::vector<std::vector<double>> us(nv + 1);
    auto launch = [&](int k) {
      if (k == nv) {
        CK(cub::DeviceReduce::Sum(temp, temp_bytes, in, out, n, st));
        return;
      }
      const Variant& v = kVariants[k];
      const unsigned g = unsigned(grid_of(v.grid, n, per, sms));
      if (v.init == Init::Memcpy) CK(cudaMemcpyAsync(out, host_id, sizeof(T), cudaMemcpyHostToDevice, st));
      if (v.init == Init::Memset) CK(cudaMemsetAsync(out, 0, sizeof(T), st));
      if (v.init == Init::Kernel) kernels::set_identity<T, Op><<<1, 1, 0, st>>>(out);
      const bool lastblock = v.init == Init::None;
      if (v.tail == Tail::Single && !lastblock) variant<T, Op, Tail::Single, Combine::Atomic><<<g, 256, 0, st>>>(in, out, n, partials, retired);
      if (v.tail == Tail::Single && lastblock) variant<T, Op, Tail::Single, Combine::LastBlock><<<g, 256, 0, st>>>(in, out, n, partials, retired);
      if (v.tail == Tail::Cascade && !lastblock) variant<T, Op, Tail::Cascade, Combine::Atomic><<<g, 256, 0, st>>>(in, out, n, partials, retired);
      if (v.tail == Tail::Cascade && lastblock) variant<T, Op, Tail::Cascade, Combine::LastBlock><<<g, 256, 0, st>>>(in, out, n, partials, retired);
      CK(cudaGetLastError());
    };
    double want = 0;
    for (int rep = -3; rep < samples; ++rep) {
      for (int k = 0; k <= nv; ++k) {
        evict_l2<<<sms * 4, 256, 0, st>>>(static_cast<const int4*>(flush), flush_bytes / 16, static_cast<int*>(flush));
        CK(cudaEventRecord(a, st));
        launch(k);
        CK(cudaEventRecord(z, st));
        CK(cudaEventSynchronize(z));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, z));
        if (rep >= 0) us[k].push_back(ms * 1e3);
        if (rep == 0) {  // every variant must agree with CUB (ints exactly)
          T r;
          CK(cudaMemcpy(&r, out, sizeof(T), cudaMemcpyDeviceToHost));
          if (k == 0) want = double(r);
          if (std::is_same_v<T, int> ? double(r) != want : std::abs(double(r) - want) > 1e-3 * double(n))
            std::printf("MISMATCH %s n=2^%d: %g vs %g\n", k == nv ? "cub" : kVariants[k].name, lg, double(r), want);
        }
      }
    }
    auto med = [](std::vector<double> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    const double cub_us = med(us[nv]);
    std::printf("2^%-4d %9.2f", lg, cub_us);
    for (int k = 0; k < nv; ++k) {
      const double m = med(us[k]);
      std::printf(" %9.2f (%5.3f)", m, cub_us / m);
    }
    std::printf("\n");
  }
  cudaFree(temp), cudaFree(in), cudaFree(out), cudaFree(partials), cudaFree(retired), cudaFree(flush);
  cudaFreeHost(host_id);
}

int main(int argc, char** argv) {
  const int samples = argc > 1 ? std::atoi(argv[1]) : 101;
  int dev = 0, sms = 0, l2 = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
  cudaDeviceProp p{};
  CK(cudaGetDeviceProperties(&p, dev));
  std::printf("%s, %d SMs, L2 %d MB\n", p.name, sms, l2 >> 20);
  run_type<float>("float", sms, std::size_t(l2), samples);
  run_type<int>("int", sms, std::size_t(l2), samples);
}
