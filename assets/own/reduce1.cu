// Harris' kernel 2: interleaved addressing, strided index.
// Contiguous threads now do the work (no divergence inside a warp), but the addresses 2*s*t are
// strided, so threads of a warp meet in the same shared-memory banks (the banks view of the
// catalog's interleaved-bank-conflicts counts them); reduce2.cu reads consecutive addresses.
#include "reduction_lab.cuh"

//! kernel: reduce1
//! block: 256
//! grid: (n + block - 1) / block
//! shared: block * sizeof(value_t)
//! passes: until one

__global__ void reduce1(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : value_t(0);
  __syncthreads();

  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    rl_param(s);
    const unsigned int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] = sdata[index] + sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
