// Your own reduction. Reduction Lab launches the kernel named on the `kernel:` line with
//   in:  n input elements of value_t (float unless you run with --type int or --type double)
//   out: one result a block (`passes: until one` launches the kernel again over those results
//        until one is left) or, with `passes: one`, out[0] alone, which starts as 0 (with
//        `launch: cooperative` too, out[1 + b] for block b: see grid-sync.cu)
//   n:   the elements this launch reads
// Every __syncthreads() ends a stage: the traced block's shared memory is recorded after it.
// The grid and shared lines are expressions of n, block, sizeof(value_t), sms (the GPU's SMs)
// and threads_per_sm, with + - * / ( ) min max.
#include "reduction_lab.cuh"

//! kernel: my_reduce
//! block: 256
//! grid: (n + block - 1) / block
//! shared: block * sizeof(value_t)
//! passes: until one

__global__ void my_reduce(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : value_t(0);
  __syncthreads();

  // Your tree here: combine sdata's cells until sdata[0] holds the block's total.

  if (tid == 0) out[blockIdx.x] = sdata[0];
}
