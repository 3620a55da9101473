// The row prototype of issue 53's explorations (not part of the app), shared by rows_in_flight.cu
// and rows_catalog_vs_proto.cu: rows of kLanes * kPerLane 16-byte vectors of floats. A row's kLanes
// lanes each load kPerLane vectors of it, kLanes apart; a warp holds 32 / kLanes rows, a group; a
// thread keeps kGroups groups' loads in flight (kPerLane x kGroups loads), then adds them and meets
// its row's lanes through shuffles. Blocks walk supergroups (a block's rows at once) by grid stride
// (kTickets false) or take them from a counter, as work-queue does (kTickets true; the counter
// zeroed before each launch). kWrite: 1 the row sums stored plainly, 2 with streaming stores
// (st.global.cs), 3 with an L2 evict-last policy, 0 not at all (the reads' cost). kLoad: 0 through
// the read-only path (__ldg), 1 cache-streaming (ld.global.cs), 2 with an L2 evict-first policy.
// kHalves: each 16-byte vector is eight halves (rows of kLanes * kPerLane * 8), added in float.
#pragma once
#include <cuda_fp16.h>

#include "flat_rows_common.cuh"

template <bool kHalves>
__device__ __forceinline__ float vec_sum(float4 q) {
  if constexpr (!kHalves) {
    return q.x + q.y + q.z + q.w;
  } else {
    const __half2* h = reinterpret_cast<const __half2*>(&q);
    float s = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const float2 f = __half22float2(h[i]);
      s += f.x + f.y;
    }
    return s;
  }
}

// A policy that gives every line it touches one L2 eviction priority (createpolicy.fractional).
__device__ __forceinline__ u64 policy_evict_first() {
  u64 p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}
__device__ __forceinline__ u64 policy_evict_last() {
  u64 p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
  return p;
}

template <int kLoad>
__device__ __forceinline__ float4 load_vec(const float4* p, u64 policy) {
  if constexpr (kLoad == 0) return __ldg(p);
  float4 q;
  if constexpr (kLoad == 1)
    asm("ld.global.cs.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w) : "l"(p));
  else
    asm("ld.global.nc.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
        : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w)
        : "l"(p), "l"(policy));
  return q;
}

template <int kWrite>
__device__ __forceinline__ void store_sum(float* p, float v, u64 policy) {
  if constexpr (kWrite == 2)
    __stcs(p, v);
  else if constexpr (kWrite == 3)
    asm volatile("st.global.L2::cache_hint.f32 [%0], %1, %2;" ::"l"(p), "f"(v), "l"(policy) : "memory");
  else
    *p = v;
}

// One supergroup: the block's kGroups x (kBlock / 32) groups of rows from r0 on, every lane's
// kPerLane loads of each in flight at once (rows at or past `end` read as zeros), then each
// group's row sums met through shuffles and handed, from the segments' first lanes, to put(row, v).
template <int kLanes, int kPerLane, int kGroups, int kBlock, int kLoad, bool kHalves, class Put>
__device__ __forceinline__ void supergroup(const float4* in, u64 r0, u64 end, u64 policy, Put put) {
  constexpr int per_warp = 32 / kLanes, row_vectors = kLanes * kPerLane, warps = kBlock / 32;
  const unsigned lane = threadIdx.x % 32, seg = lane % kLanes, warp = threadIdx.x / 32;
  const auto row_of = [&](int g) { return r0 + (u64(g) * warps + warp) * per_warp + lane / kLanes; };
  float4 q[kGroups][kPerLane];
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    const u64 row = row_of(g);
#pragma unroll
    for (int p = 0; p < kPerLane; ++p)
      q[g][p] =
          row < end ? load_vec<kLoad>(in + row * row_vectors + seg + p * kLanes, policy) : make_float4(0, 0, 0, 0);
  }
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    float v = 0;
#pragma unroll
    for (int p = 0; p < kPerLane; ++p) v += vec_sum<kHalves>(q[g][p]);
#pragma unroll
    for (int o = kLanes / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o, kLanes);
    if (seg == 0 && row_of(g) < end) put(row_of(g), v);
  }
}

template <int kLanes, int kPerLane, int kGroups, int kBlock, int kMinBlocks, bool kTickets, int kWrite = 1,
          int kLoad = 0, bool kHalves = false>
__global__ void __launch_bounds__(kBlock, kMinBlocks)
    rows_vec(const float4* __restrict__ in, float* __restrict__ out, u64 rows, unsigned long long* counter) {
  constexpr u64 block_rows = u64(32 / kLanes) * kGroups * (kBlock / 32);  // a supergroup: a block's rows at once
  __shared__ u64 ticket;
  const u64 supers = (rows + block_rows - 1) / block_rows;
  const u64 load_policy = kLoad == 2 ? policy_evict_first() : 0, store_policy = kWrite == 3 ? policy_evict_last() : 0;
  u64 s = blockIdx.x;
  while (s < supers) {
    if (kTickets && threadIdx.x == 0) ticket = gridDim.x + atomicAdd(counter, 1ull);
    supergroup<kLanes, kPerLane, kGroups, kBlock, kLoad, kHalves>(in, s * block_rows, rows, load_policy,
                                                                  [&](u64 row, float v) {
                                                                    if (kWrite != 0 || v == 12345.f)
                                                                      store_sum<kWrite>(out + row, v, store_policy);
                                                                  });
    if (kTickets) {
      __syncthreads();
      s = ticket;
      __syncthreads();
    } else {
      s += gridDim.x;
    }
  }
}
