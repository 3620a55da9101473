// Harris' kernel 3: sequential addressing.
// The low half adds the high half: whole warps drop out together and a warp's addresses are
// consecutive. Half the threads idle from the first step: reduce3.cu puts them to work.
#include "reduction_lab.cuh"

//! kernel: reduce2
//! block: 256
//! grid: (n + block - 1) / block
//! shared: block * sizeof(value_t)
//! passes: until one

__global__ void reduce2(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : value_t(0);
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    rl_param(s);
    if (tid < s) sdata[tid] = sdata[tid] + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
