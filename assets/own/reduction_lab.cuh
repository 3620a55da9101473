// reduction_lab.cuh: the one header a kernel of your own includes. Everything it does is here to
// read; the lesson "Write your own" walks through it.
//
// - Every __syncthreads() in your file ends a stage: after the barrier, the block Reduction Lab
//   traces copies its dynamic shared memory (extern __shared__) into the trace, with the line of
//   the barrier, then waits once more so that no thread writes before the copy is done (two
//   barriers in a row order memory exactly as one does).
// - rl_param(value): a number shown with the stage in progress (a stride, an offset); thread 0's.
// - rl_lanes(value): each calling thread's value in a register, recorded as a step of the stage in
//   progress: call it after each shuffle step to watch a warp's lanes.
// - rl_warp_stage(): a stage ended inside one warp (after its __syncwarp()), where no block-wide
//   barrier is left to end it: Harris' last warp.
// - rl_grid_sync(): every block of the grid waits for every other (a cooperative launch's
//   grid.sync()); the file says "//! launch: cooperative".
//
// Blocks other than the traced one, and untraced runs, skip the copies: one load and a compare.
#pragma once

// half and bf16 (--type half, bf16): value_t is rl_half or rl_bf16, 16 bits of this header's own,
// since NVRTC finds CUDA's cuda_fp16.h only where the CUDA Toolkit is installed. Each + is one
// instruction rounded once to the type: add.rn.f16, as CUDA's __hadd_rn (__hadd's add.f16 may be
// fused with a multiply), and for bf16 fma.rn.bf16 by 1, as CUDA's __hadd_rn before sm_90, which
// has no bf16 add (a x 1 is exact: the same sum). From numbers by cvt.rn, rounded once; to float
// exactly (float holds every half and bfloat16), so <, > and == compare as floats.
template <bool Bf>
struct rl_narrow16 {
  unsigned short bits;
  rl_narrow16() = default;
  __device__ rl_narrow16(float x) {
    if constexpr (Bf)
      asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(bits) : "f"(x));
    else
      asm("cvt.rn.f16.f32 %0, %1;" : "=h"(bits) : "f"(x));
  }
  __device__ rl_narrow16(double x) {
    if constexpr (Bf)
      asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(bits) : "d"(x));
    else
      asm("cvt.rn.f16.f64 %0, %1;" : "=h"(bits) : "d"(x));
  }
  __device__ rl_narrow16(long long x) {
    if constexpr (Bf)
      asm("cvt.rn.bf16.s64 %0, %1;" : "=h"(bits) : "l"(x));
    else
      asm("cvt.rn.f16.s64 %0, %1;" : "=h"(bits) : "l"(x));
  }
  __device__ rl_narrow16(int x) : rl_narrow16(static_cast<long long>(x)) {}
  __device__ rl_narrow16(unsigned int x) : rl_narrow16(static_cast<long long>(x)) {}
  __device__ operator float() const {
    float f;
    if constexpr (Bf)
      asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(bits));
    else
      asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(bits));
    return f;
  }
  __device__ rl_narrow16& operator+=(rl_narrow16 b) { return *this = *this + b; }
  friend __device__ rl_narrow16 operator+(rl_narrow16 a, rl_narrow16 b) {
    rl_narrow16 r;
    if constexpr (Bf)
      asm("{ .reg .b16 %%one; mov.b16 %%one, 0x3F80; fma.rn.bf16 %0, %1, %%one, %2; }"
          : "=h"(r.bits)
          : "h"(a.bits), "h"(b.bits));
    else
      asm("add.rn.f16 %0, %1, %2;" : "=h"(r.bits) : "h"(a.bits), "h"(b.bits));
    return r;
  }
};
typedef rl_narrow16<false> rl_half;
typedef rl_narrow16<true> rl_bf16;

// Shuffles of a half or bf16: its 16 bits through the 32-bit shuffle.
#define RL_NARROW_SHUFFLE(name, Arg)                                                                    \
  template <bool Bf>                                                                                    \
  __device__ inline rl_narrow16<Bf> name(unsigned int mask, rl_narrow16<Bf> v, Arg b, int width = 32) { \
    rl_narrow16<Bf> r;                                                                                  \
    r.bits = static_cast<unsigned short>(name(mask, static_cast<unsigned int>(v.bits), b, width));      \
    return r;                                                                                           \
  }
RL_NARROW_SHUFFLE(__shfl_sync, int)
RL_NARROW_SHUFFLE(__shfl_up_sync, unsigned int)
RL_NARROW_SHUFFLE(__shfl_down_sync, unsigned int)
RL_NARROW_SHUFFLE(__shfl_xor_sync, int)
#undef RL_NARROW_SHUFFLE

// The element type of the run (--type): float unless Reduction Lab compiles with another.
#ifndef RL_VALUE_TYPE
#define RL_VALUE_TYPE float
#endif
typedef RL_VALUE_TYPE value_t;

// Where the traced block writes; the host (or the CPU interpreter) fills it before the launch.
// shared == 0: nothing is recorded.
struct rl_trace_sink {
  unsigned int traced_block;  // blockIdx.x of the block recorded (rl_traced_block tests it)
  unsigned int max_stages;    // stages the buffers hold; later barriers are not recorded
  unsigned int max_steps;     // rl_lanes steps a stage holds
  unsigned int shared_bytes;  // bytes a stage copies: the launch's dynamic shared memory
  unsigned int stages;        // barriers recorded so far (thread 0 of the traced block counts)
  int* lines;  // [max_stages] the line that ended the stage (rl_warp_stage: negated; rl_grid_sync: + 2^30)
  int* params;                // [max_stages] rl_param's value in that stage (0 when none)
  unsigned char* shared;      // [max_stages][shared_bytes] shared memory after the barrier
  unsigned int* steps;        // [blockDim.x] each thread's rl_lanes calls in the stage in progress
  unsigned long long* lanes;  // [max_stages + 1][max_steps][blockDim.x][2] the value's bits, then 1: it called
};
__device__ rl_trace_sink rl_sink;

extern __shared__ __align__(16) unsigned char rl_dynamic_shared[];

// The block traced, set by the host before each launch (0xffffffff: none). In constant memory, so
// the test at each barrier is one compare with an operand of the constant bank and no load: a
// load there made the reduce2 starter 2.4 times slower than the same kernel without the header
// (an H200, docs/verification.md).
__constant__ unsigned int rl_traced_block = 0xffffffffu;

__device__ __forceinline__ bool rl_traced() { return blockIdx.x == rl_traced_block; }

__device__ __forceinline__ unsigned int rl_thread() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

__device__ inline void rl_param(int value) {
  if (rl_traced() && rl_thread() == 0 && rl_sink.stages < rl_sink.max_stages) rl_sink.params[rl_sink.stages] = value;
}

template <class T>
__device__ inline void rl_lanes(T value) {
  static_assert(sizeof(T) <= sizeof(unsigned long long), "rl_lanes records values of up to 8 bytes");
  if (!rl_traced()) return;
  const unsigned int t = rl_thread(), threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned int stage = rl_sink.stages, step = rl_sink.steps[t];
  if (stage > rl_sink.max_stages || step >= rl_sink.max_steps) return;
  unsigned long long bits = 0;
  for (unsigned int i = 0; i < sizeof(T); ++i)
    reinterpret_cast<unsigned char*>(&bits)[i] = reinterpret_cast<const unsigned char*>(&value)[i];
  const unsigned long long at = ((static_cast<unsigned long long>(stage) * rl_sink.max_steps + step) * threads + t) * 2;
  rl_sink.lanes[at] = bits;
  rl_sink.lanes[at + 1] = 1;  // this thread called rl_lanes in this step (its value may be 0)
  rl_sink.steps[t] = step + 1;
}

// The barrier your __syncthreads() calls become, and the copy after it. Every thread reads the
// stage number before the first barrier and thread 0 moves it on between the two, so each read
// is ordered against the write by a barrier.
__device__ inline void rl_barrier(int line) {
  const bool traced = rl_traced();  // the same for every thread of a block: no divergent barrier
  // Read through volatile: the compiler would otherwise load the stage in every block and select
  // (its PTX did), a global load before each barrier of every untraced block.
  unsigned int stage = 0;
  if (traced) stage = *static_cast<volatile unsigned int*>(&rl_sink.stages);
  __syncthreads();
  if (!traced) return;
  const unsigned int t = rl_thread(), threads = blockDim.x * blockDim.y * blockDim.z;
  if (stage < rl_sink.max_stages) {
    unsigned char* to = rl_sink.shared + static_cast<unsigned long long>(stage) * rl_sink.shared_bytes;
    for (unsigned int i = t; i < rl_sink.shared_bytes; i += threads) to[i] = rl_dynamic_shared[i];
    if (t == 0) rl_sink.lines[stage] = line;
  }
  rl_sink.steps[t] = 0;
  if (t == 0) rl_sink.stages = stage + 1;
  __syncthreads();  // the copy is done and the new stage number visible before anyone moves on
}

#ifndef RL_UNTRACED
#define __syncthreads() rl_barrier(__LINE__)
#endif

// rl_grid_sync(): every thread of the grid waits here until every block has arrived, as
// cooperative groups' grid.sync() does, its steps written out: one counter for the grid; block 0
// adds 0x80000001 minus the blocks, every other block 1, so the counter's top bit flips once all
// have arrived, and each block's thread 0 waits for the flip. Its add releases and its loads
// acquire, so what a block stored before it, every block sees after it. Only in a cooperative
// launch ("//! launch: cooperative"), where every block is resident at once: in any other, a block
// may wait for blocks that cannot start until it ends. It ends a stage, as __syncthreads() does.
__device__ unsigned int rl_grid_arrived;
__device__ inline void rl_grid_sync_at(int line) {
  asm volatile("bar.sync 0;" ::: "memory");  // the block's threads, and their stores, are here
  if (rl_thread() == 0) {
    const unsigned int blocks = gridDim.x * gridDim.y * gridDim.z;
    const unsigned int add = blockIdx.x + blockIdx.y + blockIdx.z == 0 ? 0x80000001u - blocks : 1u;
    unsigned int old = 0, now = 0;
    asm volatile("atom.add.release.gpu.u32 %0, [%1], %2;" : "=r"(old) : "l"(&rl_grid_arrived), "r"(add) : "memory");
    do {
      asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(now) : "l"(&rl_grid_arrived) : "memory");
    } while (((old ^ now) & 0x80000000u) == 0);
  }
#ifndef RL_UNTRACED
  rl_barrier(line + (1 << 30));  // the block waits for its thread 0; the stage's line says rl_grid_sync
#else
  (void)line;
  __syncthreads();
#endif
}
#define rl_grid_sync() rl_grid_sync_at(__LINE__)

// rl_warp_stage(): ends a stage inside one warp, once the block's barriers are behind it (Harris'
// last warp). Every active lane of that warp calls it after the __syncwarp() that ends a step; the
// lanes copy the traced block's shared memory as a barrier does, and the line is recorded
// negated, so the trace tells a warp's stage from a barrier's. One warp of a block calls it,
// while the block's other warps no longer write shared memory. Other blocks return at once; in
// the traced block the lanes wait for each other around the copy, and the CPU path's race check
// does not count those two waits, so a __syncwarp() of yours taken out is still named as a race.
__device__ inline void rl_warp_stage_at(int line) {
  if (!rl_traced()) return;  // the same for every lane
  const unsigned int mask = __activemask();
  const unsigned int stage = rl_sink.stages;
  __syncwarp(mask);
  const unsigned int lane = rl_thread() % 32, lanes = __popc(mask), rank = __popc(mask & ((1u << lane) - 1u));
  if (stage < rl_sink.max_stages) {
    unsigned char* to = rl_sink.shared + static_cast<unsigned long long>(stage) * rl_sink.shared_bytes;
    for (unsigned int i = rank; i < rl_sink.shared_bytes; i += lanes) to[i] = rl_dynamic_shared[i];
    if (rank == 0) rl_sink.lines[stage] = -line;
  }
  rl_sink.steps[rl_thread()] = 0;
  if (rank == 0) rl_sink.stages = stage + 1;
  __syncwarp(mask);  // the copy is done and the new stage number visible before the warp moves on
}

#ifndef RL_UNTRACED
#define rl_warp_stage() rl_warp_stage_at(__LINE__)
#else
// Timed (bench --kernel, RL_UNTRACED): your kernel as you wrote it. __syncthreads() is the plain
// barrier, and the recording calls do nothing, as the catalog's kernels are timed without their
// probes (the test at each barrier alone cost the reduce2 starter a third more time on an H200).
#define rl_param(value) ((void)(value))
#define rl_lanes(value) ((void)(value))
#define rl_warp_stage() ((void)0)
#endif
