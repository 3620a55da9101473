// cg-grid-sync's twin: one cooperative launch, no second pass. Each block adds its grid-stride
// share, reduces it through shared memory and stores its total in out[1 + block]; rl_grid_sync()
// waits until every block has (cooperative groups' grid.sync(), its steps written out in
// reduction_lab.cuh); then block 0 adds the totals in block order, so the same input and grid give
// the same bits every run. Blocks may wait for each other only where all are resident at once:
// "launch: cooperative" asks for that, and the grid is at most half the blocks the GPU's threads
// allow at once (and 16 an SM, half the 32 an SM holds), which leaves each thread room for 64
// registers (an SM has 64K).
#include "reduction_lab.cuh"

//! kernel: grid_sync<block>
//! block: 256
//! grid: min((n + block - 1) / block, sms * min(16, threads_per_sm / block / 2))
//! shared: block * sizeof(value_t)
//! passes: one
//! launch: cooperative

template <unsigned int BLOCK>
__device__ value_t block_total(value_t* sdata, value_t acc) {
  const unsigned int tid = threadIdx.x;
  sdata[tid] = acc;
  __syncthreads();
  for (unsigned int s = BLOCK / 2; s > 0; s >>= 1) {
    rl_param(s);
    if (tid < s) sdata[tid] = sdata[tid] + sdata[tid + s];
    __syncthreads();
  }
  return sdata[0];
}

template <unsigned int BLOCK>
__global__ void grid_sync(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x;
  value_t acc = value_t(0);
  for (unsigned int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK) acc = acc + in[i];
  const value_t total = block_total<BLOCK>(sdata, acc);
  if (tid == 0) out[1 + blockIdx.x] = total;
  rl_grid_sync();  // every block's total is stored, and visible to every block
  if (blockIdx.x != 0) return;
  acc = value_t(0);
  for (unsigned int b = tid; b < gridDim.x; b += BLOCK) acc = acc + out[1 + b];
  const value_t sum = block_total<BLOCK>(sdata, acc);
  if (tid == 0) out[0] = sum;
}
