// Prototype for issue 53 (an exploration, not part of the app): the catalog's flat-rows kernel as
// of 2026-12-03 (then in kernels/short_rows.cuh; no ring of held sums; float sums, no probe) with
// its tile bytes, buffers and block size as template parameters, its tiles on the same 128-byte
// boundaries (flat_run), beside the same
// copies with no adds, and with the row sums' writes alone: how much of the gap to the copies is the
// buffers' count, the adds, or the writes. With `half`, the same over halves (float sums, each
// element widened as it is added, as the catalog's kernel does): the tiles hold twice the rows.
// Tiles of 30592 bytes beside the catalog's 32 KB (in `runs`, runs of 48 KB for both): whether
// the passes a block of 256 takes over a tile's rows decide rows of 15 floats (flat_odd_call.sh);
// in `runs` also tiles of 26496 bytes (rows of 13: two passes, not three) and of 17152 (rows of
// 17: one pass, not two). Run on two H100s so far (GPU-60513d3e, GPU-6ff5fc18): at rows of 13, 15
// and 17, within 1.0 of the 32 KB tiles (docs/benchmarks.md, "flat-rows' tiles a pass
// shorter"). The last column drops the block barrier at a tile's end where no copy refills the
// buffer (none in a run of a tile and a half): at rows of 15 Nsight Compute counted warps waiting
// at a barrier 2.4 times as often as at 17 (GPU-6ff5fc18), where a tile's third pass is a seventh
// full; on two H100s it read no faster (2026-12-07, "The small problem's fold through a cluster,
// and flat-rows without its tile-end barrier"). `sms` times the copies, the copies with the row
// sums' writes and the kernel with all but 110, 94 or 80 SMs held idle, each free SM then with a
// larger share of the memory's bandwidth: does an H100 so held show the H200s' gap at rows of 15?
// It does, with 94 SMs free (docs/benchmarks.md, "An H100 with SMs held idle shows the H200s' gap
// at rows of 15"); `tiles` times the tile as a kernel argument, 32 KB and a pass shorter.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels \
//     -o flat_rows_stages scripts/experiments/flat_rows_stages.cu && ./flat_rows_stages [half] [runs] [sms [blocks]]
//     [tiles]
#include <cuda/ptx>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "flat_rows_common.cuh"
#include "held_sms.cuh"
#include "matrix_shapes.h"
namespace ptx = cuda::ptx;
using rl::kernels::FlatRun;

template <int kWork>
__device__ __forceinline__ void put(float* p, float v) {
  if (kWork == 4 || kWork == 5)
    __stcs(p, v);
  else if (kWork != 3 || v == 12345.f)
    *p = v;
}

__device__ __forceinline__ u64 now_ns() {
  u64 t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// kWork: 0 the copies alone, 1 the copies and a row sum written for each row (the output's
// traffic without the adds), 2 the catalog's kernel, 3 its adds with no writes, 4 the catalog's
// kernel with streaming stores (st.global.cs), 5 mode 1 with streaming stores, 6 the catalog's kernel
// with a block barrier at a tile's end only where a copy refills the buffer next (a run of a tile
// and a half has none): a cut row's sum goes to the next tile through a flag, so a thread done with
// a tile's last pass starts the next tile's rows. times (may be null): each block's first
// and last nanosecond (%globaltimer), to see whether the blocks' runs end together.
// kTileBytes 0: the tile's elements from tile_arg, worked out on the host (pass_tile_bytes), so one
// kernel takes any tile; else kTileBytes, a constant (tile_arg unused).
template <class In, int kTileBytes, int kStages, int kBlock, int kWork>
__global__ void __launch_bounds__(kBlock)
    flat(const In* __restrict__ in, float* out, u64 rows, u64 cols, int lanes, u64* times, unsigned tile_arg) {
  // Mode 6 skips the barrier of the last kStages tiles; with two, the last tile never cuts a row (a
  // run ends with one), so no carry slot is written twice between barriers.
  static_assert(kWork != 6 || kStages == 2, "mode 6 takes two buffers");
  if (times && threadIdx.x == 0) times[2 * blockIdx.x] = now_ns();
  constexpr u64 per = 16 / sizeof(In);
  const u64 tile = kTileBytes ? u64(kTileBytes) / sizeof(In) : u64(tile_arg);
  extern __shared__ __align__(128) unsigned char raw[];
  In* buffers = reinterpret_cast<In*>(raw);
  __shared__ std::uint64_t full[kStages];
  __shared__ float carry[2];
  __shared__ volatile int carried[2];  // mode 6: the tile whose carry is written in carry[k & 1]
  const unsigned tid = threadIdx.x, lane = tid % 32;
  const FlatRun run = rl::kernels::flat_run(rows, cols, gridDim.x, blockIdx.x, sizeof(In));
  const u64 copy_end = rl::kernels::flat_copy_end(run, rows * cols, per);
  const u64 count = (run.hi - run.base + tile - 1) / tile;
  const auto start = [&](u64 k, int s) {
    const u64 t0 = run.base + k * tile, end = copy_end < t0 + tile ? copy_end : t0 + tile;
    const unsigned bytes = end > t0 ? unsigned((end - t0) * sizeof(In)) : 0u;
    if (bytes == 0) {
      ptx::mbarrier_arrive(&full[s]);
      return;
    }
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], bytes);
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buffers + u64(s) * tile, in + t0, bytes, &full[s]);
  };
  if (tid == 0) {
    carried[0] = carried[1] = -1;
    for (int s = 0; s < kStages; ++s) ptx::mbarrier_init(&full[s], 1);
    ptx::fence_proxy_async(ptx::space_shared);
    for (int s = 0; s < kStages && u64(s) < count; ++s) start(u64(s), s);
  }
  __syncthreads();
  const int c = int(cols), shift = __ffs(lanes) - 1;
  u64 first_row = run.first;
  int f0 = int(run.lo - run.base);
  float sink = 0;
  for (u64 k = 0; k < count; ++k) {
    const int s = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[s], std::uint32_t(k / kStages) & 1u)) {}
    In* b = buffers + u64(s) * tile;
    const u64 t0 = run.base + k * tile, w1 = run.hi < t0 + tile ? run.hi : t0 + tile;
    const int from = k == 0 ? int(run.lo - run.base) : 0, to = int(w1 - t0);
    if (w1 > copy_end) {
      for (u64 e = copy_end + tid; e < w1; e += blockDim.x) b[e - t0] = in[e];
      __syncthreads();
    }
    if (kWork < 2 || kWork == 5) {  // the copies alone: one read a thread keeps the buffer's bytes wanted
      sink += float(b[tid]);
      const int ends = int(unsigned(to - f0) / unsigned(c));  // rows that end in the tile
      if (kWork != 0)
        for (int i = int(tid); i < ends; i += int(blockDim.x)) put<kWork>(out + first_row + u64(i), sink);
    } else {
      const int here = int(unsigned(to - 1 - f0) / unsigned(c)) + 1, tasks = here * lanes;
      for (int q = int(tid - lane); q < tasks; q += int(blockDim.x)) {
        const int t = q + int(lane), i = t >> shift, l = t & (lanes - 1);
        const int rs = f0 + i * c, a = rs > from ? rs : from, z = rs + c < to ? rs + c : to;
        float v = 0;
        if (t < tasks) {
          int j = a + l;
          for (; j + 3 * lanes < z; j += 4 * lanes) {
            In x[4];
            for (int u = 0; u < 4; ++u) x[u] = b[j + u * lanes];
            for (int u = 0; u < 4; ++u) v += float(x[u]);
          }
          for (; j < z; j += lanes) v += float(b[j]);
        }
        for (int offset = lanes / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset, lanes);
        if (t < tasks && l == 0) {
          if (kWork == 6 && rs < from) {
            const long long t0 = clock64();  // a flag never set is a bug: trap, not a hung call
            while (carried[k & 1] != int(k))
              if (clock64() - t0 > (1ll << 32)) __trap();
            __threadfence_block();  // the flag before the carry it guards
          }
          if (rs < from) v = carry[k & 1] + v;
          if (rs + c > to) {
            carry[(k + 1) & 1] = v;
            if (kWork == 6) __threadfence_block(), carried[(k + 1) & 1] = int(k + 1);
          } else
            put<kWork>(out + first_row + u64(i), v);
        }
      }
    }
    const int skip = int(unsigned(int(tile) - f0) / unsigned(c));
    first_row += u64(skip), f0 += skip * c - int(tile);
    if (kWork != 6 || k + kStages < count) __syncthreads();
    if (tid == 0 && k + kStages < count) {
      ptx::fence_proxy_async(ptx::space_shared);
      start(k + kStages, s);
    }
  }
  if (sink == 12345.f) out[0] = sink;
  if (times && threadIdx.x == 0) times[2 * blockIdx.x + 1] = now_ns();
}

struct Shape {
  u64 rows, cols;
  const char* name;
};

// `sms` (the argument): all but g_free SMs held idle (held_sms.cuh), so the kernels timed run on
// the rest, each SM then with a larger share of the memory's bandwidth.
static int g_free = 0;         // 0: every SM
static bool g_blocks = false;  // `sms blocks`: also blocks of 128 and 512

// `runs` (the argument): a block a run of a tile and a half where those runs outnumber a wave, else
// one wave: the catalog's timed grid for floats (flat_timed_grid), which keeps one wave for halves
// on rows of 16-byte multiples where this takes runs at every shape.
static bool g_runs = false;
// A run's bytes in `runs`: the catalog's, a tile and a half of 32 KB, whatever the tile timed.
constexpr u64 kRunBytes = 32768 * 3 / 2;

template <class In, int kTileBytes, int kStages, int kBlock, int kWork>
float run_ms(const Lab& lab, const In* in, const Shape& s, u64* times = nullptr, u64* grid_out = nullptr,
             unsigned tile_bytes = 0) {  // tile_bytes: kTileBytes 0's tile
  // Smaller tiles ask for the catalog's 64 KB all the same: the blocks an SM stay, only the passes change.
  constexpr int ring = kTileBytes * kStages < 65536 ? 65536 : kTileBytes * kStages;
  const unsigned tile_arg = unsigned(tile_bytes / sizeof(In));
  auto kernel = flat<In, kTileBytes, kStages, kBlock, kWork>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, ring));
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kBlock, ring));
  const u64 wave = u64(fit) * u64(lab.sms), run = kRunBytes / sizeof(In);
  const u64 runs = std::max((s.rows * s.cols + run - 1) / run, wave);
  const u64 grid = std::min(g_runs ? runs : wave, s.rows);
  const int lanes = rl::kernels::flat_row_lanes(s.cols);
  if (grid_out) *grid_out = grid;
  const auto launch = [&] {
    kernel<<<unsigned(grid), kBlock, ring>>>(in, lab.out, s.rows, s.cols, lanes, nullptr, tile_arg);
  };
  const float ms = g_free ? best_ms_held(lab.sms - g_free, launch) : best_ms(launch);
  if (times) {
    kernel<<<unsigned(grid), kBlock, ring>>>(in, lab.out, s.rows, s.cols, lanes, times, tile_arg);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
  }
  return ms;
}

template <class In, int kTileBytes, int kStages, int kBlock>
void row(const Lab& lab, const In* in, const Shape* shapes, int n) {
  printf(
      "%5d B x %d, block %4d: copies, +writes, +writes .cs | adds+writes, adds+writes .cs, adds alone | adds+writes, "
      "no tile-end barrier\n",
      kTileBytes, kStages, kBlock);
  for (int i = 0; i < n; ++i) {
    const double bytes = double(shapes[i].rows) * (double(shapes[i].cols) * sizeof(In) + 4);
    const float work = run_ms<In, kTileBytes, kStages, kBlock, 2>(lab, in, shapes[i]);
    const unsigned long long wrong = lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
    const float cs = run_ms<In, kTileBytes, kStages, kBlock, 4>(lab, in, shapes[i]);
    const unsigned long long wrong_cs = lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
    // A finite value no row sums to (0xff bytes would be NaN, which the check's comparison passes).
    CK(cudaMemset(lab.out, 0x7f, shapes[i].rows * sizeof(float)));
    const float free = run_ms<In, kTileBytes, kStages, kBlock, 6>(lab, in, shapes[i]);
    const unsigned long long wrong_free = lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
    const float t[] = {run_ms<In, kTileBytes, kStages, kBlock, 0>(lab, in, shapes[i]),
                       run_ms<In, kTileBytes, kStages, kBlock, 1>(lab, in, shapes[i]),
                       run_ms<In, kTileBytes, kStages, kBlock, 5>(lab, in, shapes[i]),
                       work,
                       cs,
                       run_ms<In, kTileBytes, kStages, kBlock, 3>(lab, in, shapes[i]),
                       free};
    printf("  %-10s", shapes[i].name);
    for (float ms : t) printf(" %5.1f", lab.pct(bytes, ms));
    printf("%s\n", wrong || wrong_cs || wrong_free ? " WRONG" : "");
  }
}

// The blocks' ends, from the earliest start: first, median and last (µs).
template <class In, int kTileBytes, int kStages, int kBlock, int kWork>
void spread(const Lab& lab, const In* in, const Shape& s, u64* times) {
  u64 grid = 0;
  run_ms<In, kTileBytes, kStages, kBlock, kWork>(lab, in, s, times, &grid);
  static u64 host[2 * 4096];
  CK(cudaMemcpy(host, times, grid * 16, cudaMemcpyDeviceToHost));
  u64 t0 = ~0ull, ends[4096];
  for (u64 b = 0; b < grid; ++b) t0 = host[2 * b] < t0 ? host[2 * b] : t0;
  for (u64 b = 0; b < grid; ++b) ends[b] = host[2 * b + 1] - t0;
  std::sort(ends, ends + grid);
  printf("  %s work %d: blocks end %.1f / %.1f / %.1f us (first, median, last), latest start %.1f us\n", s.name, kWork,
         ends[0] / 1e3, ends[grid / 2] / 1e3, ends[grid - 1] / 1e3, [&] {
           u64 m = 0;
           for (u64 b = 0; b < grid; ++b) m = host[2 * b] - t0 > m ? host[2 * b] - t0 : m;
           return m / 1e3;
         }());
}

// A tile a pass shorter, in whole 128-byte lines, where that keeps three quarters of 32 KB and adds
// more elements a pass: kBlock / lanes rows a pass, and a tile of t elements touches at most
// ceil((t - 1) / cols) + 1 rows. Else 32 KB. Floats.
unsigned pass_tile_bytes(u64 cols, int block) {
  const u64 full = 32768 / 4, a_pass = u64(block / rl::kernels::flat_row_lanes(cols));
  const auto touched = [&](u64 t) { return (t - 2) / cols + 2; };
  const u64 passes = (touched(full) + a_pass - 1) / a_pass;
  if (passes < 2) return 32768;
  const u64 t = ((passes - 1) * a_pass - 1) * cols + 1, lines = t / 32 * 32;
  return lines * 4 >= 32768 * 3 / 4 && lines * passes > full * (passes - 1) ? unsigned(lines * 4) : 32768u;
}

// `tiles`: the catalog's 32 KB tiles as a constant, as a tile worked out on the host (the same 32
// KB, then pass_tile_bytes), on every SM and on 110 and 94 of them: what a tile the kernel takes
// as an argument costs, and what a pass fewer buys where an SM moves more bytes.
void tile_sweep(const Lab& lab, const Shape* shapes, int n) {
  printf("%% of peak (input and row sums), best of 20, runs of 48 KB, blocks of 256; SMs free: all, 110, 94\n");
  printf("columns: 32 KB constant, 32 KB from the host, pass_tile_bytes from the host, a group an SM count\n");
  for (int i = 0; i < n; ++i) {
    const unsigned pass_tile = pass_tile_bytes(shapes[i].cols, 256);
    printf("  %-10s %5u B", shapes[i].name, pass_tile);
    const double bytes = double(shapes[i].rows) * (double(shapes[i].cols) * 4 + 4);
    for (const int free : {0, 110, 94}) {
      g_free = free;
      const float constant = run_ms<float, 32768, 2, 256, 2>(lab, lab.in, shapes[i]);
      const unsigned long long w0 = lab.wrong_rows(shapes[i].rows, shapes[i].cols);
      const float host = run_ms<float, 0, 2, 256, 2>(lab, lab.in, shapes[i], nullptr, nullptr, 32768);
      const unsigned long long w1 = lab.wrong_rows(shapes[i].rows, shapes[i].cols);
      const float shorter = run_ms<float, 0, 2, 256, 2>(lab, lab.in, shapes[i], nullptr, nullptr, pass_tile);
      const unsigned long long w2 = lab.wrong_rows(shapes[i].rows, shapes[i].cols);
      printf(" | %5.1f %5.1f %5.1f%s", lab.pct(bytes, constant), lab.pct(bytes, host), lab.pct(bytes, shorter),
             w0 || w1 || w2 ? " WRONG" : "");
      fflush(stdout);
    }
    printf("\n");
  }
  g_free = 0;
}

// `sms`: the copies alone, with the row sums' writes, and the catalog's kernel (32 KB tiles and
// 30592 bytes), in runs, on every SM and on 110, 94 and 80 of them.
template <class In>
void sms_sweep(const Lab& lab, const In* in, const Shape* shapes, int n) {
  printf("%% of peak (input and row sums), best of 20, runs of 48 KB, blocks of 256; SMs free: all, 110, 94, 80\n");
  printf(
      "columns: copies, copies+writes, kernel (32 KB tiles), kernel (30592 B tiles), kernel (32 KB, no tile-end\n"
      "barrier where no copy follows)%s, a group an SM count\n",
      g_blocks ? ", kernel (32 KB) in blocks of 128, of 512" : "");
  for (const int free : {0, 110, 94, 80}) {
    g_free = free;
    printf("with %d SMs free, a grid of %d blocks ran on %d SMs\n", free ? free : lab.sms, 64 * lab.sms,
           sms_used(lab.sms, free ? lab.sms - free : 0));
  }
  for (int i = 0; i < n; ++i) {
    printf("  %-10s", shapes[i].name);
    const double bytes = double(shapes[i].rows) * (double(shapes[i].cols) * sizeof(In) + 4);
    for (const int free : {0, 110, 94, 80}) {
      g_free = free;
      const float t[] = {run_ms<In, 32768, 2, 256, 0>(lab, in, shapes[i]),
                         run_ms<In, 32768, 2, 256, 1>(lab, in, shapes[i]),
                         run_ms<In, 32768, 2, 256, 2>(lab, in, shapes[i])};
      const unsigned long long wrong = lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
      const float shorter = run_ms<In, 30592, 2, 256, 2>(lab, in, shapes[i]);
      const unsigned long long wrong_shorter = lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
      CK(cudaMemset(lab.out, 0x7f, shapes[i].rows * sizeof(float)));  // finite, no row's sum
      const float free_end = run_ms<In, 32768, 2, 256, 6>(lab, in, shapes[i]);
      const unsigned long long wrong_free = lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
      float blocks[2] = {0, 0};
      unsigned long long wrong_blocks = 0;
      if (g_blocks) {  // the catalog's kernel in blocks of 128 and 512
        blocks[0] = run_ms<In, 32768, 2, 128, 2>(lab, in, shapes[i]);
        wrong_blocks += lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
        blocks[1] = run_ms<In, 32768, 2, 512, 2>(lab, in, shapes[i]);
        wrong_blocks += lab.wrong_rows(in, shapes[i].rows, shapes[i].cols);
      }
      printf(" | %5.1f %5.1f %5.1f %5.1f %5.1f", lab.pct(bytes, t[0]), lab.pct(bytes, t[1]), lab.pct(bytes, t[2]),
             lab.pct(bytes, shorter), lab.pct(bytes, free_end));
      if (g_blocks) printf(" %5.1f %5.1f", lab.pct(bytes, blocks[0]), lab.pct(bytes, blocks[1]));
      printf("%s", wrong || wrong_shorter || wrong_free || wrong_blocks ? " WRONG" : "");
      fflush(stdout);
    }
    printf("\n");
  }
  g_free = 0;
}

template <class In>
void run_all(const Lab& lab, const In* in, const Shape* shapes, int n) {
  printf("%% of peak (input and row sums), best of 20; columns:");
  for (int i = 0; i < n; ++i) printf(" %s", shapes[i].name);
  printf("\n");
  row<In, 32768, 2, 256>(lab, in, shapes, n);  // the catalog's
  // 239 lines of 128 bytes: at most 511 rows of 15 floats touch a tile, so a block of 256 adds
  // them in two passes, where the catalog's 32 KB (up to 548 rows) takes three.
  row<In, 30592, 2, 256>(lab, in, shapes, n);
  if (g_runs) {  // 207 lines: at most 511 rows of 13 touch a tile (two passes; 32 KB: 632, three);
    row<In, 26496, 2, 256>(lab, in, shapes, n);  // 134 lines: at most 254 rows of 17, one pass (32 KB: two)
    row<In, 17152, 2, 256>(lab, in, shapes, n);
    return;
  }  // the blocks' ends below keep 4096 blocks: one wave only
  row<In, 65536, 2, 512>(lab, in, shapes, n);
  u64* times = nullptr;
  CK(cudaMalloc(&times, 2 * 4096 * 8));
  for (int i = 0; i < 4; ++i) {
    spread<In, 32768, 2, 256, 1>(lab, in, shapes[i], times);
    spread<In, 32768, 2, 256, 2>(lab, in, shapes[i], times);
  }
  CK(cudaFree(times));
}

int main(int argc, char** argv) {
  const Shape shapes[] = {
      {1ull << 24, 15, "2^24x15"}, {1ull << 24, 17, "2^24x17"}, {1000000, 100, "10^6x100"}, {3000000, 33, "3*10^6x33"},
      {1000000, 96, "10^6x96"},    {1ull << 22, 64, "2^22x64"},  // the aligned short rows where halves miss 90 %
      {1ull << 24, 16, "2^24x16"}, {1ull << 24, 13, "2^24x13"}, {1ull << 24, 19, "2^24x19"}};
  const int n = int(sizeof shapes / sizeof shapes[0]) - 1;  // 2^24 x 19: `sms` alone
  const u64 most = u64(1) << 28;
  const Lab lab = open_lab(most, u64(1) << 24);
  bool half = false, sms = false, tiles = false;
  for (int i = 1; i < argc; ++i) {
    half = half || std::strcmp(argv[i], "half") == 0;
    g_runs = g_runs || std::strcmp(argv[i], "runs") == 0;
    sms = sms || std::strcmp(argv[i], "sms") == 0;
    tiles = tiles || std::strcmp(argv[i], "tiles") == 0;
    g_blocks = g_blocks || std::strcmp(argv[i], "blocks") == 0;
  }
  if (tiles || sms) {  // floats, in runs: 13, 15, 16, 17, 19, then 100 and 33
    g_runs = true;
    const Shape pick[] = {shapes[7], shapes[0], shapes[6], shapes[1], shapes[8], shapes[2], shapes[3]};
    if (tiles)
      tile_sweep(lab, pick, 7);
    else
      sms_sweep<float>(lab, lab.in, pick, 7);
    return 0;
  }
  printf("%s\n", g_runs ? "runs of 48 KB a block (a tile and a half of 32 KB)" : "one wave");
  if (half) {
    __half* h = lab_halves(lab, most);
    printf("halves\n");
    run_all<__half>(lab, h, shapes, n);
    CK(cudaFree(h));
  } else {
    run_all<float>(lab, lab.in, shapes, n);
  }
  return 0;
}
