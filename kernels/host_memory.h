// How much memory the host can still give: refused sizes get a clear message instead of
// std::bad_alloc (or the kernel's OOM killer).
#pragma once
#include <cstddef>
#include <fstream>
#include <string>

namespace rl::kernels {

// MemAvailable from /proc/meminfo, in bytes; 0 when it cannot be read (then nothing is refused).
inline std::size_t host_available_bytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return 0;
}

}  // namespace rl::kernels
