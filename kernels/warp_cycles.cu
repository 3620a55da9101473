#include "warp_cycles.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuda_check.cuh"
#include "probe.cuh"
#include "shuffle.cuh"

namespace rl::kernels {

namespace {

// Lane l's first value: the lanes differ, so three stages of either chain leave lanes to check.
__host__ __device__ constexpr std::int32_t chain_start(unsigned lane) {
  return std::int32_t(lane * 2654435761u + 12345u);
}

// One warp: `stages` warp stages, each fed by the last, between two reads of the SM's clock.
template <bool Redux>
__global__ void warp_stage_clock(std::int32_t* lanes, long long* cycles, int stages) {
  int v = chain_start(threadIdx.x);
  __syncwarp();
  const long long start = clock64();
#pragma unroll 8
  for (int i = 0; i < stages; ++i) {
    if constexpr (Redux) {
      v = warp_redux<ops::Sum>(v);
    } else {
      int stage = 0;
      v = warp_shuffles<int, ops::Sum>(v, NoProbe{}, stage);
    }
  }
  const long long stop = clock64();
  lanes[threadIdx.x] = v;
  if (threadIdx.x == 0) *cycles = stop - start;
}

template <bool Redux>
double time_chain(int stages, int repeats, std::int32_t* lanes, long long* cycles) {
  long long best = -1;
  std::vector<std::int32_t> got(32);
  for (int r = 0; r < repeats; ++r) {
    warp_stage_clock<Redux><<<1, 32>>>(lanes, cycles, stages);
    RL_CUDA(cudaGetLastError());
    long long c = 0;
    RL_CUDA(cudaMemcpy(&c, cycles, sizeof c, cudaMemcpyDeviceToHost));
    RL_CUDA(cudaMemcpy(got.data(), lanes, 32 * sizeof(std::int32_t), cudaMemcpyDeviceToHost));
    if (got != warp_stage_chain(Redux, stages))
      throw std::logic_error(std::string(Redux ? "the redux" : "the shuffle") +
                             " chain's lanes differ from the model's");
    if (best < 0 || c < best) best = c;
  }
  return double(best) / stages;
}

}  // namespace

std::vector<std::int32_t> warp_stage_chain(bool redux, int stages) {
  std::vector<std::uint32_t> v(32);
  for (unsigned l = 0; l < 32; ++l) v[l] = std::uint32_t(chain_start(l));
  for (int i = 0; i < stages; ++i) {
    if (redux) {
      std::uint32_t s = 0;
      for (auto x : v) s += x;
      std::fill(v.begin(), v.end(), s);
      continue;
    }
    for (unsigned offset = 16; offset > 0; offset >>= 1) {
      const auto before = v;
      for (unsigned l = 0; l < 32; ++l) v[l] = before[l] + (l + offset < 32 ? before[l + offset] : before[l]);
    }
  }
  return {v.begin(), v.end()};
}

WarpStageCycles time_warp_stages(int stages, int repeats) {
  if (stages < 1 || repeats < 1) throw std::invalid_argument("time_warp_stages: stages and repeats must be at least 1");
  if (cuda_compute_major() < 8)
    throw std::invalid_argument("redux.sync needs compute capability 8.0 or later; this GPU has " +
                                std::to_string(cuda_compute_major()) + ".x");
  auto* lanes = static_cast<std::int32_t*>(device_alloc(32 * sizeof(std::int32_t), "the warp stage chain"));
  long long* cycles = nullptr;
  try {
    cycles = static_cast<long long*>(device_alloc(sizeof(long long), "the warp stage clock"));
    WarpStageCycles w;
    w.stages = stages;
    // A redux chain's sums wrap to zero after eight stages (each multiplies them by 32): three
    // stages first, checked while the lanes still differ, then the timed chains.
    time_chain<true>(3, 1, lanes, cycles), time_chain<false>(3, 1, lanes, cycles);
    w.redux = time_chain<true>(stages, repeats, lanes, cycles);
    w.shuffle = time_chain<false>(stages, repeats, lanes, cycles);
    RL_CUDA(cudaFree(cycles));
    RL_CUDA(cudaFree(lanes));
    return w;
  } catch (...) {
    cudaFree(cycles);
    cudaFree(lanes);
    throw;
  }
}

}  // namespace rl::kernels
