#include "frame_log.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

namespace rl::core {

void FrameLog::add(double ms, bool bench_running) {
  ms_.push_back(ms);
  bench_.push_back(bench_running);
}

FrameLog::Summary FrameLog::summary(bool bench_running) const {
  std::vector<double> v;
  for (std::size_t i = 0; i < ms_.size(); ++i)
    if (bench_[i] == bench_running) v.push_back(ms_[i]);
  Summary s;
  s.frames = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) { return v[std::min(v.size() - 1, std::size_t(std::ceil(q * double(v.size()))) - 1)]; };
  s.p50 = at(0.50), s.p95 = at(0.95), s.p99 = at(0.99), s.max = v.back();
  s.over_budget = std::size_t(std::count_if(v.begin(), v.end(), [](double x) { return x > 1000.0 / 60.0; }));
  return s;
}

bool FrameLog::write(const std::string& path, const std::string& renderer, std::string* error) const {
  const auto js = [](const Summary& s) {
    return nlohmann::json{{"frames", s.frames}, {"p50_ms", s.p50}, {"p95_ms", s.p95}, {"p99_ms", s.p99},
                          {"max_ms", s.max}, {"over_16_7_ms", s.over_budget}};
  };
  nlohmann::json j{{"renderer", renderer},
                   {"idle", js(summary(false))},
                   {"bench_running", js(summary(true))},
                   {"frame_ms", ms_},
                   {"bench", bench_}};
  std::ofstream f(path);
  f << j.dump(1) << "\n";
  if (!f) {
    if (error) *error = "cannot write the frame report '" + path + "'";
    return false;
  }
  return true;
}

}  // namespace rl::core
