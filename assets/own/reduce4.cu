// Harris' kernel 5: the last warp without block-wide barriers.
// Once 32 threads or fewer are left, one warp finishes alone. Harris' original relied on the
// warp's lanes running in lockstep (a volatile pointer and no barrier); since Volta, threads of a
// warp may be scheduled independently, so the reads and the writes of each step are split by
// __syncwarp(), as "Using CUDA Warp-Level Primitives" asks.
#include "reduction_lab.cuh"

//! kernel: reduce4
//! block: 256
//! grid: (n + 2 * block - 1) / (2 * block)
//! shared: block * sizeof(value_t)
//! passes: until one

__global__ void reduce4(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * (2 * blockDim.x) + tid;
  const value_t a = i < n ? in[i] : value_t(0);
  const value_t b = i + blockDim.x < n ? in[i + blockDim.x] : value_t(0);
  sdata[tid] = a + b;
  __syncthreads();

  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    rl_param(s);
    if (tid < s) sdata[tid] = sdata[tid] + sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    for (unsigned int s = blockDim.x / 2 < 32 ? blockDim.x / 2 : 32; s > 0; s >>= 1) {
      rl_param(s);
      const bool work = tid + s < blockDim.x;
      value_t x = value_t(0), y = value_t(0);
      if (work) x = sdata[tid], y = sdata[tid + s];
      __syncwarp();
      if (work) sdata[tid] = x + y;
      __syncwarp();
      rl_warp_stage();  // the step is a stage of the trace, as a barrier's would be
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
