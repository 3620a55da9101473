// libFuzzer: the benchmark-results reader (render --chart's input). Any text either reads or
// throws std::runtime_error; what reads can be written as JSON and CSV and read back.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "app/core/bench.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rl::core::BenchReport r;
  try {
    r = rl::core::bench_from_json(text);
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::string again = rl::core::to_json(r);
  if (rl::core::bench_from_json(again).rows.size() != r.rows.size()) std::abort();
  (void)rl::core::to_csv(r);
  return 0;
}
