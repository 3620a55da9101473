// The row prototype of issue 53's explorations (not part of the app), shared by rows_in_flight.cu
// and rows_catalog_vs_proto.cu: rows of kLanes * kPerLane 16-byte vectors of floats. A row's kLanes
// lanes each load kPerLane vectors of it, kLanes apart; a warp holds 32 / kLanes rows, a group; a
// thread keeps kGroups groups' loads in flight (kPerLane x kGroups loads), then adds them and meets
// its row's lanes through shuffles. Blocks walk supergroups (a block's rows at once) by grid stride
// (kTickets false) or take them from a counter, as work-queue does (kTickets true; the counter
// zeroed before each launch). kWrite: 1 the row sums stored plainly, 2 with streaming stores
// (st.global.cs), 0 not at all (the reads' cost).
#pragma once
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
