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

inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

// The samples' count, noise (rsd, in percent) and median into t.
inline void summarise(const std::vector<double>& us, Timing& t) {
  t.samples = int(us.size());
  if (us.empty()) return;
  t.noise_pct = 100.0 * (us.size() > 1 ? rsd(us) : 0.0);
  t.median_us = median(us);
}

}  // namespace rl::kernels
