// Harris' kernel 1: interleaved addressing with a divergent branch.
// Thread t adds at step s only when t is a multiple of 2s, so neighbouring threads of a warp take
// different paths: try it, then open reduce1.cu.
#include "reduction_lab.cuh"

//! kernel: reduce0
//! block: 256
//! grid: (n + block - 1) / block
//! shared: block * sizeof(value_t)
//! passes: until one

__global__ void reduce0(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : value_t(0);
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    rl_param(s);
    if (tid % (2 * s) == 0) sdata[tid] = sdata[tid] + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
