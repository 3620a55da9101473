#include "ptx_memory.h"

#include <algorithm>

namespace rl::own::ptx {

namespace {
constexpr std::uint64_t kGap = 1 << 16;  // between buffers: an overrun lands in none
}  // namespace

std::uint64_t GlobalMemory::add(std::size_t bytes, const std::string& name) {
  bytes = std::max<std::size_t>(bytes, 1);
  const std::uint64_t base = next_;
  regions_[base] = Region{std::vector<unsigned char>(bytes, 0), name, unsigned(regions_.size())};
  next_ = (base + bytes + kGap + 255) / 256 * 256;
  return base;
}

const GlobalMemory::Region* GlobalMemory::below(std::uint64_t addr, std::uint64_t* base) const {
  auto it = regions_.upper_bound(addr);
  if (it == regions_.begin()) return nullptr;
  --it;
  *base = it->first;
  return &it->second;
}

unsigned char* GlobalMemory::at(std::uint64_t addr, std::size_t n, Place* place) {
  auto it = regions_.upper_bound(addr);  // below()'s lookup, for writing
  if (it == regions_.begin()) return nullptr;
  --it;
  if (addr + n > it->first + it->second.bytes.size() || addr + n < addr) return nullptr;
  if (place) *place = {it->second.number, addr - it->first};
  return it->second.bytes.data() + (addr - it->first);
}

std::string GlobalMemory::name_at(std::uint64_t addr) const {
  std::uint64_t base = 0;
  const Region* r = below(addr, &base);
  if (r && addr < base + r->bytes.size()) return "global byte " + std::to_string(addr - base) + " of " + r->name;
  return "global address " + std::to_string(addr);
}

std::string GlobalMemory::nearest(std::uint64_t addr) const {
  std::uint64_t base = 0;
  const Region* r = below(addr, &base);
  if (!r) return "";
  const std::uint64_t end = base + r->bytes.size();
  if (addr < end) return " (it runs past the end of " + r->name + ")";
  return " (" + std::to_string(addr - end) + " bytes past the end of " + r->name + ", " +
         std::to_string(r->bytes.size()) + " bytes)";
}

}  // namespace rl::own::ptx
