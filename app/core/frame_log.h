// Every frame's working time, and whether a benchmark was running meanwhile: the evidence for
// "the UI holds 60 frames per second while a benchmark runs".
#pragma once
#include <map>
#include <string>
#include <vector>

namespace rl::core {

class FrameLog {
 public:
  // bench_running: a worker (a benchmark, or an export) ran during the frame; JSON keeps the name.
  void add(double ms, bool bench_running);
  // Memory every so often (the soak): resident set of the process and device memory in use.
  void add_memory(std::size_t frame, std::size_t rss_bytes, std::size_t device_bytes);
  struct Growth {
    double rss_mib = 0, device_mib = 0;  // last quarter's mean minus second quarter's mean
    std::size_t samples = 0;
  };
  Growth growth() const;
  std::size_t size() const { return ms_.size(); }

  struct Summary {
    std::size_t frames = 0;
    double p50 = 0, p95 = 0, p99 = 0, max = 0;  // milliseconds
    std::size_t over_budget = 0;                // frames longer than 1/60 s
  };
  Summary summary(bool bench_running) const;
  // A line the window showed in its last frame, under a name ("race_summary"): scripted runs
  // report what was said, and the tests read it.
  void say(const std::string& name, const std::string& text) { said_[name] = text; }
  // JSON: the renderer, both summaries, every frame and what was said; false with *error set on failure.
  bool write(const std::string& path, const std::string& renderer, std::string* error) const;

 private:
  std::vector<double> ms_;
  std::vector<bool> bench_;
  struct Memory {
    std::size_t frame, rss, device;
  };
  std::vector<Memory> memory_;
  std::map<std::string, std::string> said_;
};

}  // namespace rl::core
