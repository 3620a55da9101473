// Harris' kernel 7: multiple elements per thread (algorithm cascading).
// A grid of one wave (every SM full once) strides over the whole array; each thread first adds
// pairs of elements in registers, then the block's tree runs once. The second pass is this
// kernel again, over the wave's partials.
#include "reduction_lab.cuh"

//! kernel: reduce6<block>
//! block: 256
//! grid: min((n + 2 * block - 1) / (2 * block), sms * (threads_per_sm / block))
//! shared: block * sizeof(value_t)
//! passes: until one

template <unsigned int BLOCK>
__global__ void reduce6(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int stride = gridDim.x * (2 * BLOCK);
  value_t acc = value_t(0);
  for (unsigned int i = blockIdx.x * (2 * BLOCK) + tid; i < n; i += stride) {
    const value_t b = i + BLOCK < n ? in[i + BLOCK] : value_t(0);
    acc = acc + (in[i] + b);
  }
  sdata[tid] = acc;
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
