// Warp shuffles: each warp's 32 values to one in its lane 0 with five __shfl_down_sync steps (no
// shared memory, no barrier), one shared cell a warp, then warp 0 shuffles those. rl_lanes
// records every lane's register after each step.
#include "reduction_lab.cuh"

//! kernel: warp_shuffle
//! block: 256
//! grid: (n + block - 1) / block
//! shared: (block / 32) * sizeof(value_t)
//! passes: until one

__global__ void warp_shuffle(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t warp_sums[];  // one cell a warp
  const unsigned int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned int i = blockIdx.x * blockDim.x + tid;
  value_t v = i < n ? in[i] : value_t(0);
  rl_lanes(v);
  for (int offset = 16; offset > 0; offset >>= 1) {
    v = v + __shfl_down_sync(0xffffffffu, v, offset);  // lanes past the warp's end get their own value
    rl_lanes(v);
  }
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();

  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : value_t(0);
    for (int offset = 16; offset > 0; offset >>= 1) {
      v = v + __shfl_down_sync(0xffffffffu, v, offset);
      rl_lanes(v);
    }
  }
  if (tid == 0) out[blockIdx.x] = v;
}
