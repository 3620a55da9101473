// Shared-memory tree reductions, each written once and instantiated twice: with NoProbe
// (timed) and TraceProbe (what the app shows). Markers: "<<< id" opens an algorithm's source
// as the app displays it, ">>>" closes it; "[tag]" comments name the line each recorded
// stage corresponds to (see stage_tags.h).
#pragma once
#include <cstddef>

#include "block_common.cuh"
#include "probe.cuh"
#include "reduce_ops.h"

namespace rl::kernels {

// <<< naive-serial
template <class T, class Op, class Probe>
__global__ void naive_serial(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  if (tid == 0) {  // one thread walks the whole block: blockDim - 1 dependent additions
    T acc = smem[0];
    for (unsigned j = 1; j < blockDim.x; ++j) acc = Op{}(acc, smem[j]);  // [serial]
    smem[0] = acc;
    for (unsigned j = 0; j < blockDim.x; ++j) probe.read(1, j, j);
    probe.write(1, blockDim.x, 0);
  }
  probe.stage(1, kTagSerial, 0), probe.work(1, tid == 0);
  probe.shared(1, smem, blockDim.x);
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// Records a global-halving launch: which threads added, and what they read and wrote.
struct HalvingProbe {
  std::uint8_t* active = nullptr;  // [thread], this launch's stage
  int* access = nullptr;           // [thread][3]
  __device__ void record(std::size_t i, bool did, std::size_t half) const {
    if (!active) return;
    active[i] = did;
    if (!did) return;
    access[3 * i] = int(2 * i), access[3 * i + 1] = int(2 * (i + half)), access[3 * i + 2] = int(2 * i + 1);
  }
};

// <<< global-halving
// No shared memory: each launch adds the upper half of the live array onto the lower half,
// and the end of the launch is the barrier. The host launches until one element is left.
// The first launch reads the input and writes a scratch array; later ones work in place.
template <class T, class Op>
__global__ void global_halving(const T* src, T* x, std::size_t live, std::size_t half, HalvingProbe probe) {  // [input]
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= half) return;
  const bool work = i + half < live;  // odd lengths: the middle element waits a round
  x[i] = work ? Op{}(src[i], src[i + half]) : src[i];  // [halving]
  probe.record(i, work, half);
}
// >>>

// <<< interleaved-divergent
template <class T, class Op, class Probe>
__global__ void interleaved_divergent(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  for (unsigned s = 1; s < blockDim.x; s *= 2, ++stage) {
    const bool work = tid % (2 * s) == 0;  // neighbours in a warp take different paths
    if (work) {
      smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< interleaved-bank-conflicts
template <class T, class Op, class Probe>
__global__ void interleaved_bank_conflicts(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  for (unsigned s = 1; s < blockDim.x; s *= 2, ++stage) {
    const unsigned index = 2 * s * tid;  // contiguous threads, strided addresses
    const bool work = index < blockDim.x;
    if (work) {
      smem[index] = Op{}(smem[index], smem[index + s]);  // [step]
      probe.read(stage, 0, index), probe.read(stage, 1, index + s), probe.write(stage, 2, index);
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< sequential
// In: the elements' type, T: the accumulator's (they differ for half or bfloat16 added in float).
template <class T, class Op, class Probe, class In = T>
__global__ void sequential(const In* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.write(0, 0, tid), probe.values(0, smem[tid]);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1, ++stage) {
    const bool work = tid < s;  // whole warps drop out together
    if (work) {
      const T a = smem[tid], b = smem[tid + s];  // [step]
      smem[tid] = Op{}(a, b);
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid), probe.values(stage, a, b, Op{}(a, b));
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< first-add-on-load
template <class T, class Op, class Probe>
__global__ void first_add_on_load(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * (2 * blockDim.x) + tid;  // half the blocks
  smem[tid] = Op{}(load_or_identity<T, Op>(in, n, i, probe, 0), load_or_identity<T, Op>(in, n, i + blockDim.x, probe, 1));  // [load-add]
  probe.stage(0, kTagLoadAdd, 0), probe.work(0, true), probe.write(0, 0, tid);
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
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< unroll-last-warp
template <class T, class Op, class Probe>
__global__ void unroll_last_warp(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * (2 * blockDim.x) + tid;  // first add on load, as before
  smem[tid] = Op{}(load_or_identity<T, Op>(in, n, i, probe, 0), load_or_identity<T, Op>(in, n, i + blockDim.x, probe, 1));  // [load-add]
  probe.stage(0, kTagLoadAdd, 0), probe.work(0, true), probe.write(0, 0, tid), probe.values(0, smem[tid]);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1, ++stage) {
    const bool work = tid < s;
    if (work) {
      const T a = smem[tid], b = smem[tid + s];  // [step]
      smem[tid] = Op{}(a, b);
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid), probe.values(stage, a, b, Op{}(a, b));
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x);
  }
  // The last 32 threads finish alone: __syncwarp() instead of block-wide barriers. Reading
  // and writing are split by __syncwarp(), as independent thread scheduling requires.
  if (Probe::barriers || tid < 32) {
    for (unsigned s = blockDim.x / 2 < 32 ? blockDim.x / 2 : 32; s > 0; s >>= 1, ++stage) {
      const bool work = tid < 32 && tid + s < blockDim.x;
      T a{}, b{};
      if (work) a = smem[tid], b = smem[tid + s];  // [warp-step]
      __syncwarp();
      if (work) smem[tid] = Op{}(a, b);
      __syncwarp();
      if (work) probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid), probe.values(stage, a, b, Op{}(a, b));
      probe.stage(stage, kTagWarpStep, s), probe.work(stage, work);
      probe.shared(stage, smem, blockDim.x);
    }
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< complete-unroll
template <int BLOCK, class T, class Op, class Probe>
__global__ void __launch_bounds__(BLOCK) complete_unroll(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * (2 * BLOCK) + tid;
  smem[tid] = Op{}(load_or_identity<T, Op>(in, n, i, probe, 0), load_or_identity<T, Op>(in, n, i + BLOCK, probe, 1));  // [load-add]
  probe.stage(0, kTagLoadAdd, 0), probe.work(0, true), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, BLOCK);

  int stage = 1;
  // BLOCK is a compile-time constant: every loop below unrolls, and the tests on s vanish.
#pragma unroll
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1, ++stage) {
    const bool work = tid < s;
    if (work) {
      smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, BLOCK);
  }
  if (Probe::barriers || tid < 32) {
#pragma unroll
    for (unsigned s = BLOCK / 2 < 32 ? BLOCK / 2 : 32; s > 0; s >>= 1, ++stage) {
      const bool work = tid < 32 && tid + s < BLOCK;
      T v{};
      if (work) v = Op{}(smem[tid], smem[tid + s]);  // [warp-step]
      __syncwarp();
      if (work) smem[tid] = v;
      __syncwarp();
      if (work) probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
      probe.stage(stage, kTagWarpStep, s), probe.work(stage, work);
      probe.shared(stage, smem, BLOCK);
    }
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< multiple-per-thread
template <int BLOCK, class T, class Op, class Probe>
__global__ void __launch_bounds__(BLOCK) multiple_per_thread(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  // The complete-unroll kernel, but a grid that fills every SM once (one wave) strides over the
  // whole array: each thread first adds pairs of elements in registers.
  const std::size_t stride = std::size_t(gridDim.x) * (2 * BLOCK);
  T acc = Op::template identity<T>();
  int slot = 0;
#pragma unroll 4
  for (std::size_t i = std::size_t(blockIdx.x) * (2 * BLOCK) + tid; i < n; i += stride, slot += 2)
    acc = Op{}(acc, Op{}(load_or_identity<T, Op>(in, n, i, probe, slot),  // [grid-stride]
                         load_or_identity<T, Op>(in, n, i + BLOCK, probe, slot + 1)));
  smem[tid] = acc;
  probe.stage(0, kTagGridStride, 0), probe.work(0, true), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, BLOCK);

  int stage = 1;
  // BLOCK is a compile-time constant: every loop below unrolls, and the tests on s vanish.
#pragma unroll
  for (unsigned s = BLOCK / 2; s > 32; s >>= 1, ++stage) {
    const bool work = tid < s;
    if (work) {
      smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, BLOCK);
  }
  if (Probe::barriers || tid < 32) {
#pragma unroll
    for (unsigned s = BLOCK / 2 < 32 ? BLOCK / 2 : 32; s > 0; s >>= 1, ++stage) {
      const bool work = tid < 32 && tid + s < BLOCK;
      T v{};
      if (work) v = Op{}(smem[tid], smem[tid + s]);  // [warp-step]
      __syncwarp();
      if (work) smem[tid] = v;
      __syncwarp();
      if (work) probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
      probe.stage(stage, kTagWarpStep, s), probe.work(stage, work);
      probe.shared(stage, smem, BLOCK);
    }
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< non-pow2-block
template <class T, class Op, class Probe>
__global__ void non_pow2_block(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.write(0, 0, tid);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  unsigned p = 1;  // the tree runs over the next power of two; cells past blockDim do not exist
  while (p < blockDim.x) p <<= 1;
  int stage = 1;
  for (unsigned s = p / 2; s > 0; s >>= 1, ++stage) {
    const bool work = tid < s && tid + s < blockDim.x;
    if (work) {
      smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid);
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< missing-syncthreads
// PITFALL: the sequential tree with its barrier removed. A thread may read smem[tid + s]
// before the thread that owns it has written its sum for the previous stride.
template <class T, class Op, class Probe>
__global__ void missing_syncthreads(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid, probe);  // [load]
  probe.stage(0, kTagLoad, 0), probe.work(0, true), probe.write(0, 0, tid), probe.values(0, smem[tid]);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1, ++stage) {
    const bool work = tid < s;
    if (work) {
      const T a = smem[tid], b = smem[tid + s];  // [step] nothing orders this read after its write
      smem[tid] = Op{}(a, b);
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid), probe.values(stage, a, b, Op{}(a, b));
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    // no __syncthreads() here
    probe.shared(stage, smem, blockDim.x);
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< legacy-warp-synchronous
// PITFALL: the pre-Volta last-warp unroll: volatile shared memory and no __syncwarp(),
// relying on the 32 lanes of a warp running in lockstep.
template <class T, class Op, class Probe>
__global__ void legacy_warp_synchronous(const T* in, T* out, std::size_t n, Probe probe) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  const std::size_t i = std::size_t(blockIdx.x) * (2 * blockDim.x) + tid;  // first add on load, as before
  smem[tid] = Op{}(load_or_identity<T, Op>(in, n, i, probe, 0), load_or_identity<T, Op>(in, n, i + blockDim.x, probe, 1));  // [load-add]
  probe.stage(0, kTagLoadAdd, 0), probe.work(0, true), probe.write(0, 0, tid), probe.values(0, smem[tid]);
  __syncthreads();
  probe.shared(0, smem, blockDim.x);

  int stage = 1;
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1, ++stage) {
    const bool work = tid < s;
    if (work) {
      const T a = smem[tid], b = smem[tid + s];  // [step]
      smem[tid] = Op{}(a, b);
      probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid), probe.values(stage, a, b, Op{}(a, b));
    }
    probe.stage(stage, kTagStep, s), probe.work(stage, work);
    __syncthreads();
    probe.shared(stage, smem, blockDim.x);
  }
  if (Probe::barriers || tid < 32) {
    volatile T* v = smem;
    for (unsigned s = blockDim.x / 2 < 32 ? blockDim.x / 2 : 32; s > 0; s >>= 1, ++stage) {
      const bool work = tid < 32 && tid + s < blockDim.x;
      if (work) {
        const T a = v[tid], b = v[tid + s];  // [warp-step] lanes in lockstep were assumed, not promised
        v[tid] = Op{}(a, b);
        probe.read(stage, 0, tid), probe.read(stage, 1, tid + s), probe.write(stage, 2, tid), probe.values(stage, a, b, Op{}(a, b));
      }
      probe.stage(stage, kTagWarpStep, s), probe.work(stage, work);
      probe.shared(stage, smem, blockDim.x);
    }
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
  if (tid == 0) probe.partial(blockIdx.x, smem[0]);
}
// >>>

// <<< syncthreads-in-branch
// PITFALL, never launched: a barrier inside a branch that not every thread takes. Threads
// with tid >= s never arrive, so the block deadlocks or the barrier misbehaves (undefined).
template <class T, class Op>
__global__ void syncthreads_in_branch(const T* in, T* out, std::size_t n) {
  T* smem = shared_array<T>();
  const unsigned tid = threadIdx.x;
  smem[tid] = load_or_identity<T, Op>(in, n, std::size_t(blockIdx.x) * blockDim.x + tid);  // [load]
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      smem[tid] = Op{}(smem[tid], smem[tid + s]);  // [step]
      __syncthreads();  // only the threads with tid < s reach this barrier
    }
  }
  if (tid == 0) out[blockIdx.x] = smem[0];
}
// >>>

// The launch table's entries for this file's block kernels (block_common.cuh).
RL_BLOCK_LAUNCH(NaiveSerial, naive_serial, 1);
RL_BLOCK_LAUNCH(InterleavedDivergent, interleaved_divergent, 1);
RL_BLOCK_LAUNCH(InterleavedBankConflicts, interleaved_bank_conflicts, 1);
RL_BLOCK_LAUNCH(Sequential, sequential, 1);
RL_BLOCK_LAUNCH(FirstAddOnLoad, first_add_on_load, 1);
RL_BLOCK_LAUNCH(UnrollLastWarp, unroll_last_warp, 1);
RL_BLOCK_LAUNCH_SIZED(CompleteUnroll, complete_unroll);
RL_BLOCK_LAUNCH_SIZED(MultiplePerThread, multiple_per_thread);
RL_BLOCK_LAUNCH(NonPow2Block, non_pow2_block, 1);
RL_BLOCK_LAUNCH(MissingSyncthreads, missing_syncthreads, 1);
RL_BLOCK_LAUNCH(LegacyWarpSynchronous, legacy_warp_synchronous, 1);

}  // namespace rl::kernels
