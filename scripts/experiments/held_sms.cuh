// What the experiments of issue 53 share to time a kernel on fewer SMs (explorations, not part
// of the app): all but some SMs held by one idle block each, so a kernel launched meanwhile runs on
// the rest, each SM then with a larger share of the memory's bandwidth. An H100 with 94 of its 132
// SMs free gives an SM about an H200 SM's share (4.8 against 3.35 TB/s over 132 SMs): an H100 can
// ask whether a kernel that keeps pace on it falls behind where an SM must move more bytes
// (docs/benchmarks.md, "An H100 with SMs held idle shows the H200s' gap at rows of 15"). The
// kernels timed must run on the legacy default stream, and nothing may call cudaDeviceSynchronize
// while SMs are held: it would wait on the holding blocks.
#pragma once
#include <cstdio>
#include <cstdlib>

#include "flat_rows_common.cuh"  // CK, best_ms

// mapped host memory: a flag a holding block, then the stop flag
inline unsigned *g_hold_started = nullptr, *g_hold_stop = nullptr;
inline cudaStream_t g_hold_stream = nullptr;

// One block an SM (it asks for all the shared memory a block may have), idle until told to stop.
// Each block sets its own flag: atomics on mapped host memory need the host's native atomics. It
// polls rarely: holders reading host memory every 2 µs cut the free SMs' reads by about 40 %.
__global__ void hold_sm(volatile unsigned* started, volatile unsigned* stop) {
  if (threadIdx.x != 0) return;
  started[blockIdx.x] = 1;
  __threadfence_system();
  while (*stop == 0) __nanosleep(100000);
}

// Holds `held` SMs (at most 1023) until hold_end; the timed kernels then run on the legacy stream,
// which does not wait on the holding (non-blocking) stream.
inline void hold_begin(int held) {
  int most = 0;
  CK(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
  if (!g_hold_started) {
    CK(cudaHostAlloc(&g_hold_started, 1024 * 4, cudaHostAllocMapped));
    g_hold_stop = g_hold_started + 1023;
    CK(cudaStreamCreateWithFlags(&g_hold_stream, cudaStreamNonBlocking));
    CK(cudaFuncSetAttribute(hold_sm, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  }
  volatile unsigned* flags = g_hold_started;
  for (int i = 0; i < 1024; ++i) flags[i] = 0;
  hold_sm<<<unsigned(held), 32, most, g_hold_stream>>>(g_hold_started, g_hold_stop);
  CK(cudaGetLastError());
  const auto count = [&] {
    int c = 0;
    for (int b = 0; b < held; ++b) c += int(flags[b]);
    return c;
  };
  for (long spins = 0; count() < held; ++spins)
    if (spins > 100000000l) fprintf(stderr, "hold_sm: %d SMs not held\n", held), exit(1);
}

inline void hold_end() {
  *reinterpret_cast<volatile unsigned*>(g_hold_stop) = 1;
  CK(cudaStreamSynchronize(g_hold_stream));
}

// best_ms with `held` SMs held.
template <class Launch>
float best_ms_held(int held, Launch&& launch) {
  hold_begin(held);
  const float best = best_ms(launch, false);
  hold_end();
  return best;
}

__global__ void which_sm(unsigned* used) {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  if (threadIdx.x == 0) used[id & 1023] = 1;
}

// The SMs a grid of 64 blocks an SM ran on with `held` SMs held (0: none): the check that holding
// works.
inline int sms_used(int sms, int held) {
  unsigned* used = nullptr;
  CK(cudaMalloc(&used, 1024 * 4));
  CK(cudaMemset(used, 0, 1024 * 4));
  if (held) hold_begin(held);
  which_sm<<<64 * unsigned(sms), 128>>>(used);
  CK(cudaGetLastError());
  CK(cudaStreamSynchronize(0));
  if (held) hold_end();
  unsigned host[1024];
  CK(cudaMemcpy(host, used, sizeof host, cudaMemcpyDeviceToHost));
  CK(cudaFree(used));
  int n = 0;
  for (unsigned u : host) n += int(u);
  return n;
}
