// Prototype for issue 53 (an exploration, not part of the app): rows of 64 and 256 floats (2^22 x
// 64, 2^20 x 256) with more 16-byte loads in flight a thread than lanes-per-row's four: rows_vec
// (rows_vec.cuh) in several shapes, blocks and ways of handing out rows.
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -o rows_in_flight scripts/experiments/rows_in_flight.cu && ./rows_in_flight
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>

#include "rows_vec.cuh"

template <int kLanes, int kPerLane, int kGroups, int kBlock, int kMinBlocks, bool kTickets, int kWrite = 1>
void time_one(const Lab& lab, u64 rows, unsigned long long* counter) {
  constexpr u64 cols = u64(kLanes) * kPerLane * 4;
  auto kernel = rows_vec<kLanes, kPerLane, kGroups, kBlock, kMinBlocks, kTickets, kWrite>;
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, kBlock, 0));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  const unsigned grid = unsigned(fit * lab.sms);
  const float ms = best_ms([&] {
    if (kTickets) CK(cudaMemsetAsync(counter, 0, 8));
    kernel<<<grid, kBlock>>>(reinterpret_cast<const float4*>(lab.in), lab.out, rows, counter);
  });
  const unsigned long long wrong = kWrite ? lab.wrong_rows(rows, cols) : 0;
  printf(
      "%llu x %llu: lanes %2d x %d loads, %d groups (%2d loads in flight), block %4d, %d blocks an SM, %3d regs, %s: "
      "%5.1f %%%s\n",
      rows, cols, kLanes, kPerLane, kGroups, kPerLane * kGroups, kBlock, fit, attr.numRegs,
      kTickets ? (kWrite == 0   ? "tickets, no writes"
                  : kWrite == 2 ? "tickets, .cs writes"
                                : "tickets")
               : "stride ",
      lab.pct(double(rows) * double(cols + 1) * 4, ms), wrong ? " WRONG" : "");
}

int main() {
  const Lab lab = open_lab(u64(1) << 28, u64(1) << 22);
  unsigned long long* counter = nullptr;
  CK(cudaMalloc(&counter, 8));
  const u64 r64 = u64(1) << 22, r256 = u64(1) << 20;
  // Rows of 64 floats: 16 vectors.
  time_one<16, 1, 4, 256, 1, false>(lab, r64, counter);  // lanes-per-row's
  time_one<16, 1, 8, 256, 1, true>(lab, r64, counter);
  time_one<16, 1, 8, 256, 1, true, 0>(lab, r64, counter);
  time_one<16, 1, 8, 256, 1, true, 2>(lab, r64, counter);
  time_one<8, 2, 4, 256, 1, true>(lab, r64, counter);
  // Rows of 256 floats: 64 vectors.
  time_one<16, 4, 1, 256, 1, false>(lab, r256, counter);  // lanes-per-row's before
  time_one<8, 8, 1, 256, 1, false>(lab, r256, counter);   // lanes-per-row's now
  time_one<8, 8, 1, 256, 1, true>(lab, r256, counter);
  time_one<8, 8, 1, 256, 1, true, 0>(lab, r256, counter);
  time_one<32, 2, 4, 512, 1, true>(lab, r256, counter);
  time_one<32, 2, 4, 512, 1, true, 0>(lab, r256, counter);
  return 0;
}
