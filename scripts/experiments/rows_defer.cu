// Exploration for issue 53 (not part of the app): the row sums' write-back costs several times its
// bytes when the sums reach DRAM scattered among the reads (rows_l2.cu). Does it cost less when a
// block holds its sums in shared memory and writes them in bursts: all at its end, or each time
// `cap` rows' sums have gathered? Each block owns one run of rows (its sums one run of memory), so
// a burst is whole lines; the blocks, equally loaded, burst at about the same time.
// rows_defer beside rows_vec (rows_vec.cuh: sums stored as they come, or not at all) and the
// catalog's timed lanes-per-row. Figures: the best of 20 warm launches, the mean of 20 back to back
// (the steady state: each launch meets the previous one's dirty lines in L2), and the median of 21
// cold ones (each after an L2 eviction, which writes the previous launch's sums back untimed).
// Measured (assets/runs/h200-rows/report/2026-12-04/rows_defer_{1,2}.txt, two H200s), back to back: at
// 2^22 x 64 floats 93.1-93.3 % held against 88.3-88.4 stored as they come (the catalog 86.6 warm);
// 2^20 x 256 94.0-94.7 against 91.9-92.0; 2^21 x 128 93.7 against 89.4; 2^18 x 1024 94.3-94.9
// against 93.8; halves 2^22 x 64 88.8 against 86.8, 2^20 x 256 92.3 against 88.5. Held in parts
// (a block's sums over 16 KB), rows of 16 floats or halves ran level or slower. Taken into the
// catalog's timed lanes-per-row (held_row_share).
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_defer scripts/experiments/rows_defer.cu \
//     kernels/model/matrix_shapes.cpp && ./rows_defer
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_vec_timing.cuh"

// Rows of kLanes * kPerLane 16-byte vectors, loaded as rows_vec loads them; block b owns rows
// [b * per_block, (b + 1) * per_block), per_block and cap multiples of a supergroup's rows.
template <int kLanes, int kPerLane, int kGroups, int kBlock, bool kHalves>
__global__ void __launch_bounds__(kBlock)
    rows_defer(const float4* __restrict__ in, float* __restrict__ out, u64 rows, u64 per_block, unsigned cap) {
  extern __shared__ float4 held4[];
  float* held = reinterpret_cast<float*>(held4);
  constexpr u64 block_rows = u64(32 / kLanes) * kGroups * (kBlock / 32);
  const u64 begin = blockIdx.x * per_block, end = begin + per_block < rows ? begin + per_block : rows;
  for (u64 base = begin; base < end; base += cap) {  // block-uniform
    const u64 stop = base + cap < end ? base + cap : end;
    for (u64 r0 = base; r0 < stop; r0 += block_rows)  // loaded as rows_vec loads them (supergroup)
      supergroup<kLanes, kPerLane, kGroups, kBlock, 0, kHalves>(in, r0, stop, 0,
                                                                [&](u64 row, float v) { held[row - base] = v; });
    __syncthreads();
    const unsigned n = unsigned(stop - base);  // base is a multiple of 4 rows: out + base is 16-byte aligned
    float4* to = reinterpret_cast<float4*>(out + base);
    for (unsigned i = threadIdx.x; i < n / 4; i += kBlock) to[i] = held4[i];
    for (unsigned i = n / 4 * 4 + threadIdx.x; i < n; i += kBlock) out[base + i] = held[i];
    __syncthreads();
  }
}

// cap_bytes: a block's held sums (0: all of its rows at once); waves: of the blocks an SM holds
// with that much shared memory each. Skipped where a block's sums do not fit.
template <int kLanes, int kPerLane, int kGroups, bool kHalves = false>
void time_defer(const Lab& lab, const Cold& c, u64 rows, unsigned cap_bytes, int waves) {
  constexpr int kBlock = 256;
  constexpr u64 cols = u64(kLanes) * kPerLane * (kHalves ? 8 : 4);
  constexpr u64 block_rows = u64(32 / kLanes) * kGroups * (kBlock / 32);
  auto kernel = rows_defer<kLanes, kPerLane, kGroups, kBlock, kHalves>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  u64 per_block = 0, cap = 0;
  int f = 16, fit = 0;
  for (; f > 0; --f) {  // the most blocks an SM whose held sums fit beside each other
    const u64 grid = u64(f) * lab.sms * waves;
    per_block = ((rows + grid - 1) / grid + block_rows - 1) / block_rows * block_rows;
    cap = cap_bytes ? std::min<u64>(per_block, cap_bytes / 4 / block_rows * block_rows) : per_block;
    if (cap * 4 > 200 * 1024) continue;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kBlock, cap * 4));
    if (fit >= f) break;
  }
  if (f == 0)
    return (void)printf("defer %2dx%dx%d cap %u bytes, %d waves: does not fit\n", kLanes, kPerLane, kGroups, cap_bytes,
                        waves);
  const unsigned used = unsigned((rows + per_block - 1) / per_block);
  char what[96];
  snprintf(what, sizeof what, "defer %2dx%dx%d held %5llu of %6llu rows, 256 x %u", kLanes, kPerLane, kGroups, cap,
           per_block, used);
  const auto* in = reinterpret_cast<const float4*>(lab.in);
  line<kHalves>(what, lab, c, rows, cols,
                [&] { kernel<<<used, kBlock, cap * 4>>>(in, lab.out, rows, per_block, unsigned(cap)); });
}

template <int kLanes, int kPerLane, int kGroups, int kWrite, bool kHalves = false>
void time_vec(const Lab& lab, const Cold& c, u64 rows) {
  static const char* writes[] = {"no stores", "st", "st.cs"};
  time_rows_vec<kLanes, kPerLane, kGroups, 256, kWrite, 0, kHalves>(
      lab, rows, 1, writes[kWrite],
      [&](const char* what, u64 cols, auto launch) { line<kHalves>(what, lab, c, rows, cols, launch); });
}

template <int kLanes, int kPerLane, int kGroups, bool kHalves = false>
void time_shape(const Lab& lab, const Cold& c, u64 rows) {
  using In = std::conditional_t<kHalves, rl::narrow::Half, float>;
  constexpr u64 cols = u64(kLanes) * kPerLane * (kHalves ? 8 : 4);
  time_catalog<In>(lab, c, rows, cols, rl::kernels::row_lanes(rl::kernels::Algo::LanesPerRow, cols, sizeof(In)));
  time_vec<kLanes, kPerLane, kGroups, 1, kHalves>(lab, c, rows);
  time_vec<kLanes, kPerLane, kGroups, 2, kHalves>(lab, c, rows);
  time_vec<kLanes, kPerLane, kGroups, 0, kHalves>(lab, c, rows);
  for (unsigned cap : {0u, 16384u, 8192u}) time_defer<kLanes, kPerLane, kGroups, kHalves>(lab, c, rows, cap, 1);
  for (unsigned cap : {0u, 8192u}) time_defer<kLanes, kPerLane, kGroups, kHalves>(lab, c, rows, cap, 2);
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  time_shape<16, 1, 4>(lab, c, u64(1) << 22);       // 2^22 x 64
  time_shape<8, 8, 1>(lab, c, u64(1) << 20);        // 2^20 x 256
  time_shape<4, 1, 4>(lab, c, u64(1) << 24);        // 2^24 x 16
  time_shape<8, 1, 4, true>(lab, c, u64(1) << 22);  // 2^22 x 64 halves
  time_shape<8, 4, 1, true>(lab, c, u64(1) << 20);  // 2^20 x 256 halves
  time_shape<2, 1, 4, true>(lab, c, u64(1) << 24);  // 2^24 x 16 halves
  time_shape<8, 4, 1>(lab, c, u64(1) << 21);        // 2^21 x 128
  time_shape<32, 8, 1>(lab, c, u64(1) << 18);       // 2^18 x 1024
  return 0;
}
