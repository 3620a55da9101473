#include "repeat.h"

#include <algorithm>
#include <bit>

namespace rl::backend {

Repeats repeat_trace(Backend& backend, const TraceRequest& request, int runs, const std::atomic<bool>* cancel) {
  Repeats r;
  const int wanted = std::clamp(runs, 1, kMaxRepeats);
  for (; r.runs < wanted && !(cancel && *cancel); ++r.runs) {
    const core::Trace t = backend.trace(request);
    r.backend = t.backend;
    r.device = t.device;
    // Bit patterns: NaN equals itself here, and -0 differs from +0.
    const auto bits = std::bit_cast<std::uint64_t>(t.result);
    const auto same = [bits](const Distinct& d) { return std::bit_cast<std::uint64_t>(d.result) == bits; };
    const auto it = std::find_if(r.results.begin(), r.results.end(), same);
    if (it != r.results.end()) ++it->count;
    else r.results.push_back({t.result, 1});
  }
  return r;
}

std::unique_ptr<Backend> same_kind(const Backend& backend, std::string* why) {
  return backend.name() == "cuda" ? make_cuda_backend(why) : make_sim_backend();
}

}  // namespace rl::backend
