// Exploration for issue 53 (not part of the app): on an H100 (GPU-0c51a0b7, 2026-12-05) cuBLAS gemv
// read 2^20 x 256 floats at 92.5 % of peak where lanes-per-row read 90.1 %, the one sweep shape
// where a library led ours. Nsight Compute (GPU-ea5048a2, assets/runs/h100-rows/report/2026-12-05/
// why/) showed gemv in 131072 blocks of 128 threads, 8 rows a block, 4-byte loads, 47 registers;
// ours in one wave of 528 blocks of 256, 16-byte loads, 64 registers, each block walking its own
// 1986 rows. Does the launch shape decide it? Here the row prototype (rows_vec.cuh: every lane's
// loads in flight at once) launched as gemv launches: a block a supergroup (its rows at once), as
// many blocks as supergroups, no grid stride; beside the same kernel in one and four waves, the
// catalog's lanes-per-row and cuBLAS gemv, each timed alike: best of 20 warm, median of 21 cold
// (after an L2 eviction), and the mean of 20 back to back, which meets the previous launch's dirty
// lines in L2 as the benchmark's samples do. Float results checked against a double sum.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o rows_blocks scripts/experiments/rows_blocks.cu \
//     kernels/model/matrix_shapes.cpp -lcublas && ./rows_blocks
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

#include "rows_timing.cuh"
#include "rows_vec.cuh"

#define CB(x)                                                                      \
  do {                                                                             \
    if ((x) != CUBLAS_STATUS_SUCCESS) {                                            \
      fprintf(stderr, "%s:%d: cuBLAS call failed: %s\n", __FILE__, __LINE__, #x); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

// waves 0: a block a supergroup; else that many waves of the blocks an SM holds, by grid stride.
template <int kLanes, int kPerLane, int kGroups, int kBlock, bool kHalves = false>
void time_blocks(const Lab& lab, const Cold& c, u64 rows, int waves) {
  constexpr u64 cols = u64(kLanes) * kPerLane * (kHalves ? 8 : 4);
  constexpr u64 block_rows = u64(32 / kLanes) * kGroups * (kBlock / 32);
  const auto kernel = rows_vec<kLanes, kPerLane, kGroups, kBlock, 1, false, 1, 0, kHalves>;
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  const int fit = blocks_an_sm(kernel, kBlock);
  const u64 supers = (rows + block_rows - 1) / block_rows;
  const unsigned grid = waves ? wave_grid(lab, supers, fit, waves) : unsigned(supers);
  char what[112];
  snprintf(what, sizeof what, "proto %2dx%dx%d, %2d regs, %3llu rows a block, %4d x %u%s", kLanes, kPerLane, kGroups,
           attr.numRegs, block_rows, kBlock, grid, waves ? " (waves)" : "");
  const auto* in = reinterpret_cast<const float4*>(lab.in);
  line<kHalves>(what, lab, c, rows, cols, [&] { kernel<<<grid, kBlock>>>(in, lab.out, rows, nullptr); });
}

// The catalog's timed lanes-per-row as the bench launched it before a round a block: the fewest
// whole waves, up to kGridWaves, in which a block's share of the rows is held, else kGridWaves
// waves, not held (git show 2892921:kernels/short_rows.cuh, timed_grid).
template <class In>
void time_catalog_held(const Lab& lab, const Cold& c, u64 rows, u64 cols) {
  namespace k = rl::kernels;
  using Entry = k::MatrixLaunch<k::Algo::LanesPerRow>;
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));
  const auto kernel = k::lanes_per_row_held<float, rl::ops::Sum, In>;
  const Entry::Occupancy o(kernel, 256);
  const std::size_t wave = std::size_t(o.blocks) * std::size_t(lab.sms);
  std::size_t grid = 0;
  for (std::size_t w = 1; w <= std::size_t(k::kGridWaves) && !grid; ++w)
    if (o.held_share(rows, w * wave, 4)) grid = w * wave;
  if (!grid) grid = std::size_t(k::kGridWaves) * wave;
  const std::size_t share = o.held_share(rows, grid, 4);
  char what[112];
  snprintf(what, sizeof what, "catalog held: lanes %2d, 256 x %zu, share %zu", lanes, grid, share);
  const In* in = reinterpret_cast<const In*>(lab.in);
  line<sizeof(In) == 2>(what, lab, c, rows, cols,
                        [&] { kernel<<<grid, 256, share * 4>>>(in, lab.out, rows, cols, lanes, share); });
}

// The catalog's timed kernel a round of rows a block (row_round: each warp's kRowLoadsInFlight
// groups where a lane loads its row in one go, else one group), as many blocks as rounds, each
// holding its round's sums and writing them at its end: the bench's launch since.
template <class In>
void time_catalog_once(const Lab& lab, const Cold& c, u64 rows, u64 cols, int block) {
  namespace k = rl::kernels;
  const int lanes = k::row_lanes(k::Algo::LanesPerRow, cols, sizeof(In));
  const u64 share = k::row_round(cols, sizeof(In), lanes, block);
  const unsigned grid = unsigned((rows + share - 1) / share);
  char what[112];
  snprintf(what, sizeof what, "catalog once: lanes %2d, %d x %u, share %llu", lanes, block, grid, share);
  const In* in = reinterpret_cast<const In*>(lab.in);
  line<sizeof(In) == 2>(what, lab, c, rows, cols, [&] {
    k::lanes_per_row_held<float, rl::ops::Sum, In><<<grid, block, share * 4>>>(in, lab.out, rows, cols, lanes, share);
  });
}

__global__ void fill_ones(float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) x[i] = 1;
}

// cuBLAS gemv over the row-major matrix: y = A x with x all ones (column-major A^T, op T).
void time_gemv(const Lab& lab, const Cold& c, cublasHandle_t h, const float* ones, u64 rows, u64 cols) {
  const float one = 1, zero = 0;
  line<false>("cuBLAS gemv (op T)", lab, c, rows, cols, [&] {
    CB(cublasSgemv(h, CUBLAS_OP_T, int(cols), int(rows), &one, lab.in, int(cols), ones, 1, &zero, lab.out, 1));
  });
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 24);
  const Cold c = open_cold();
  cublasHandle_t h;
  CB(cublasCreate(&h));
  float* ones = nullptr;
  CK(cudaMalloc(&ones, 1024 * 4));
  fill_ones<<<4, 256>>>(ones, 1024);
  CK(cudaGetLastError());
  namespace k = rl::kernels;
  const auto lanes = [](u64 cols, std::size_t bytes) { return k::row_lanes(k::Algo::LanesPerRow, cols, bytes); };

  const u64 r256 = u64(1) << 20, r64 = u64(1) << 22, r16 = u64(1) << 24;
  time_gemv(lab, c, h, ones, r256, 256);  // 2^20 x 256 floats
  time_catalog<float>(lab, c, r256, 256, lanes(256, 4));
  time_catalog_held<float>(lab, c, r256, 256);
  time_catalog_once<float>(lab, c, r256, 256, 256);
  time_catalog_once<float>(lab, c, r256, 256, 128);
  time_blocks<16, 4, 1, 128>(lab, c, r256, 0);  // gemv's 8 rows a block of 128
  time_blocks<16, 4, 1, 256>(lab, c, r256, 0);
  time_blocks<16, 4, 2, 128>(lab, c, r256, 0);
  time_blocks<8, 8, 1, 128>(lab, c, r256, 0);
  time_blocks<16, 4, 1, 128>(lab, c, r256, 1);
  time_blocks<16, 4, 1, 128>(lab, c, r256, 4);

  time_gemv(lab, c, h, ones, r64, 64);  // 2^22 x 64 floats
  time_catalog<float>(lab, c, r64, 64, lanes(64, 4));
  time_catalog_held<float>(lab, c, r64, 64);
  time_catalog_once<float>(lab, c, r64, 64, 256);
  time_catalog_once<float>(lab, c, r64, 64, 128);
  time_blocks<16, 1, 4, 128>(lab, c, r64, 0);
  time_blocks<4, 4, 1, 128>(lab, c, r64, 0);
  time_blocks<8, 2, 2, 128>(lab, c, r64, 0);
  time_blocks<4, 4, 1, 256>(lab, c, r64, 0);
  time_blocks<4, 4, 1, 128>(lab, c, r64, 4);

  time_gemv(lab, c, h, ones, r16, 16);  // 2^24 x 16 floats
  time_catalog<float>(lab, c, r16, 16, lanes(16, 4));
  time_catalog_held<float>(lab, c, r16, 16);
  time_catalog_once<float>(lab, c, r16, 16, 256);
  time_catalog_once<float>(lab, c, r16, 16, 128);
  time_blocks<4, 1, 4, 128>(lab, c, r16, 0);
  time_blocks<1, 4, 1, 128>(lab, c, r16, 0);
  time_blocks<4, 1, 4, 128>(lab, c, r16, 4);

  using Half = rl::narrow::Half;  // halves (results not checked: the input's bits read as halves)
  time_catalog<Half>(lab, c, r64, 64, lanes(64, 2));  // 2^22 x 64 halves
  time_catalog_held<Half>(lab, c, r64, 64);
  time_catalog_once<Half>(lab, c, r64, 64, 256);
  time_catalog_once<Half>(lab, c, r64, 64, 128);
  time_blocks<8, 1, 4, 128, true>(lab, c, r64, 0);
  time_blocks<2, 4, 1, 128, true>(lab, c, r64, 0);
  time_blocks<8, 1, 4, 128, true>(lab, c, r64, 4);
  time_catalog<Half>(lab, c, r16, 16, lanes(16, 2));  // 2^24 x 16 halves
  time_catalog_held<Half>(lab, c, r16, 16);
  time_catalog_once<Half>(lab, c, r16, 16, 256);
  time_catalog_once<Half>(lab, c, r16, 16, 128);
  time_blocks<2, 1, 4, 128, true>(lab, c, r16, 0);
  time_blocks<1, 2, 4, 128, true>(lab, c, r16, 0);
  time_blocks<2, 1, 4, 128, true>(lab, c, r16, 4);
  CB(cublasDestroy(h));
  return 0;
}
