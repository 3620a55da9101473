// Exploration for issue 53 (not part of the app): flat-rows with its runs handed out by a queue
// and every row sum held to the kernel's end. flat_rows_held.cu (2026-12-06) found holding every
// sum of a run to its end in one wave of equal runs no better than the catalog's runs of a tile and
// a half (one block each, the hardware handing them out): in one wave the blocks' ends spread over
// a third of the kernel (flat_rows_stages.cu's blocks' ends), and the wave's last blocks read alone.
// Here one wave of blocks takes the catalog's runs from a counter (atomicAdd), as many as each can,
// and keeps the sums of all it took in shared memory, writing them only when its space is full or
// the queue is empty: the balance of the runs with the writes held apart from most of the reads.
// Its forms (kMode): 0, a ticket taken as each run starts; 1, the next run's ticket taken as a run
// starts and that run's first tiles copied into the buffers the run frees, so a block's copies need
// not wait for a run to start; 2, the same with the tickets taken two runs ahead, so no thread waits
// for a ticket; 3, the next run's ticket taken a run ahead, no copies ahead.
// Each row's sum is the catalog's (the same run split, tiles, lanes and order): only who adds it
// and when it is written differ. Beside it, the catalog's kernel in its own grid, as flat_rows_held
// times it: the best of 5 batches of 10 launches back to back; % of peak counts the matrix and
// its sums. The output is cleared before each form, and every form's sums are checked against a
// double sum after its last launch.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o flat_rows_queue \
//     scripts/experiments/flat_rows_queue.cu kernels/model/matrix_shapes.cpp && ./flat_rows_queue
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "flat_rows.cuh"
#include "flat_rows_common.cuh"

namespace k = rl::kernels;
namespace ptx = cuda::ptx;

constexpr int kMaxHeldRuns = 128;

// The held sums of a block, runs[0..n) of them at sums[0..), out to memory; then none held.
__device__ void flush(float* out, const float* sums, const std::size_t* first, const unsigned* count, int n) {
  std::size_t at = 0;
  for (int j = 0; j < n; ++j) {
    for (unsigned i = threadIdx.x; i < count[j]; i += blockDim.x) out[first[j] + i] = sums[at + i];
    at += count[j];
  }
  __syncthreads();
}

// One wave of blocks; runs: the catalog's run count for this matrix (flat_timed_grid's runs);
// cap: the row sums a block holds. next and done: zero before the first launch; the last block to
// finish sets them to zero again for the next.
// kStages: tiles in flight a block (the catalog's, or fewer to leave room for sums); kTileBytes:
// each tile's (the catalog's, or smaller: a run's tiles start at its base whatever their size, so
// each row's sum is still the whole row's, though its adds may fall in other tiles than the
// catalog's). flushes (may be null) counts the writes of held sums before the queue is empty.
template <class In, int kLanes, int kMode, int kStages = k::kFlatStages, int kTileBytes = k::kFlatTileBytes>
__global__ void __launch_bounds__(1024)
    flat_queue(const In* __restrict__ in, float* out, std::size_t rows, std::size_t cols, std::size_t runs, int cap,
               unsigned* next, unsigned* done, unsigned* flushes) {
  constexpr std::size_t per = k::kVectorBytes / sizeof(In), tile = std::size_t(kTileBytes) / sizeof(In);
  constexpr int stages = kStages;
  __shared__ std::uint64_t full[stages];
  __shared__ float carry[2];
  __shared__ unsigned taken;
  __shared__ std::size_t held_first[kMaxHeldRuns];
  __shared__ unsigned held_count[kMaxHeldRuns];
  In* buffers = k::shared_array<In>();
  float* sums = reinterpret_cast<float*>(buffers + std::size_t(stages) * tile);
  const unsigned tid = threadIdx.x, lane = tid % 32;
  if (tid == 0)
    for (int s = 0; s < stages; ++s) ptx::mbarrier_init(&full[s], 1);
  int used = 0, held = 0;
  std::size_t g = 0;  // tiles this block has waited for: each barrier's phase
  const int c = int(cols);
  // Thread 0's: the next runs' tickets (kMode 1-3) and the tiles issued so far, in the block's
  // order (kMode 1, 2: a freed buffer takes the next run's first tiles).
  constexpr bool kAhead = kMode == 1 || kMode == 2;
  unsigned ahead = 0, ahead2 = 0;
  std::size_t issued = 0;
  for (;;) {
    if (tid == 0) {
      if constexpr (kMode == 2) {
        if (g == 0)
          taken = atomicAdd(next, 1u), ahead = atomicAdd(next, 1u), ahead2 = atomicAdd(next, 1u);
        else
          taken = ahead, ahead = ahead2, ahead2 = atomicAdd(next, 1u);
      } else if constexpr (kMode == 1 || kMode == 3) {
        taken = g ? ahead : atomicAdd(next, 1u);
        if constexpr (kMode == 3) ahead = atomicAdd(next, 1u);
      } else {
        taken = atomicAdd(next, 1u);
      }
    }
    __syncthreads();
    const std::size_t r = taken;
    if (r >= runs) break;
    const k::FlatRun run = k::flat_run(rows, cols, runs, r, sizeof(In));
    const int run_rows = int(run.end - run.first);
    if (used + run_rows > cap || held == kMaxHeldRuns) {
      if (tid == 0 && flushes) atomicAdd(flushes, 1u);
      flush(out, sums, held_first, held_count, held);
      used = 0, held = 0;
    }
    const std::size_t copy_end = k::flat_copy_end(run, rows * cols, per);
    const std::size_t count = (run.hi - run.base + tile - 1) / tile;
    const auto copy = [&](const k::FlatRun& of, std::size_t t, std::size_t tile_g) {  // thread 0: tile t of run `of`
      const int s = int(tile_g % stages);
      const std::size_t of_end = k::flat_copy_end(of, rows * cols, per);
      const std::size_t t0 = of.base + t * tile, end = of_end < t0 + tile ? of_end : t0 + tile;
      const unsigned bytes = end > t0 ? unsigned((end - t0) * sizeof(In)) : 0u;
      if (bytes == 0) {
        ptx::mbarrier_arrive(&full[s]);
        return;
      }
      ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], bytes);
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buffers + std::size_t(s) * tile, in + t0, bytes,
                         &full[s]);
    };
    const auto start = [&](std::size_t t, std::size_t tile_g) { copy(run, t, tile_g); };
    const std::size_t g0 = g;  // this run's first tile in the block's order
    k::FlatRun after{};
    std::size_t after_count = 0;
    if (tid == 0) {
      ptx::fence_proxy_async(ptx::space_shared);  // earlier runs' reads of the buffers, then the copies
      if constexpr (kAhead) {
        if constexpr (kMode == 1) ahead = atomicAdd(next, 1u);
        if (ahead < runs) {
          after = k::flat_run(rows, cols, runs, ahead, sizeof(In));
          after_count = (after.hi - after.base + tile - 1) / tile;
        }
        issued = issued > g0 ? issued : g0;
        for (; issued < g0 + (count < std::size_t(stages) ? count : std::size_t(stages)); ++issued)
          start(issued - g0, issued);
      } else {
        for (int s = 0; s < stages && std::size_t(s) < count; ++s) start(std::size_t(s), g + std::size_t(s));
      }
    }
    std::size_t first_row = run.first;
    int f0 = int(run.lo - run.base);
    for (std::size_t t = 0; t < count; ++t, ++g) {
      const int s = int(g % stages);
      while (!ptx::mbarrier_try_wait_parity(&full[s], std::uint32_t(g / stages) & 1u)) {}
      In* b = buffers + std::size_t(s) * tile;
      const std::size_t t0 = run.base + t * tile, w1 = run.hi < t0 + tile ? run.hi : t0 + tile;
      const int from = t == 0 ? int(run.lo - run.base) : 0, to = int(w1 - t0);
      if (w1 > copy_end) {
        for (std::size_t e = copy_end + tid; e < w1; e += blockDim.x) b[e - t0] = in[e];
        __syncthreads();
      }
      const int here = int(unsigned(to - 1 - f0) / unsigned(c)) + 1, tasks = here * kLanes;
      for (int q = int(tid - lane); q < tasks; q += int(blockDim.x)) {
        const int task = q + int(lane), i = task / kLanes, l = task % kLanes;
        const int rs = f0 + i * c, a = rs > from ? rs : from, z = rs + c < to ? rs + c : to;
        float v = 0;
        if (task < tasks) {
          int j = a + l;
          for (; j + 3 * kLanes < z; j += 4 * kLanes) {
            In x[4];
            for (int u = 0; u < 4; ++u) x[u] = b[j + u * kLanes];
            for (int u = 0; u < 4; ++u) v = v + float(x[u]);
          }
          for (; j < z; j += kLanes) v = v + float(b[j]);
        }
        for (int offset = kLanes / 2; offset > 0; offset /= 2) v = v + __shfl_down_sync(0xffffffffu, v, offset, kLanes);
        if (task < tasks && l == 0) {
          if (rs < from) v = carry[t & 1] + v;
          if (rs + c > to)
            carry[(t + 1) & 1] = v;
          else
            sums[used + int(first_row - run.first) + i] = v;
        }
      }
      const int skip = int(unsigned(int(tile) - f0) / unsigned(c));
      first_row += std::size_t(skip), f0 += skip * c - int(tile);
      __syncthreads();
      if (tid == 0 && !kAhead && t + stages < count) {
        ptx::fence_proxy_async(ptx::space_shared);
        start(t + stages, g + stages);
      }
      if (tid == 0 && kAhead && issued == g + stages) {  // the freed buffer: this run's next tile, or the next run's
        const std::size_t p = g + stages;
        if (p < g0 + count) {
          ptx::fence_proxy_async(ptx::space_shared);
          start(p - g0, p), ++issued;
        } else if (ahead < runs && p - (g0 + count) < after_count) {
          ptx::fence_proxy_async(ptx::space_shared);
          copy(after, p - (g0 + count), p), ++issued;
        }
      }
    }
    if (tid == 0) held_first[held] = run.first, held_count[held] = unsigned(run_rows);
    used += run_rows, ++held;
    __syncthreads();
  }
  flush(out, sums, held_first, held_count, held);
  if (tid == 0) {
    __threadfence();
    if (atomicAdd(done, 1u) == gridDim.x - 1) *next = 0, *done = 0;
  }
}

struct Queue {
  unsigned* counters = nullptr;  // next, done, flushes
};

template <class In, int kLanes>
struct Runner {
  const Lab& lab;
  const Queue& queue;
  const In* in;
  u64 rows, cols;

  template <class Launch>
  float time_launch(const char* what, unsigned grid, int block, double bytes, Launch&& launch) const {
    CK(cudaMemset(lab.out, 0x7f, rows * 4));  // 3.4e38 in each float: a row not written fails the check
    const float ms = back_to_back_ms(launch, 10, 5);
    const unsigned long long wrong = lab.wrong_rows(in, rows, cols);
    printf("    %-48s grid %5u block %4d: %5.1f %%  %7.1f us%s\n", what, grid, block, lab.pct(bytes, ms), ms * 1e3,
           wrong ? " WRONG" : "");
    fflush(stdout);
    return ms;
  }

  // The catalog's kernel in its own grid.
  void catalog(int block, double bytes, std::size_t runs) const {
    const int ring = k::flat_held_rows(cols, sizeof(In), 4);
    const auto kernel = k::flat_rows<float, rl::ops::Sum, k::NoProbe, In, kLanes>;
    const int smem = k::kFlatTileBytes * k::kFlatStages + ring * 4;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    time_launch("catalog (runs, its ring)", unsigned(runs), block, bytes,
                [&] { kernel<<<unsigned(runs), block, smem>>>(in, lab.out, rows, cols, kLanes, ring, k::NoProbe{}); });
  }

  // The bytes a launch moves (the matrix and a float a row) and the catalog's run count for this
  // shape (its own rule; an SM of sm_90 holds 2048 threads, DeviceShape's default); prints the
  // shape's line and times the catalog's kernel.
  struct Start {
    double bytes;
    std::size_t runs;
  };
  Start start(int block) const {
    const std::size_t eb = sizeof(In);
    const double bytes = double(rows) * double(cols) * double(eb) + double(rows) * 4;
    const std::size_t runs = k::flat_timed_grid(k::Matrix{rows, cols}, block, k::DeviceShape(lab.sms), eb);
    printf("  %llu x %llu %s, blocks of %d, %zu runs\n", rows, cols, eb == 2 ? "halves" : "floats", block, runs);
    catalog(block, bytes, runs);
    return {bytes, runs};
  }

  void run(int block) const {
    const auto [bytes, runs] = start(block);
    const int tiles = k::kFlatTileBytes * k::kFlatStages;
    queue_forms<0>("queue", tiles, block, bytes, runs);
    queue_forms<1>("queue, next run's tiles ahead", tiles, block, bytes, runs);
    queue_forms<2>("queue, tiles and two tickets ahead", tiles, block, bytes, runs);
    queue_forms<3>("queue, a ticket ahead", tiles, block, bytes, runs);
  }

  // `held` mode: fewer tiles in flight, more blocks an SM, and every byte of shared memory left
  // for sums (the static arrays and the runtime's reserve measured, not guessed), so that a block
  // can hold all it takes to the queue's end; the early writes counted a block and launch.
  template <int kMode, int kStages, int kTileBytes = k::kFlatTileBytes>
  void held_forms(const char* name, int block, double bytes, std::size_t runs, int min_per_sm = 2) const {
    const auto kernel = flat_queue<In, kLanes, kMode, kStages, kTileBytes>;
    int limit = 0, reserved = 0;
    CK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
    CK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, 0));
    cudaFuncAttributes attr;
    CK(cudaFuncGetAttributes(&attr, kernel));
    const int tiles = kTileBytes * kStages;
    for (int per_sm = min_per_sm; per_sm <= 8; ++per_sm) {
      const int smem = ((limit / per_sm - reserved - int(attr.sharedSizeBytes)) / 16 * 16);
      const int cap = (smem - tiles) / 4;
      if (cap < 1) break;
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      int fit = 0;
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, block, smem));
      if (fit < per_sm) continue;
      const unsigned grid = unsigned(per_sm * lab.sms);
      const double need = double(rows) / grid;  // sums a block holds, on average, to hold them all
      char what[96];
      snprintf(what, sizeof what, "%s, %d x %d KB, %d an SM, %d sums (%.0f)", name, kStages, kTileBytes / 1024, per_sm,
               cap, need);
      unsigned* next = queue.counters;
      CK(cudaMemset(next + 2, 0, 4));
      time_launch(what, grid, block, bytes, [&] {
        kernel<<<grid, block, smem>>>(in, lab.out, rows, cols, runs, cap, next, next + 1, next + 2);
        CK(cudaGetLastError());
      });
      unsigned flushes = 0;
      CK(cudaMemcpy(&flushes, next + 2, 4, cudaMemcpyDeviceToHost));
      printf("      early writes: %.2f a block and launch\n", double(flushes) / 51.0 / grid);  // back_to_back_ms: 51
    }
  }

  void held(int block) const {
    const auto [bytes, runs] = start(block);
    held_forms<0, 4>("queue", block, bytes, runs);
    held_forms<0, 3>("queue", block, bytes, runs);
    held_forms<0, 2>("queue", block, bytes, runs);
    held_forms<3, 3>("queue, a ticket ahead", block, bytes, runs);
    held_forms<3, 2>("queue, a ticket ahead", block, bytes, runs);
  }

  // `tiles` mode: smaller tiles, more of them in flight a block, in three blocks an SM or more, so
  // that a block's copies stay in flight while it adds (the catalog's two tiles leave one).
  void tiles(int block) const {
    const auto [bytes, runs] = start(block);
    held_forms<3, 2, 32768>("a ticket ahead", block, bytes, runs, 3);
    held_forms<3, 4, 16384>("a ticket ahead", block, bytes, runs, 3);
    held_forms<3, 3, 16384>("a ticket ahead", block, bytes, runs, 3);
    held_forms<3, 2, 16384>("a ticket ahead", block, bytes, runs, 3);
    held_forms<3, 8, 8192>("a ticket ahead", block, bytes, runs, 3);
    held_forms<3, 6, 8192>("a ticket ahead", block, bytes, runs, 3);
    held_forms<3, 4, 8192>("a ticket ahead", block, bytes, runs, 3);
    held_forms<0, 4, 16384>("queue", block, bytes, runs, 3);
    held_forms<0, 8, 8192>("queue", block, bytes, runs, 3);
  }

  template <int kMode>
  void queue_forms(const char* name, int tiles, int block, double bytes, std::size_t runs) const {
    const auto kernel = flat_queue<In, kLanes, kMode>;
    for (int per_sm : {3, 2}) {  // blocks an SM: the rest of its shared memory holds sums
      int limit = 0;
      CK(cudaDeviceGetAttribute(&limit, cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0));
      const int smem = (limit - 1024 * per_sm) / per_sm / 16 * 16 - 2048;  // less the static arrays
      const int cap = (smem - tiles) / 4;
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      int fit = 0;
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, block, smem));
      if (fit < per_sm) {
        printf("    %s, %d an SM: only %d fit\n", name, per_sm, fit);
        continue;
      }
      const unsigned grid = unsigned(per_sm * lab.sms);
      char what[96];
      snprintf(what, sizeof what, "%s, %d an SM, %d sums", name, per_sm, cap);
      unsigned* next = queue.counters;
      time_launch(what, grid, block, bytes, [&] {
        kernel<<<grid, block, smem>>>(in, lab.out, rows, cols, runs, cap, next, next + 1, nullptr);
        CK(cudaGetLastError());
      });
    }
  }
};

// No argument: the four forms as first timed (2026-12-06). `held`: the queue with the sums held to
// its end where they fit (fewer tiles in flight, more blocks an SM). `tiles`: smaller tiles.
int main(int argc, char** argv) {
  static_assert(k::flat_row_lanes(100) == 4 && k::flat_row_lanes(33) == 1, "the lanes the runners are built for");
  const std::string mode = argc > 1 ? argv[1] : "";
  const bool held = mode == "held";
  const u64 n = 100000000;
  const Lab lab = open_lab(n, 3000000);
  Queue q;
  CK(cudaMalloc(&q.counters, 12));
  CK(cudaMemset(q.counters, 0, 12));
  __half* halves = lab_halves(lab, n);
  if (mode == "tiles") {
    for (int block : {256, 128}) {
      Runner<float, 4>{lab, q, lab.in, 1000000, 100}.tiles(block);
      Runner<float, 1>{lab, q, lab.in, 3000000, 33}.tiles(block);
    }
    Runner<__half, 4>{lab, q, halves, 1000000, 100}.tiles(256);
  } else if (held) {
    Runner<float, 4>{lab, q, lab.in, 1000000, 100}.held(256);
    Runner<float, 1>{lab, q, lab.in, 3000000, 33}.held(256);
    Runner<__half, 4>{lab, q, halves, 1000000, 100}.held(256);
  } else {
    for (int block : {256, 512}) {
      Runner<float, 4>{lab, q, lab.in, 1000000, 100}.run(block);
      Runner<float, 1>{lab, q, lab.in, 3000000, 33}.run(block);
    }
    Runner<__half, 4>{lab, q, halves, 1000000, 100}.run(256);
    Runner<__half, 1>{lab, q, halves, 3000000, 33}.run(256);
  }
  CK(cudaFree(halves));
  CK(cudaFree(q.counters));
  return 0;
}
