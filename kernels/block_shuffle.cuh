// A block's values to one through warp shuffles: the helper every kernel that shuffles calls
// (shuffle.cuh, shuffle_rows.cuh, chunk_ends.cuh), with its stages' markers.
#pragma once
#include <cuda_runtime.h>

#include "probe.cuh"
#include "reduce_ops.h"

namespace rl::kernels {

// <<< warp-shuffles
// Each warp's values to one in its lane 0: five shuffles down. Records stages from `stage` on
// and leaves `stage` past the last.
template <class T, class Op, class Probe>
__device__ __forceinline__ T warp_shuffles(T v, const Probe& probe, int& stage) {
  for (int offset = 16; offset > 0; offset >>= 1, ++stage) {
    // Lanes past the warp's end get their own value back.
    v = Op{}(v, __shfl_down_sync(0xffffffffu, v, offset));  // [shfl]
    probe.stage(stage, kTagShuffle, offset), probe.work(stage, true), probe.lane(stage, v);
  }
  return v;
}
// >>>

// <<< block-shuffle
// The block's values, one per thread, to one in thread 0: shuffles inside each warp, one
// shared cell per warp, then warp 0 shuffles those. Records stages from `stage` on and
// leaves `stage` past the last. Written once for every kernel that shuffles, as CUB writes WarpReduce.
template <class T, class Op, class Probe>
__device__ __forceinline__ T block_shuffle(T v, T* smem, const Probe& probe, int& stage) {
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned warps = blockDim.x / 32;
  v = warp_shuffles<T, Op>(v, probe, stage);  // see <<< warp-shuffles
  if (lane == 0) {
    smem[warp] = v;  // [warp-sums]
    probe.write(stage, 0, warp);
  }
  probe.stage(stage, kTagWarpSums, 0), probe.work(stage, lane == 0);
  __syncthreads();
  probe.shared(stage++, smem, warps);

  if (warp == 0) {
    v = lane < warps ? smem[lane] : Op::template identity<T>();  // [final-load]
    if (lane < warps) probe.read(stage, 0, lane);
  }
  probe.stage(stage, kTagFinalLoad, 0), probe.work(stage, warp == 0), probe.lane(stage, v);
  ++stage;
  for (int offset = 16; offset > 0; offset >>= 1, ++stage) {
    if (warp == 0) v = Op{}(v, __shfl_down_sync(0xffffffffu, v, offset));  // [final-shfl]
    probe.stage(stage, kTagFinalShuffle, offset), probe.work(stage, warp == 0), probe.lane(stage, v);
  }
  return v;
}
// >>>

}  // namespace rl::kernels
