// libFuzzer: the input-file parser. Any text either parses to numbers of the type or throws
// std::runtime_error; parsed numbers respect the type (ints integral and in range; floats
// representable).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "app/core/input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (auto type : {rl::core::DType::Int, rl::core::DType::Float, rl::core::DType::Double}) {
    try {
      for (double v : rl::core::parse_numbers(text, type, "fuzz")) {
        if (type == rl::core::DType::Int && (!std::isfinite(v) || v != std::floor(v) || std::fabs(v) > 2147483648.0))
          std::abort();
        if (type == rl::core::DType::Float && std::isfinite(v) && double(float(v)) != v) std::abort();
      }
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}
