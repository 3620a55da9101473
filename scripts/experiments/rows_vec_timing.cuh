// Times the row prototype (rows_vec.cuh) as the row experiments of issue 53 time it (rows_timing.cuh's
// report): grid stride over `waves` waves of the blocks an SM holds, float results checked.
#pragma once
#include <cstdio>

#include "rows_timing.cuh"
#include "rows_vec.cuh"

template <int kLanes, int kPerLane, int kGroups, int kBlock, int kWrite, int kLoad, bool kHalves>
struct RowsVec {
  static constexpr u64 cols = u64(kLanes) * kPerLane * (kHalves ? 8 : 4);
  static constexpr auto kernel = rows_vec<kLanes, kPerLane, kGroups, kBlock, 1, false, kWrite, kLoad, kHalves>;
  unsigned grid = 0;
  int regs = 0;
  RowsVec(const Lab& lab, int waves) {
    cudaFuncAttributes attr;
    CK(cudaFuncGetAttributes(&attr, kernel));
    regs = attr.numRegs;
    grid = unsigned(blocks_an_sm(kernel, kBlock) * lab.sms * waves);
  }
  void operator()(const Lab& lab, u64 rows) const {
    kernel<<<grid, kBlock>>>(reinterpret_cast<const float4*>(lab.in), lab.out, rows, nullptr);
  }
};

// One report line, "proto LANESxLOADSxGROUPS <label>, REGS regs, BLOCK x GRID".
template <int kLanes, int kPerLane, int kGroups, int kBlock = 256, int kWrite = 1, int kLoad = 0, bool kHalves = false,
          class Report>
void time_rows_vec(const Lab& lab, u64 rows, int waves, const char* label, Report&& report_line) {
  const RowsVec<kLanes, kPerLane, kGroups, kBlock, kWrite, kLoad, kHalves> proto(lab, waves);
  char what[112];
  snprintf(what, sizeof what, "proto %2dx%dx%d %s, %3d regs, %4d x %u", kLanes, kPerLane, kGroups, label, proto.regs,
           kBlock, proto.grid);
  report_line(what, proto.cols, [&] { proto(lab, rows); });
}
