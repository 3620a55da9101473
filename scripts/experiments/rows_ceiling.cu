// Exploration for issue 53 (not part of the app): what lanes-per-row's own traffic reaches with no
// adds. At rows of 16 and 64 halves (32 and 128 bytes) the catalog's lanes-per-row reads 85-86 %
// of peak; flat_rows_stages.cu's copies with the row sums' stores reach 85-87 % there, but that is
// flat-rows' structure, which lanes-per-row beats over floats at rows of 64. Here lanes-per-row's
// loads (the catalog's lanes, kRowLoadsInFlight groups at once, the same rows a warp and the same
// grid), each 16-byte vector folded by three XORs, the segment's lanes joined by the same shuffles
// (XOR in place of the add), and the row's word stored by its segment's first lane ("stores");
// or the same with no row stores ("no stores": one word a warp kept). Against the catalog's kernel
// in the same call, over halves and over floats (rows of the same bytes: 2^24 x 8, 2^22 x 32).
// Then both again "packed": a warp's groups in flight one contiguous run of rows (2026-12-05: does the
// catalog's spread of them, `warps` groups apart, cost the row sums' writes more?).
// % of peak counting the input and one float a row, best of 20 warm and median of 21 cold.
// Measured (assets/runs/h200-rows/report/2026-12-05/call4_rows_ceiling.txt, an H200): the traffic
// alone within 2 points of the kernel at every shape, 8.6-16.3 points below the same loads with no stores.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 --expt-relaxed-constexpr -Ikernels -o rows_ceiling \
//     scripts/experiments/rows_ceiling.cu kernels/model/matrix_shapes.cpp && ./rows_ceiling
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_timing.cuh"

namespace k = rl::kernels;
using Half = rl::narrow::Half;

// kPacked: a warp's K groups in flight are one contiguous run of rows (K * 512 B) in place of the
// catalog's K groups `warps` apart.
template <int kLanes, bool kStore, bool kPacked = false>
__global__ void __launch_bounds__(256) traffic(const uint4* in, float* out, u64 rows, u64 row_vectors) {
  constexpr int K = k::kRowLoadsInFlight;
  const unsigned lane = threadIdx.x % 32, seg_lane = lane % kLanes;
  const u64 per_warp = 32 / kLanes;
  const u64 warp = (blockIdx.x * u64(blockDim.x) + threadIdx.x) / 32, warps = gridDim.x * u64(blockDim.x) / 32;
  unsigned keep = 0;
  const u64 step = kPacked ? warps : K * warps;
  const auto group = [&](u64 g, int u) { return kPacked ? g * K + u : g + u * warps; };
  for (u64 g = warp; (kPacked ? g * K : g) * per_warp < rows; g += step) {
    uint4 q[K];
#pragma unroll
    for (int u = 0; u < K; ++u) {
      const u64 row = group(g, u) * per_warp + lane / kLanes;
      q[u] = row < rows && seg_lane < row_vectors ? in[row * row_vectors + seg_lane] : make_uint4(0, 0, 0, 0);
    }
    unsigned v[K];
#pragma unroll
    for (int u = 0; u < K; ++u) v[u] = q[u].x ^ q[u].y ^ q[u].z ^ q[u].w;
#pragma unroll
    for (int offset = kLanes / 2; offset > 0; offset /= 2)
#pragma unroll
      for (int u = 0; u < K; ++u) v[u] ^= __shfl_down_sync(0xffffffffu, v[u], offset, kLanes);
#pragma unroll
    for (int u = 0; u < K; ++u) {
      const u64 row = group(g, u) * per_warp + lane / kLanes;
      if (seg_lane != 0 || row >= rows) continue;
      if (kStore)
        out[row] = __uint_as_float(v[u]);
      else
        keep ^= v[u];
    }
  }
  if (!kStore && keep == 0x9e3779b9u) out[0] = 1.f;  // keeps the loads; almost never taken
}

template <int kLanes, bool kStore, bool kPacked = false>
void time_traffic(const char* type, const Lab& lab, const Cold& c, u64 rows, u64 cols, u64 elem) {
  const unsigned grid = unsigned(std::min<u64>((rows * kLanes / 32 + 7) / 8, 16u * unsigned(lab.sms)));
  const u64 row_vectors = cols * elem / 16;
  const uint4* in = reinterpret_cast<const uint4*>(lab.in);
  const auto launch = [&] { traffic<kLanes, kStore, kPacked><<<grid, 256>>>(in, lab.out, rows, row_vectors); };
  const float warm = best_ms(launch), cold = cold_median_ms(launch, c, lab.sms);
  const double bytes = double(rows) * double(cols) * double(elem) + double(rows) * 4;
  printf("%-5s %8llu x %8llu %-56s best warm %5.1f %%  median cold %5.1f %%\n", type, rows, cols,
         kPacked ? (kStore ? "packed traffic: loads, XORs, row stores" : "packed traffic: no row stores")
                 : (kStore ? "traffic alone: loads, XORs, row stores" : "traffic alone: loads, XORs, no row stores"),
         lab.pct(bytes, warm), lab.pct(bytes, cold));
  fflush(stdout);
}

template <class In, int kLanes>
void shape(const Lab& lab, const Cold& c, u64 rows, u64 cols) {
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));
  if (lanes != kLanes) {
    printf("%s %llu x %llu: the catalog takes %d lanes, not %d\n", type_name<In>(), rows, cols, lanes, kLanes);
    return;
  }
  CK(cudaGetLastError());
  time_catalog<In>(lab, c, rows, cols, lanes);
  time_traffic<kLanes, true>(type_name<In>(), lab, c, rows, cols, sizeof(In));
  time_traffic<kLanes, false>(type_name<In>(), lab, c, rows, cols, sizeof(In));
  time_traffic<kLanes, true, true>(type_name<In>(), lab, c, rows, cols, sizeof(In));
  time_traffic<kLanes, false, true>(type_name<In>(), lab, c, rows, cols, sizeof(In));
  time_catalog<In>(lab, c, rows, cols, lanes);
  CK(cudaGetLastError());
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  shape<Half, 2>(lab, c, u64(1) << 24, 16);
  shape<Half, 8>(lab, c, u64(1) << 22, 64);
  shape<float, 2>(lab, c, u64(1) << 24, 8);
  shape<float, 8>(lab, c, u64(1) << 22, 32);
  shape<float, 4>(lab, c, u64(1) << 24, 16);
  shape<float, 16>(lab, c, u64(1) << 22, 64);
  return 0;
}
