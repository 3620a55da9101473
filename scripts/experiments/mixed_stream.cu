// Exploration for issue 53 (not part of the app): the streaming limit of a reduction that writes
// some of its bytes. A row sum reads the matrix and writes one float a row, and the issue's % of
// peak counts both; a pure streaming read is the limit only where the writes are nothing. Here
// each warp reads 8 units of 512 B at once (16-byte loads, 8 a lane in flight) and writes w words
// a unit after them (1/8 of the bytes read: rows of 16 halves; 1/16: rows of 15-17 floats; 1/32:
// rows of 64 halves; 1/128: near rows of 100 floats), in two patterns: packed (the 8 units one
// 4 KB tile, their words one run) and spread (the 8 units far apart, each unit's words where its
// rows' sums would go, as lanes-per-row's loads in flight are).
// Beside it: the same reads with no writes, the writes alone, and the two apart (their times added).
// Then runs: each block a contiguous run, its words written as they come or held to its end.
// Each figure is a batch of 10 launches back to back between two events, the best of 5 batches:
// the lines a launch leaves dirty in L2 are written back during the next, so the write-back is
// timed but for the last launch's (at most the L2, against 10 times the bytes moved).
// % of peak counts the bytes read and written.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -o mixed_stream scripts/experiments/mixed_stream.cu && ./mixed_stream
#include <cuda_runtime.h>

#include "flat_rows_common.cuh"

constexpr int kLoads = 8;  // 16-byte loads a lane in flight: units of 512 B a warp
constexpr unsigned kUnitWords = 128;

// Reads `units` units of 512 B, kLoads a warp at once, and writes `w` words a unit (w = 0: none).
// Packed: a warp's loads are one contiguous 4 KB tile and its words one run after it. Spread: the
// array is kLoads streams a warp reads side by side (far apart, as lanes-per-row's groups in
// flight are) and each unit's words go where that unit's rows would, w words a unit.
template <bool kSpread>
__global__ void __launch_bounds__(256) mixed(const uint4* in, u64 units, unsigned* out, unsigned w) {
  const unsigned lane = threadIdx.x % 32;
  const u64 warp = (blockIdx.x * u64(blockDim.x) + threadIdx.x) / 32, warps = gridDim.x * u64(blockDim.x) / 32;
  const u64 groups = units / kLoads;
  unsigned keep = 0;
  for (u64 g = warp; g < groups; g += warps) {
    uint4 q[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u) q[u] = in[(kSpread ? u * groups + g : g * kLoads + u) * 32 + lane];
    unsigned x[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u) x[u] = q[u].x ^ q[u].y ^ q[u].z ^ q[u].w;
    if (w == 0) {
#pragma unroll
      for (int u = 0; u < kLoads; ++u) keep ^= x[u];
      continue;
    }
    if constexpr (!kSpread) {  // one run of kLoads * w words after the tile
#pragma unroll
      for (int u = 1; u < kLoads; ++u) x[0] ^= x[u];
      if (w * kLoads < 32)  // fewer words than lanes: every lane's loads reach the words written
        for (int o = 16; o > 0; o /= 2) x[0] ^= __shfl_xor_sync(0xffffffffu, x[0], o);
      for (unsigned j = lane; j < w * kLoads; j += 32) out[g * kLoads * w + j] = x[0] + j;
    } else {
#pragma unroll
      for (int u = 0; u < kLoads; ++u) {
        if (w < 32)
          for (int o = 16; o > 0; o /= 2) x[u] ^= __shfl_xor_sync(0xffffffffu, x[u], o);
        for (unsigned j = lane; j < w; j += 32) out[(u * groups + g) * w + j] = x[u] + j;
      }
    }
  }
  if (keep == 0x9e3779b9u) out[0] = keep;  // keeps the loads; almost never taken
}

// Runs: block b reads its own contiguous run of groups (as flat-rows' blocks read a run of rows)
// and writes w words a unit of it, one run of words a block. kHold: the words wait in shared
// memory until the block's whole run is read, then go out together (as a kernel holding every row
// sum of its run would write them); else each group's words go out as they come.
template <bool kHold>
__global__ void __launch_bounds__(256) runs(const uint4* in, u64 units, unsigned* out, unsigned w) {
  extern __shared__ unsigned held[];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  const u64 groups = units / kLoads, g0 = groups * blockIdx.x / gridDim.x, g1 = groups * (blockIdx.x + 1) / gridDim.x;
  const unsigned per = kLoads * w;  // words a group
  for (u64 g = g0 + warp; g < g1; g += warps) {
    uint4 q[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u) q[u] = in[(g * kLoads + u) * 32 + lane];
    unsigned x = 0;
#pragma unroll
    for (int u = 0; u < kLoads; ++u) x ^= q[u].x ^ q[u].y ^ q[u].z ^ q[u].w;
    if (per < 32)  // fewer words than lanes: every lane's loads reach the words written
      for (int o = 16; o > 0; o /= 2) x ^= __shfl_xor_sync(0xffffffffu, x, o);
    for (unsigned j = lane; j < per; j += 32) {
      if constexpr (kHold)
        held[(g - g0) * per + j] = x + j;
      else
        out[g * per + j] = x + j;
    }
  }
  if constexpr (kHold) {
    __syncthreads();
    const u64 words = (g1 - g0) * per;
    for (u64 j = threadIdx.x; j < words; j += blockDim.x) out[g0 * per + j] = held[j];
  }
}

// Writes `vectors` 16-byte vectors of out, grid stride.
__global__ void __launch_bounds__(256) write_only(uint4* out, u64 vectors) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < vectors; i += gridDim.x * u64(blockDim.x))
    out[i] = make_uint4(unsigned(i), 1, 2, 3);
}

// The best of 5 batches of 10 launches back to back, in ms a launch.
template <class Launch>
float batch_ms(Launch&& launch) {
  return back_to_back_ms(launch, 10, 5);
}

template <bool kSpread>
float time_mixed(const Lab& lab, unsigned grid, u64 units, unsigned w) {
  const auto* in = reinterpret_cast<const uint4*>(lab.in);
  auto* out = reinterpret_cast<unsigned*>(lab.out);
  return batch_ms([&] { mixed<kSpread><<<grid, 256>>>(in, units, out, w); });
}

// Runs of groups a block, their words written as they come or held to the block's end, in one
// wave and in 4 and 16 waves of shorter runs, beside the reads alone and the two timed apart.
// Shares of 1/128 and 1/32 (rows of about 100 floats, and of 33), whose held words fit an SM.
void held_runs(const Lab& lab, int fit, u64 units, u64 in_bytes, float reads_ms) {
  const auto* in = reinterpret_cast<const uint4*>(lab.in);
  auto* out = reinterpret_cast<unsigned*>(lab.out);
  for (unsigned w : {1u, 4u}) {
    const double wrote = double(units) * w * 4, bytes = double(in_bytes) + wrote;
    const float writes =
        batch_ms([&] { write_only<<<fit * lab.sms, 256>>>(reinterpret_cast<uint4*>(lab.out), units * w / 4); });
    printf("writes 1/%-3u in runs a block (apart %5.1f %%):", kUnitWords / w, lab.pct(bytes, reads_ms + writes));
    for (int waves : {1, 4, 16}) {
      const unsigned grid = unsigned(waves * fit * lab.sms);
      const u64 most = (units / kLoads + grid - 1) / grid;  // groups of the longest run
      const std::size_t smem = std::size_t(most * kLoads * w * 4);
      CK(cudaFuncSetAttribute(runs<true>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
      int held_fit = 0;
      CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&held_fit, runs<true>, 256, smem));
      const float as_they_come = batch_ms([&] { runs<false><<<grid, 256>>>(in, units, out, w); });
      const float held = batch_ms([&] { runs<true><<<grid, 256, smem>>>(in, units, out, w); });
      printf("  %2d wave%s: as they come %5.1f %%, held %5.1f %% (%zu B a block, %d an SM)", waves,
             waves > 1 ? "s" : "", lab.pct(bytes, as_they_come), lab.pct(bytes, held), smem, held_fit);
    }
    printf("\n");
    fflush(stdout);
  }
}

int main() {
  const u64 in_bytes = u64(1) << 29;  // 512 MB: 2^28 halves
  const Lab lab = open_lab(in_bytes / 4, in_bytes / 4);
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, mixed<true>, 256, 0));
  const unsigned grid = unsigned(fit * lab.sms);
  const u64 units = in_bytes / (kUnitWords * 4);
  printf("reads %llu MB, %d loads of 16 B a lane in flight, grid %u of 256 (%d blocks an SM)\n", in_bytes >> 20,
         kLoads, grid, fit);
  const float packed_ms = time_mixed<false>(lab, grid, units, 0), spread_ms = time_mixed<true>(lab, grid, units, 0);
  printf("reads alone: packed %.1f %%, spread %.1f %% of peak\n", lab.pct(double(in_bytes), packed_ms),
         lab.pct(double(in_bytes), spread_ms));
  // Words a 512-byte unit: 1/128 of the bytes (rows of 100 floats write 1/100), 1/32 (rows of 64
  // halves, 32 floats), 1/16 (rows of 15 or 17 floats), 1/8 (rows of 16 halves, 8 floats), 1/4, 1/1 (a copy).
  for (unsigned w : {1u, 4u, 8u, 16u, 32u, 128u}) {
    const double wrote = double(units) * w * 4, bytes = double(in_bytes) + wrote;
    const float packed = time_mixed<false>(lab, grid, units, w), spread = time_mixed<true>(lab, grid, units, w);
    const u64 vectors = units * w / 4;
    const float writes = batch_ms([&] { write_only<<<grid, 256>>>(reinterpret_cast<uint4*>(lab.out), vectors); });
    printf("writes 1/%-3u of the reads: packed %5.1f %%  spread %5.1f %%  apart %5.1f %%  writes alone %5.1f %%\n",
           kUnitWords / w, lab.pct(bytes, packed), lab.pct(bytes, spread), lab.pct(bytes, packed_ms + writes),
           lab.pct(wrote, writes));
    fflush(stdout);
  }
  held_runs(lab, fit, units, in_bytes, packed_ms);
  return 0;
}
