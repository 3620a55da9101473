// The interpreter's global memory: named buffers (the kernel's arguments, module variables) at
// addresses far from 0 and far from each other, so a null pointer or an overrun lands in none.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rl::own::ptx {

class GlobalMemory {
 public:
  // A zeroed buffer of `bytes` (at least 1); its address.
  std::uint64_t add(std::size_t bytes, const std::string& name);
  // Where a byte lies: its buffer's number (in the order they were added) and its offset there.
  struct Place {
    unsigned region = 0;
    std::uint64_t offset = 0;
  };
  // The host's view of n bytes at addr, all inside one buffer (and where, if asked); null otherwise.
  unsigned char* at(std::uint64_t addr, std::size_t n, Place* place = nullptr);
  // In words, the buffer nearest below addr and how far past its end addr lies ("" when none).
  std::string nearest(std::uint64_t addr) const;
  // The byte at addr in words: "byte 4 of out" (or its address, inside no buffer).
  std::string name_at(std::uint64_t addr) const;

 private:
  struct Region {
    std::vector<unsigned char> bytes;
    std::string name;
    unsigned number = 0;
  };
  // The buffer starting at or below addr (null when none) and its address: what a message names.
  const Region* below(std::uint64_t addr, std::uint64_t* base) const;
  std::map<std::uint64_t, Region> regions_;
  std::uint64_t next_ = std::uint64_t(1) << 32;  // no buffer near 0: a null pointer is out of bounds
};

}  // namespace rl::own::ptx
