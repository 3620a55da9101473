#include "catalog.h"

#include <map>
#include <mutex>
#include <stdexcept>

#include "embedded.h"

namespace rl::core {
namespace {

const std::vector<AlgorithmInfo>& table() {
  static const std::vector<AlgorithmInfo> t = {
      {"interleaved-divergent", "tree", "Interleaved addressing, divergent branch",
       "Threads whose index is a multiple of 2*stride add a neighbour: half of every warp idles.",
       "Each step, thread t works only if t is a multiple of 2*stride, and adds the cell stride "
       "places to its right. The tree is correct, but the working threads are scattered across "
       "every warp: a warp with even one working thread must step through the branch, so all "
       "warps stay busy while most of their lanes do nothing, and the % operator is slow."},
      {"interleaved-bank-conflicts", "tree", "Interleaved addressing, strided index",
       "Contiguous threads do the work, but their strided addresses collide in shared-memory banks.",
       "The working threads are now contiguous (thread t handles index 2*stride*t), so whole "
       "warps retire and divergence is gone. But neighbouring threads touch addresses 2*stride "
       "apart: with 32 banks of 4 bytes, several threads of a warp hit the same bank and their "
       "accesses are serialised, more so as the stride grows."},
      {"sequential", "tree", "Sequential addressing",
       "Thread t adds cell t+stride to cell t with a halving stride: no divergence, no bank conflicts.",
       "The stride starts at half the block and halves each step; thread t adds cell t+stride "
       "to cell t. Working threads are contiguous and so are their addresses, so a warp's 32 "
       "accesses fall in 32 different banks. Half of the threads still idle from the first "
       "step on, which the next lessons address."},
  };
  return t;
}

}  // namespace

std::span<const AlgorithmInfo> algorithms() { return table(); }

const AlgorithmInfo* find_algorithm(std::string_view id) {
  for (const auto& a : table())
    if (a.id == id) return &a;
  return nullptr;
}

std::vector<std::string> algorithm_ids() {
  std::vector<std::string> ids;
  for (const auto& a : table()) ids.push_back(a.id);
  return ids;
}

SourceView parse_source(std::string_view text, std::string_view file, std::string_view id) {
  SourceView view;
  view.file = std::string(file);
  const std::string open = "// <<< " + std::string(id);
  bool inside = false;
  int number = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    ++number;
    if (!inside) {
      if (line == open) {
        inside = true;
        view.first_line = number + 1;
      }
    } else if (line == "// >>>") {
      break;
    } else {
      view.lines.emplace_back(line);
      if (line.find("// [load]") != std::string_view::npos) view.load_line = number;
      if (line.find("// [step]") != std::string_view::npos) view.step_line = number;
    }
    pos = end + 1;
  }
  if (view.lines.empty() || view.load_line == 0 || view.step_line == 0)
    throw std::runtime_error("kernel source " + std::string(file) + " has no complete markers for " +
                             std::string(id));
  return view;
}

const SourceView& source_of(std::string_view id) {
  static std::mutex mutex;
  static std::map<std::string, SourceView, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(id); it != cache.end()) return it->second;
  auto view = parse_source(embedded::tree_kernel_source(), "kernels/tree.cuh", id);
  return cache.emplace(std::string(id), std::move(view)).first->second;
}

}  // namespace rl::core
