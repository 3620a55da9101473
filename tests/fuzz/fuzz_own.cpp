// libFuzzer: what a kernel file of your own brings in: its `//!` launch lines (parse_launch)
// and the PTX that NVRTC makes of it (ptx::parse, which the CPU path interprets). Any text
// reads, or is refused with a std::invalid_argument naming its line; nothing else escapes.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/own/own_file.h"
#include "app/own/ptx_module.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    (void)rl::own::parse_launch(text, "fuzz.cu").name_expression(256);
  } catch (const std::invalid_argument&) {}
  try {
    const auto module = rl::own::ptx::parse(text);
    for (const auto& entry : module->entries)
      if (module->entry(entry.name) == nullptr) std::abort();  // each entry found by its name
  } catch (const std::invalid_argument&) {}
  return 0;
}
