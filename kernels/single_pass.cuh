// A single launch without atomics on the data: blocks publish partials, and the last block
// to retire adds them up.
#pragma once
#include <cstddef>

#include "block_common.cuh"

namespace rl::kernels {

// <<< threadfence-single-pass
template <class T, class Op, class Probe>
__global__ void threadfence_single_pass(const T* in, T* out, std::size_t n, Probe probe, T* partials,
                                        unsigned* retired) {
  T* smem = shared_array<T>();
  __shared__ bool last;
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1, ++stage) {
    const bool work = tid < s;
    if (work) {
      smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x);
  }
  if (tid == 0) {
    partials[blockIdx.x] = smem[0];
    probe.partial(blockIdx.x, smem[0]);
    __threadfence();  // the partial is visible device-wide before this block retires
    last = atomicInc(retired, gridDim.x - 1) == gridDim.x - 1;  // wraps to 0 for the next launch
  }
  __syncthreads();
  if (!last) return;
  // The last block: each thread folds a stride of the partials, then the same tree.
  T acc = Op::template identity<T>();
  for (unsigned b = tid; b < gridDim.x; b += blockDim.x) acc = Op{}(acc, static_cast<volatile T*>(partials)[b]);
  smem[tid] = acc;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) smem[tid] = Op{}(smem[tid], smem[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[0] = smem[0];
}
// >>>

#ifndef __CUDACC_RTC__  // NVRTC compiles the kernels alone: no host launches
// The launch table's entry for this file's kernel (launch_table.cuh).
template <>
struct ArrayLaunch<Algo::ThreadfenceSinglePass> : LaunchEntry {
  template <class T, class Op, class Probe>
  static void launch(const LaunchArgs<T, T>& a, const Probe& p) {
    threadfence_single_pass<T, Op>
        <<<a.blocks(), a.block, a.shared(1), a.stream>>>(a.in, a.out, a.n(), p, a.partials, a.retired);
  }
};
#endif

}  // namespace rl::kernels
