// The benchmark's statistics over a timing's samples, host code alone.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "bench_api.h"

namespace rl::kernels {

// Relative standard deviation of the samples (1 where there are fewer than two: not converged).
inline double rsd(const std::vector<double>& v) {
  if (v.size() < 2) return 1;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  double var = 0;
  for (double x : v) var += (x - mean) * (x - mean);
  return std::sqrt(var / double(v.size() - 1)) / mean;
}

// The samples' count, noise (rsd, in percent) and median into t.
inline void summarise(std::vector<double> us, Timing& t) {
  t.samples = int(us.size());
  if (us.empty()) return;
  t.noise_pct = 100.0 * (us.size() > 1 ? rsd(us) : 0.0);
  std::sort(us.begin(), us.end());
  const std::size_t m = us.size() / 2;
  t.median_us = us.size() % 2 ? us[m] : (us[m - 1] + us[m]) / 2;
}

}  // namespace rl::kernels
