// Harris' kernel 6: complete unroll.
// The block size is a template parameter, so every loop below has a constant trip count: the
// compiler unrolls them and the tests on s vanish. The launch names the instantiation
// (reduce5<block>), one a block size.
#include "reduction_lab.cuh"

//! kernel: reduce5<block>
//! block: 256
//! grid: (n + 2 * block - 1) / (2 * block)
//! shared: block * sizeof(value_t)
//! passes: until one

template <unsigned int BLOCK>
__global__ void reduce5(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * (2 * BLOCK) + tid;
  const value_t a = i < n ? in[i] : value_t(0);
  const value_t b = i + BLOCK < n ? in[i + BLOCK] : value_t(0);
  sdata[tid] = a + b;
  __syncthreads();

#pragma unroll
  for (unsigned int s = BLOCK / 2; s > 32; s >>= 1) {
    rl_param(s);
    if (tid < s) sdata[tid] = sdata[tid] + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
#pragma unroll
    for (unsigned int s = BLOCK / 2 < 32 ? BLOCK / 2 : 32; s > 0; s >>= 1) {
      rl_param(s);
      value_t v = value_t(0);
      if (tid + s < BLOCK) v = sdata[tid] + sdata[tid + s];
      __syncwarp();
      if (tid + s < BLOCK) sdata[tid] = v;
      __syncwarp();
      rl_warp_stage();  // the step is a stage of the trace, as a barrier's would be
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
