// What sm_80 and later chips add to a reduction (issue 34's family "hopper"): here the warp's
// reduction in one instruction.
#pragma once
#include <cstddef>
#include <type_traits>

#include "block_common.cuh"
#include "reduce_ops.h"

namespace rl::kernels {

// __reduce_add_sync, __reduce_min_sync or __reduce_max_sync (redux.sync): every lane of the
// warp gets the reduction of the 32 lanes' values. int only: the row refuses other types before
// a launch (AlgorithmRow::ints_only), and they never reach this.
template <class Op, class T>
__device__ __forceinline__ T warp_redux(T v) {
#if __CUDA_ARCH__ < 800
  __trap();  // sm_80 and later; the host refuses older GPUs before a launch (kernels::needs)
  return v;
#else
  if constexpr (std::is_same_v<T, int>) {
    if constexpr (std::is_same_v<Op, ops::Min>)
      return __reduce_min_sync(0xffffffffu, v);
    else if constexpr (std::is_same_v<Op, ops::Max>)
      return __reduce_max_sync(0xffffffffu, v);
    else
      return __reduce_add_sync(0xffffffffu, v);
  } else {
    __trap();
    return v;
  }
#endif
}

// <<< block-redux
// block-shuffle's shape with one instruction where it has five shuffles: each warp's redux, one
// shared cell per warp, then warp 0 reduces those. Records stages from `stage` on.
template <class T, class Op, class Probe>
__device__ __forceinline__ T block_redux(T v, T* smem, const Probe& probe, int& stage) {
  const unsigned tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const unsigned warps = blockDim.x / 32;
  v = warp_redux<Op>(v);  // [redux]
  probe.stage(stage, kTagRedux, 0), probe.work(stage, true), probe.lane(stage, v);
  ++stage;
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
  if (warp == 0) v = warp_redux<Op>(v);  // [final-redux]
  probe.stage(stage, kTagFinalRedux, 0), probe.work(stage, warp == 0), probe.lane(stage, v);
  ++stage;
  return v;
}
// >>>

// <<< redux-sync
template <class T, class Op, class Probe>
__global__ void redux_sync(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();  // one cell per warp
  const unsigned tid = threadIdx.x;
  T v = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.lane(0, v);

  int stage = 1;
  v = block_redux<T, Op>(v, smem, probe, stage);  // see <<< block-redux
  if (tid == 0) out[blockIdx.x] = v;
  if (tid == 0) probe.partial(blockIdx.x, v);
}
// >>>

// The launch table's entries for this file's block kernels (block_common.cuh).
RL_BLOCK_LAUNCH(ReduxSync, redux_sync, 1);

}  // namespace rl::kernels
