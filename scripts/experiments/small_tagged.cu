// Exploration for issue 53 (not part of the app): can the small problem, 3 x (2^20 + 1) halves,
// keep batched-rows-vectorized's bits and come within 1.25 times our 1D sum of the same halves?
// small_fold.cu put the gap in the fixed-order fold (about 1 us on an H200): after its chunk, each
// block stores its total, waits on __threadfence() until the store is visible, takes a ticket with
// atomicInc, and the block that draws the row's last ticket reads the row's totals back from L2 and
// folds them: three round trips to L2 one after another for the last block, where our 1D sum ends
// with one atomic. small_cluster.cu gathered the totals through a cluster instead: the same bits,
// but a cluster of at most 16 blocks a row left three rows 24-48 blocks, slower (two H100s).
// Here a block's total carries the launch's epoch in the same 8-byte store (value and epoch, one
// single-copy-atomic access), so a reader can tell a total of this launch from an old one and no
// fence is needed to order the store before anything:
//   tagged   the catalog's ticket, taken without the fence; the last block reads the row's tagged
//            totals and reads again any slot still holding an older epoch (the store is on its way)
//   first    no ticket: the row's first block (chunk 0) waits for the row's tagged totals and folds
//            them. It waits on blocks that must be resident or still to come: safe here, where the
//            whole grid fits on the GPU at once, and in the app only through a cooperative launch
//   count    no ticket, no tags: each block stores its total and adds one to the row's count with
//            release order; the row's first block waits (acquire) until the count says every other
//            block's total is there, folds them as fold_last does, and clears the count. Launched
//            plainly and cooperatively (which alone guarantees every block resident at once)
//   early    the row's head and tail (a few elements off the 16-byte vectors, loaded by the row's
//            first block) loaded before the vectors, not after their adds (the catalog's order),
//            so the first block waits on one round trip to memory, not two; added where the
//            catalog adds them: the same sum. With each end above, the catalog's ticket and one
//            atomic a block; `early, first` also launched cooperatively (what the catalog needs).
// tagged and first fold the totals exactly as fold_last does (the same fold_row and block_shuffle over the same
// totals in the same order, gathered in shared memory), so a row's sum keeps the catalog's bits for
// the same chunks: checked with memcmp against the catalog's launch, over elements whose sums round,
// with the control of small_cluster.cu (the totals in reverse must differ, or the check is blind),
// and again after the timed launches (later epochs). Timed as the benchmark takes its samples
// (median of 21 launches, each after an L2 eviction) beside the catalog, the same body ending in one
// atomic a block (no fixed order: the floor for any fold), and our 1D sum.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o small_tagged scripts/experiments/small_tagged.cu \
//     kernels/model/matrix_shapes.cpp && ./small_tagged
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "rows_chunk.cuh"
#include "rows_timing.cuh"

namespace k = rl::kernels;
using Half = rl::narrow::Half;
using Sum = rl::ops::Sum;
constexpr int kBlock = 256;
constexpr unsigned kMaxChunks = 128;

enum class End { Atomic, Ticket, Tagged, First, Count };

__device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// The row's `chunks` tagged totals, each once its epoch is this launch's, into `gathered`, then
// fold_last's fold of them (kReverse: in reverse order, the check's control). Every thread calls it.
template <bool kReverse>
__device__ float fold_tagged(const unsigned long long* slots, std::size_t chunks, unsigned epoch, float* gathered,
                             float* smem) {
  const unsigned tid = threadIdx.x;
  if (tid < chunks) {
    unsigned long long s = load_relaxed(slots + tid);
    for (unsigned spins = 0; unsigned(s >> 32) != epoch; ++spins) {
      if (spins > (1u << 26)) __trap();  // a total never came: fail loudly, never hang
      s = load_relaxed(slots + tid);
    }
    gathered[kReverse ? chunks - 1 - tid : tid] = __uint_as_float(unsigned(s));
  }
  __syncthreads();
  return fold_totals(gathered, chunks, smem);
}

// batched_rows_vectorized's body (rows_chunk.cuh), its end as kEnd says.
template <class In, End kEnd, bool kEarly, bool kReverse = false>
__global__ void __launch_bounds__(kBlock)
    rows_end(const In* in, std::size_t cols, std::size_t chunk_cols, std::size_t chunks, unsigned long long* slots,
             float* partials, unsigned* tickets, unsigned epoch, float* out) {
  __shared__ float smem[kBlock / 32];
  __shared__ alignas(16) float gathered[kMaxChunks];
  __shared__ bool fold;
  const unsigned tid = threadIdx.x;
  const std::size_t row = blockIdx.x / chunks, chunk = blockIdx.x % chunks;
  const float v = chunk_total<In, kEarly>(in, cols, chunk_cols, chunks, smem);
  if constexpr (kEnd == End::Atomic) {
    if (tid == 0) atomicAdd(out + row, v);
    return;
  } else if constexpr (kEnd == End::Ticket) {  // the catalog's end
    if (tid == 0) partials[blockIdx.x] = v;
    k::fold_last_chunk<float, Sum>(partials, out, chunks, tickets, smem);
    return;
  } else if constexpr (kEnd == End::Count) {  // release and acquire: the first block waits on a count
    if (tid == 0) partials[blockIdx.x] = v;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> count(tickets[row]);
    if (chunk != 0) {
      if (tid == 0) count.fetch_add(1, cuda::memory_order_release);  // the total above, then the count
      return;
    }
    if (tid == 0) {
      for (unsigned spins = 0; count.load(cuda::memory_order_acquire) != unsigned(chunks - 1); ++spins)
        if (spins > (1u << 26)) __trap();          // a block never came: fail loudly, never hang
      count.store(0, cuda::memory_order_relaxed);  // the next launch runs after this one ends
    }
    __syncthreads();
    const float w = fold_totals<true>(partials + row * chunks, chunks, smem);
    if (tid == 0) out[row] = w;
    return;
  }
  if (tid == 0) {
    store_relaxed(slots + blockIdx.x, (static_cast<unsigned long long>(epoch) << 32) | __float_as_uint(v));
    if constexpr (kEnd == End::Tagged)
      fold = atomicInc(tickets + row, unsigned(chunks - 1)) == unsigned(chunks - 1);  // no fence: the tag says
    else
      fold = chunk == 0;
  }
  __syncthreads();
  if (!fold) return;
  const float w = fold_tagged<kReverse>(slots + row * chunks, chunks, epoch, gathered, smem);
  if (tid == 0) out[row] = w;
}

struct Buffers {
  float* partials = nullptr;
  unsigned long long* slots = nullptr;
  unsigned* tickets = nullptr;
  float* sum = nullptr;
  unsigned epoch = 0;  // each launch's own; slots start at epoch 0, never a launch's
};

template <class In>
void time_type(const Lab& lab, const Cold& c, u64 rows, u64 cols, Buffers& b) {
  const u64 n = rows * cols;
  In* in = new_inexact<In>(n);
  const double bytes = double(n) * sizeof(In) + double(rows) * 4;
  char what[160];
  time_1d_sums(type_name<In>(), lab, c, in, n, bytes, b.sum);
  for (const u64 chunks : {u64(64), u64(128)}) {
    const std::size_t chunk_cols = k::split_chunk_cols({rows, cols}, chunks);
    const unsigned grid = unsigned(rows * chunks);
    const auto catalog = [&] {
      k::batched_rows_vectorized<float, Sum, k::NoProbe, In><<<grid, kBlock, kBlock / 32 * 4>>>(
          in, b.partials, cols, chunk_cols, chunks, k::NoProbe{}, lab.out, b.tickets);
      CK(cudaGetLastError());
    };
    const auto sums_of = [&](auto launch) {  // the output first set to a finite value no row has
      CK(cudaMemset(lab.out, 0x7f, rows * 4));
      launch();
      CK(cudaDeviceSynchronize());
      return rows_out(lab.out, rows);
    };
    const std::vector<float> want = sums_of(catalog);
    const auto same = [&](const std::vector<float>& a) { return std::memcmp(want.data(), a.data(), rows * 4) == 0; };
    snprintf(what, sizeof what, "%s catalog, %llu chunks a row (grid %u)", type_name<In>(), chunks, grid);
    time_line(what, lab, c, bytes, catalog);
    const auto variant = [&](auto kernel) {  // a launch of kernel, each with an epoch of its own
      return [&, kernel] {
        kernel<<<grid, kBlock>>>(in, cols, chunk_cols, chunks, b.slots, b.partials, b.tickets, ++b.epoch, lab.out);
        CK(cudaGetLastError());
      };
    };
    snprintf(what, sizeof what, "%s atomic a block, %llu chunks", type_name<In>(), chunks);
    time_line(what, lab, c, bytes, variant(rows_end<In, End::Atomic, false>));
    snprintf(what, sizeof what, "%s early, atomic a block, %llu chunks", type_name<In>(), chunks);
    time_line(what, lab, c, bytes, variant(rows_end<In, End::Atomic, true>));
    const auto check_and_time = [&](auto kernel, auto reversed, const char* name) {  // reversed null: no control
      const auto launch = variant(kernel);
      const char* check = !same(sums_of(launch))             ? " BITS DIFFER"
                          : !reversed                        ? " (the catalog's bits)"
                          : same(sums_of(variant(reversed))) ? " (same bits; in reverse too: the check is blind)"
                                                             : " (the catalog's bits; in reverse they differ)";
      snprintf(what, sizeof what, "%s %s, %llu chunks%s", type_name<In>(), name, chunks, check);
      time_line(what, lab, c, bytes, launch);
      if (!same(sums_of(launch)))
        printf("%s %s, %llu chunks: BITS DIFFER after the timed launches\n", type_name<In>(), name, chunks);
    };
    using Kernel = decltype(&rows_end<In, End::Ticket, true>);
    check_and_time(rows_end<In, End::Ticket, true>, Kernel(nullptr), "early, the catalog's ticket");
    check_and_time(rows_end<In, End::Tagged, false>, rows_end<In, End::Tagged, false, true>, "tagged");
    check_and_time(rows_end<In, End::First, false>, rows_end<In, End::First, false, true>, "first");
    check_and_time(rows_end<In, End::Tagged, true>, rows_end<In, End::Tagged, true, true>, "early, tagged");
    check_and_time(rows_end<In, End::First, true>, rows_end<In, End::First, true, true>, "early, first");
    check_and_time(rows_end<In, End::Count, false>, Kernel(nullptr), "count");
    // A cooperative launch: every block resident at once, as the CUDA guide guarantees only so.
    const auto time_cooperative = [&](auto kernel, const char* name) {
      const auto coop = [&, kernel] {
        std::size_t c0 = cols, c1 = chunk_cols, c2 = chunks;
        unsigned e = ++b.epoch;
        void* args[] = {(void*)&in, &c0, &c1, &c2, &b.slots, &b.partials, &b.tickets, &e, (void*)&lab.out};
        CK(cudaLaunchCooperativeKernel((void*)kernel, dim3(grid), dim3(kBlock), args, 0, 0));
      };
      const char* check = same(sums_of(coop)) ? " (the catalog's bits)" : " BITS DIFFER";
      snprintf(what, sizeof what, "%s %s, cooperative, %llu chunks%s", type_name<In>(), name, chunks, check);
      time_line(what, lab, c, bytes, coop);
    };
    time_cooperative(rows_end<In, End::Count, false>, "count");
    time_cooperative(rows_end<In, End::First, true>, "early, first");  // as the catalog would launch it
  }
  CK(cudaFree(in));
}

int main() {
  const u64 rows = 3, cols = (u64(1) << 20) + 1;
  const Lab lab = open_lab(rows * cols, rows);
  const Cold c = open_cold();
  Buffers b;
  CK(cudaMalloc(&b.partials, 4096 * 4));
  CK(cudaMalloc(&b.slots, 4096 * 8));
  CK(cudaMemset(b.slots, 0, 4096 * 8));
  CK(cudaMalloc(&b.sum, 4));
  CK(cudaMalloc(&b.tickets, rows * 4));
  CK(cudaMemset(b.tickets, 0, rows * 4));
  time_type<Half>(lab, c, rows, cols, b);
  time_type<float>(lab, c, rows, cols, b);
  printf("epochs used: %u\n", b.epoch);
  return 0;
}
