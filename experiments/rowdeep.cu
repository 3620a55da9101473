// Row sums of a (rows x cols) matrix: how many 16-byte loads in flight a thread, the
// cache-streaming hint, block size and grid, against CUB's segmented reduce. Standalone:
// nvcc -arch=sm_90 -O3 -std=c++17 -o rowdeep rowdeep.cu && ./rowdeep [rounds]
#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e = (x);                                                               \
    if (e != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e)); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

template <class T> struct Vec;
template <> struct Vec<float> { using type = float4; };
template <> struct Vec<int> { using type = int4; };

__device__ __forceinline__ float4 ld(const float4* p, bool cs) {
  float4 q;
  if (cs) asm("ld.global.cs.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w) : "l"(p));
  else q = *p;
  return q;
}
__device__ __forceinline__ int4 ld(const int4* p, bool cs) {
  int4 q;
  if (cs) asm("ld.global.cs.v4.s32 {%0,%1,%2,%3}, [%4];" : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "l"(p));
  else q = *p;
  return q;
}

// FUSED: with several chunks a row, the row's last block to finish sums the row's partials
// (threadFenceReduction's pattern) and resets the row's counter.
template <int B, int MINB, int K, bool CS, bool FUSED, class T>
__global__ void __launch_bounds__(B, MINB) rows_kernel(const T* in, T* out, size_t cols, size_t chunk, int chunks,
                                                       T* part, unsigned* counters, T* final_out) {
  using V = typename Vec<T>::type;
  __shared__ T warp_sums[B / 32];
  const size_t begin = size_t(blockIdx.x % chunks) * chunk;
  const size_t count = chunk < cols - begin ? chunk : cols - begin;
  const size_t first = size_t(blockIdx.x / chunks) * cols + begin;
  const V* p = reinterpret_cast<const V*>(in + first);
  const size_t n = count / 4;
  T v = 0;
  size_t i = threadIdx.x;
  for (; i + (K - 1) * B < n; i += K * B) {
    V q[K];
#pragma unroll
    for (int k = 0; k < K; ++k) q[k] = ld(p + i + k * B, CS);
#pragma unroll
    for (int k = 0; k < K; ++k) v += (q[k].x + q[k].y) + (q[k].z + q[k].w);
  }
  for (; i < n; i += B) {
    V q = ld(p + i, CS);
    v += (q.x + q.y) + (q.z + q.w);
  }
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < B / 32 ? warp_sums[threadIdx.x] : T(0);
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
  if (!FUSED || chunks == 1) return;
  __shared__ bool last;
  const size_t row = blockIdx.x / chunks;
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(&counters[row], 1u) == unsigned(chunks - 1);
  }
  __syncthreads();
  if (!last) return;
  if (threadIdx.x < 32) {
    T s = 0;
    for (int c = threadIdx.x; c < chunks; c += 32) s += __ldcg(part + row * chunks + c);
    for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
    if (threadIdx.x == 0) final_out[row] = s, counters[row] = 0;
  }
}

template <class T>
__global__ void combine(const T* part, T* out, size_t rows, int chunks) {
  size_t r = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  T v = 0;
  for (int c = 0; c < chunks; ++c) v += part[r * chunks + c];
  out[r] = v;
}

__global__ void evict(const float4* p, size_t n, float* sink) {
  float4 a = {0, 0, 0, 0};
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 q = p[i];
    a.x += q.x;
  }
  if (a.x == 12345.f) *sink = a.x;
}

struct Ctx {
  float4* junk;
  size_t junk_n;
  float* sink;
  cudaEvent_t e0, e1;
  int sms;
  double peak;
};

template <class F>
double median_ms(Ctx& c, F&& run, int samples) {
  std::vector<float> t;
  for (int s = 0; s < samples + 3; ++s) {
    evict<<<c.sms * 4, 1024>>>(c.junk, c.junk_n, c.sink);
    CK(cudaGetLastError());
    CK(cudaEventRecord(c.e0));
    run();
    CK(cudaEventRecord(c.e1));
    CK(cudaEventSynchronize(c.e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, c.e0, c.e1));
    if (s >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct Variant {
  const char* name;
  int block;
  bool fused;
  const void* fn_float;
  const void* fn_int;
};

template <int B, int MINB, int K, bool CS, bool FUSED = false>
Variant make(const char* name) {
  return {name, B, FUSED, (const void*)rows_kernel<B, MINB, K, CS, FUSED, float>,
          (const void*)rows_kernel<B, MINB, K, CS, FUSED, int>};
}

template <class T>
void run_shape(Ctx& c, const std::vector<Variant>& vs, size_t rows, size_t cols, int samples, const char* tname) {
  const size_t n = rows * cols;
  std::vector<T> h(n);
  unsigned long long s = 88172645463325252ull + rows;
  for (auto& x : h) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    x = std::is_same<T, int>::value ? T(int(s % 2001) - 1000) : T(double(s % 1000000) / 1e6);
  }
  std::vector<double> want(rows, 0);
  for (size_t r = 0; r < rows; ++r)
    for (size_t j = 0; j < cols; ++j) want[r] += double(h[r * cols + j]);
  T *in, *out, *part;
  CK(cudaMalloc(&in, n * sizeof(T)));
  CK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  CK(cudaMalloc(&out, rows * sizeof(T)));
  CK(cudaMalloc(&part, size_t(64) << 20));
  unsigned* counters;
  CK(cudaMalloc(&counters, rows * sizeof(unsigned)));
  CK(cudaMemset(counters, 0, rows * sizeof(unsigned)));
  std::vector<T> got(rows);
  auto check = [&](const char* what) {
    CK(cudaMemcpy(got.data(), out, rows * sizeof(T), cudaMemcpyDeviceToHost));
    for (size_t r = 0; r < rows; ++r) {
      double tol = std::is_same<T, int>::value ? 0.0 : 1e-3 * cols;
      if (std::abs(double(got[r]) - want[r]) > tol) {
        std::printf("MISMATCH %s row %zu: %g vs %g\n", what, r, double(got[r]), want[r]);
        std::exit(3);
      }
    }
  };
  const double bytes = double(n) * sizeof(T) + rows * sizeof(T);
  auto pct = [&](double ms) { return 100.0 * bytes / (ms * 1e-3) / 1e9 / c.peak; };
  // CUB
  std::vector<int> off(rows + 1);
  for (size_t r = 0; r <= rows; ++r) off[r] = int(r * cols);
  int* doff;
  CK(cudaMalloc(&doff, off.size() * sizeof(int)));
  CK(cudaMemcpy(doff, off.data(), off.size() * sizeof(int), cudaMemcpyHostToDevice));
  size_t tb = 0;
  CK(cub::DeviceSegmentedReduce::Sum(nullptr, tb, in, out, int(rows), doff, doff + 1));
  void* tmp;
  CK(cudaMalloc(&tmp, tb + 16));
  CK(cudaMemset(out, 0, rows * sizeof(T)));
  double cub_ms = median_ms(c, [&] { CK(cub::DeviceSegmentedReduce::Sum(tmp, tb, in, out, int(rows), doff, doff + 1)); }, samples);
  check("cub");
  std::printf("%s 2^%d x 2^%d cub %.2f\n", tname, __builtin_ctzll(rows), __builtin_ctzll(cols), pct(cub_ms));
  for (const Variant& v : vs) {
    const void* fn = std::is_same<T, int>::value ? v.fn_int : v.fn_float;
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, v.block, 0));
    const size_t slots = size_t(per_sm) * c.sms;
    std::printf("%s 2^%d x 2^%d %-22s occ %d:", tname, __builtin_ctzll(rows), __builtin_ctzll(cols), v.name, per_sm);
    std::vector<size_t> chunk_list;
    for (double waves : {1.0, 2.0, 4.0}) {
      size_t chunks = std::max<size_t>(1, size_t(waves * slots / rows + 0.5));
      chunk_list.push_back((cols + chunks - 1) / chunks);
    }
    for (size_t kb : {16, 32, 64, 128, 256})
      if (kb * 1024 / sizeof(T) < cols) chunk_list.push_back(kb * 1024 / sizeof(T));
    size_t last_chunks = 0;
    for (size_t want_chunk : chunk_list) {
      size_t chunk = (want_chunk + 63) / 64 * 64;
      size_t chunks = (cols + chunk - 1) / chunk;
      if (chunks == last_chunks) continue;
      last_chunks = chunks;
      const unsigned grid = unsigned(rows * chunks);
      if (rows * chunks * sizeof(T) > (size_t(64) << 20)) continue;
      T* dst = chunks == 1 ? out : part;
      int ch = int(chunks);
      auto run = [&] {
        void* args[] = {&in, &dst, (void*)&cols, &chunk, &ch, &part, &counters, &out};
        CK(cudaLaunchKernel(fn, dim3(grid), dim3(v.block), args, 0, 0));
        if (chunks > 1 && !v.fused) {
          combine<T><<<unsigned((rows + 255) / 256), 256>>>(part, out, rows, ch);
          CK(cudaGetLastError());
        }
      };
      CK(cudaMemset(out, 0, rows * sizeof(T)));
      double ms = median_ms(c, run, samples);
      check(v.name);
      std::printf("  %u blk(%zuK) %.2f", grid, chunk * sizeof(T) / 1024, pct(ms));
    }
    std::printf("\n");
  }
  CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(part)); CK(cudaFree(doff)); CK(cudaFree(tmp)); CK(cudaFree(counters));
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 1;
  Ctx c;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  int clk, bus;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrMemoryClockRate, 0));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, 0));
  c.peak = 2.0 * clk * 1e3 * (bus / 8.0) / 1e9;
  c.sms = p.multiProcessorCount;
  c.junk_n = size_t(p.l2CacheSize) * 2 / 16;
  CK(cudaMalloc(&c.junk, c.junk_n * 16));
  CK(cudaMemset(c.junk, 0, c.junk_n * 16));
  CK(cudaMalloc(&c.sink, 4));
  CK(cudaEventCreate(&c.e0)); CK(cudaEventCreate(&c.e1));
  std::printf("%s, %d SMs, peak %.0f GB/s\n", p.name, c.sms, c.peak);
  std::vector<Variant> vs = {
      make<1024, 0, 4, false>("b1024 k4 plain"),         make<1024, 0, 4, true>("b1024 k4 cs"),
      make<1024, 0, 4, false, true>("b1024 k4 fused"),   make<512, 2, 8, true, true>("b512x2 k8 cs fused"),
      make<256, 4, 8, true>("b256x4 k8 cs"),             make<256, 4, 8, true, true>("b256x4 k8 cs fused"),
      make<256, 0, 4, false, true>("b256 k4 fused"),     make<256, 3, 16, true, true>("b256x3 k16 cs fused"),
  };
  for (int r = 0; r < rounds; ++r)
    for (int lr : {4, 6, 8, 10, 12, 14}) {
      const size_t rows = size_t(1) << lr, cols = size_t(1) << (28 - lr);
      run_shape<int>(c, vs, rows, cols, 25, "int");
      run_shape<float>(c, vs, rows, cols, 25, "float");
    }
  return 0;
}
