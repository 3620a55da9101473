// What the row experiments of issue 53 share (explorations, not part of the app): a timed launch's
// line and the catalog's timed lanes-per-row, timed as the benchmark takes its samples.
#pragma once
#include <cstdio>
#include <type_traits>

#include "flat_rows_common.cuh"
#include "short_rows.cuh"

template <class In>
constexpr const char* type_name() {
  if constexpr (std::is_same_v<In, rl::narrow::Half>) return "half";
  if constexpr (std::is_same_v<In, rl::narrow::Bf16>) return "bf16";
  return "float";
}

// One line: the best of 20 warm launches and the median of 21 cold ones (each after an L2
// eviction), as % of peak counting the input and one float a row; float results checked against
// a double sum.
template <class In, class Launch>
void report(const char* what, const Lab& lab, const Cold& c, u64 rows, u64 cols, Launch&& launch) {
  const float warm = best_ms(launch);
  const float cold = cold_median_ms(launch, c, lab.sms);
  const unsigned long long wrong = sizeof(In) == 4 ? lab.wrong_rows(rows, cols) : 0;
  const double bytes = double(rows) * double(cols) * sizeof(In) + double(rows) * 4;
  printf("%-5s %8llu x %8llu %-56s best warm %5.1f %%  median cold %5.1f %%%s\n", type_name<In>(), rows, cols, what,
         lab.pct(bytes, warm), lab.pct(bytes, cold), wrong ? " WRONG" : "");
  fflush(stdout);
}

// report's line, then the mean of 20 launches back to back (each meets the previous one's dirty
// lines in L2, as the benchmark's samples do) on a line of its own. kHalves: rows of halves.
template <bool kHalves, class Launch>
void line(const char* what, const Lab& lab, const Cold& c, u64 rows, u64 cols, Launch&& launch) {
  const float steady = back_to_back_ms(launch, 20, 1);  // the mean of 20
  report<std::conditional_t<kHalves, rl::narrow::Half, float>>(what, lab, c, rows, cols, launch);
  const double bytes = double(rows) * double(cols) * (kHalves ? 2 : 4) + double(rows) * 4;
  printf("%*s steady (mean of 20 back to back) %5.1f %%\n", 78, "", lab.pct(bytes, steady));
}

// One line: the best of 20 warm launches and the median of 21 cold ones in microseconds, and the
// cold one as % of peak over `bytes`.
template <class Launch>
void time_line(const char* what, const Lab& lab, const Cold& c, double bytes, Launch&& launch) {
  const float warm = best_ms(launch), cold = cold_median_ms(launch, c, lab.sms);
  printf("%-52s best warm %6.2f us  median cold %6.2f us  (%4.1f %% of peak)\n", what, warm * 1e3, cold * 1e3,
         lab.pct(bytes, cold));
  fflush(stdout);
}

// Times kernel(in, out, rows, cols, lanes) in grid blocks of `block` threads.
template <class In, class Kernel>
void time_rows_kernel(const char* what, const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes, Kernel kernel,
                      unsigned grid, int block) {
  const In* in = reinterpret_cast<const In*>(lab.in);
  report<In>(what, lab, c, rows, cols, [&] { kernel<<<grid, block>>>(in, lab.out, rows, cols, lanes); });
}

// Blocks of `block` threads of `kernel` an SM holds at once.
template <class Kernel>
int blocks_an_sm(Kernel kernel, int block) {
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, block, 0));
  return fit;
}

// `need` blocks (at least one), at most `waves` waves of `fit` blocks an SM.
inline unsigned wave_grid(const Lab& lab, u64 need, int fit, int waves) {
  return unsigned(std::min<u64>(std::max<u64>(need, 1), u64(waves) * u64(fit) * u64(lab.sms)));
}

// The catalog's timed lanes-per-row in blocks of 256, its grid as the catalog sizes it, with the
// first batch of four (the bench's launch takes row_first_batch's on long rows of float sums).
template <class In>
void time_catalog(const Lab& lab, const Cold& c, u64 rows, u64 cols, int lanes) {
  namespace k = rl::kernels;
  const unsigned grid = unsigned(std::min<u64>((rows * lanes / 32 + 7) / 8, 16u * unsigned(lab.sms)));
  char what[96];
  snprintf(what, sizeof what, "catalog lanes-per-row lanes %2d, 256 x %u", lanes, grid);
  const In* in = reinterpret_cast<const In*>(lab.in);
  report<In>(what, lab, c, rows, cols, [&] {
    k::lanes_per_row_held<float, rl::ops::Sum, In><<<grid, 256>>>(in, lab.out, rows, cols, lanes, 0);  // not held
  });
}
