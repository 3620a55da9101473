// libFuzzer: the trace reader. Any text either reads as a Trace or throws std::runtime_error;
// a trace that reads survives writing and reading again unchanged.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "app/core/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  rl::core::Trace t;
  try {
    t = rl::core::trace_from_json(text);
  } catch (const std::runtime_error&) {
    return 0;
  }
  const std::string again = rl::core::to_json(t);
  if (rl::core::to_json(rl::core::trace_from_json(again)) != again) std::abort();
  (void)rl::core::to_text(t);
  return 0;
}
