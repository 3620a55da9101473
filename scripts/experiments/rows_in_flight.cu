// Prototype for issue 53 (an exploration, not part of the app): rows of 64 and 256 floats (2^22 x
// 64, 2^20 x 256) with more 16-byte loads in flight a thread than lanes-per-row's four. A row's
// `kLanes` lanes each load kPerLane neighbouring-by-lanes vectors of it; a warp holds 32 / kLanes
// rows, a group; a thread keeps kGroups groups' loads in flight (kPerLane x kGroups loads), then
// adds them and meets its row's lanes through shuffles. Blocks walk supergroups by grid stride
// (kTickets false) or take them from a counter, as work-queue does (kTickets true). kWrite: 1 the
// row sums stored plainly, 2 with streaming stores (st.global.cs), 0 not at all (the reads' cost).
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -o rows_in_flight scripts/experiments/rows_in_flight.cu && ./rows_in_flight
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "flat_rows_common.cuh"

template <int kLanes, int kPerLane, int kGroups, int kBlock, int kMinBlocks, bool kTickets, int kWrite = 1>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    rows_vec(const float4* __restrict__ in, float* __restrict__ out, u64 rows, unsigned long long* counter) {
  constexpr int per_warp = 32 / kLanes, row_vectors = kLanes * kPerLane, warps = kBlock / 32;
  constexpr u64 block_rows = u64(per_warp) * kGroups * warps;  // a supergroup: a block's rows at once
  __shared__ u64 ticket;
  const unsigned lane = threadIdx.x % 32, seg = lane % kLanes, warp = threadIdx.x / 32;
  const u64 supers = (rows + block_rows - 1) / block_rows;
  u64 s = blockIdx.x;
  while (s < supers) {
    if (kTickets && threadIdx.x == 0) ticket = gridDim.x + atomicAdd(counter, 1ull);
    float4 q[kGroups][kPerLane];
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      const u64 row = s * block_rows + (u64(g) * warps + warp) * per_warp + lane / kLanes;
#pragma unroll
      for (int p = 0; p < kPerLane; ++p)
        q[g][p] = row < rows ? __ldg(in + row * row_vectors + seg + p * kLanes) : make_float4(0, 0, 0, 0);
    }
#pragma unroll
    for (int g = 0; g < kGroups; ++g) {
      float v = 0;
#pragma unroll
      for (int p = 0; p < kPerLane; ++p) v += q[g][p].x + q[g][p].y + q[g][p].z + q[g][p].w;
#pragma unroll
      for (int o = kLanes / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, kLanes);
      const u64 row = s * block_rows + (u64(g) * warps + warp) * per_warp + lane / kLanes;
      if (seg == 0 && row < rows && (kWrite != 0 || v == 12345.f)) {
        if (kWrite == 2)
          __stcs(out + row, v);
        else
          out[row] = v;
      }
    }
    if (kTickets) {
      __syncthreads();
      s = ticket;
      __syncthreads();
    } else {
      s += gridDim.x;
    }
  }
}

template <int kLanes, int kPerLane, int kGroups, int kBlock, int kMinBlocks, bool kTickets, int kWrite = 1>
void time_one(const Lab& lab, u64 rows, unsigned long long* counter) {
  constexpr u64 cols = u64(kLanes) * kPerLane * 4;
  auto kernel = rows_vec<kLanes, kPerLane, kGroups, kBlock, kMinBlocks, kTickets, kWrite>;
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kBlock, 0));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  const unsigned grid = unsigned(fit * lab.sms);
  const float ms = best_ms([&] {
    if (kTickets) CK(cudaMemsetAsync(counter, 0, 8));
    kernel<<<grid, kBlock>>>(reinterpret_cast<const float4*>(lab.in), lab.out, rows, counter);
  });
  const unsigned long long wrong = kWrite ? lab.wrong_rows(rows, cols) : 0;
  printf(
      "%llu x %llu: lanes %2d x %d loads, %d groups (%2d loads in flight), block %4d, %d blocks an SM, %3d regs, %s: "
      "%5.1f %%%s\n",
      rows, cols, kLanes, kPerLane, kGroups, kPerLane * kGroups, kBlock, fit, attr.numRegs,
      kTickets ? (kWrite == 0   ? "tickets, no writes"
                  : kWrite == 2 ? "tickets, .cs writes"
                                : "tickets")
               : "stride ",
      lab.pct(double(rows) * double(cols + 1) * 4, ms), wrong ? " WRONG" : "");
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 22);
  unsigned long long* counter = nullptr;
  CK(cudaMalloc(&counter, 8));
  const u64 r64 = u64(1) << 22, r256 = u64(1) << 20;
  // Rows of 64 floats: 16 vectors.
  time_one<16, 1, 4, 256, 1, false>(lab, r64, counter);  // lanes-per-row's
  time_one<16, 1, 8, 256, 1, true>(lab, r64, counter);
  time_one<16, 1, 8, 256, 1, true, 0>(lab, r64, counter);
  time_one<16, 1, 8, 256, 1, true, 2>(lab, r64, counter);
  time_one<8, 2, 4, 256, 1, true>(lab, r64, counter);
  // Rows of 256 floats: 64 vectors.
  time_one<16, 4, 1, 256, 1, false>(lab, r256, counter);  // lanes-per-row's before
  time_one<8, 8, 1, 256, 1, false>(lab, r256, counter);   // lanes-per-row's now
  time_one<8, 8, 1, 256, 1, true>(lab, r256, counter);
  time_one<8, 8, 1, 256, 1, true, 0>(lab, r256, counter);
  time_one<32, 2, 4, 512, 1, true>(lab, r256, counter);
  time_one<32, 2, 4, 512, 1, true, 0>(lab, r256, counter);
  return 0;
}
