#include "frame_log.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "file_io.h"

namespace rl::core {

void FrameLog::add(double ms, bool bench_running) {
  ms_.push_back(ms);
  bench_.push_back(bench_running);
}

void FrameLog::add_memory(std::size_t frame, std::size_t rss_bytes, std::size_t device_bytes) {
  memory_.push_back({frame, rss_bytes, device_bytes});
}

// The first quarter is warm-up (caches, the font atlas, the first benchmark's buffers); growth
// is the median of the last quarter against that of the second. Medians, not means: a sample
// taken while the benchmark's session was between runs dips by its buffers (about 120 MiB on
// an H200), and one such dip in a quarter moved the mean by 2.5 MiB with nothing leaking.
FrameLog::Growth FrameLog::growth() const {
  Growth g;
  g.samples = memory_.size();
  if (memory_.size() < 8) return g;
  const std::size_t q = memory_.size() / 4;
  const auto median = [&](std::size_t from, auto field) {
    std::vector<double> v;
    for (std::size_t i = from; i < from + q; ++i) v.push_back(double(field(memory_[i])));
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2] / (1 << 20);
  };
  const auto rss = [](const Memory& m) { return m.rss; };
  const auto dev = [](const Memory& m) { return m.device; };
  g.rss_mib = median(memory_.size() - q, rss) - median(q, rss);
  g.device_mib = median(memory_.size() - q, dev) - median(q, dev);
  return g;
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
  nlohmann::json memory = nlohmann::json::array();
  for (const auto& m : memory_)
    memory.push_back({{"frame", m.frame}, {"rss_mib", double(m.rss) / (1 << 20)}, {"device_mib", double(m.device) / (1 << 20)}});
  const Growth g = growth();
  nlohmann::json j{{"renderer", renderer},
                   {"idle", js(summary(false))},
                   {"bench_running", js(summary(true))},
                   {"memory", memory},
                   {"growth", {{"samples", g.samples}, {"rss_mib", g.rss_mib}, {"device_mib", g.device_mib}}},
                   {"frame_ms", ms_},
                   {"bench", bench_},
                   {"said", said_}};
  if (write_file(path, j.dump(1) + "\n", error)) return true;
  if (error) *error = "frame report not saved: " + *error;
  return false;
}

}  // namespace rl::core
