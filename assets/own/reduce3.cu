// Harris' kernel 4: first add during load.
// Each thread adds two elements a block apart on its way into shared memory, so a block covers
// twice the data and the grid is halved. Try removing the barrier inside the loop and watch the
// CPU path name the race.
#include "reduction_lab.cuh"

//! kernel: reduce3
//! block: 256
//! grid: (n + 2 * block - 1) / (2 * block)
//! shared: block * sizeof(value_t)
//! passes: until one

__global__ void reduce3(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * (2 * blockDim.x) + tid;
  const value_t a = i < n ? in[i] : value_t(0);
  const value_t b = i + blockDim.x < n ? in[i + blockDim.x] : value_t(0);
  sdata[tid] = a + b;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    rl_param(s);
    if (tid < s) sdata[tid] = sdata[tid] + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
