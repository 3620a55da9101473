#include "ptx_race.h"

namespace rl::own::ptx {

void SharedHistory::reset(std::size_t bytes, unsigned warps) {
  writes_.assign(bytes, Mark{});
  reads_.assign(bytes, Mark{});
  other_reads_.assign(bytes, Mark{});
  warp_epoch_.assign(warps, 0);
  block_epoch_ = 0;
}

// Whether an earlier access m happens before thread t's access now: the same thread, a block
// barrier since, or the same warp with a warp-level synchronisation since.
bool SharedHistory::ordered(const Mark& m, unsigned t) const {
  if (m.thread < 0 || unsigned(m.thread) == t || m.block_epoch != block_epoch_) return true;
  const unsigned warp = t / 32;
  return unsigned(m.thread) / 32 == warp && m.warp_epoch != warp_epoch_[warp];
}

SharedHistory::Mark SharedHistory::mark(unsigned t, int line) const {
  return {int(t), line, block_epoch_, warp_epoch_[t / 32]};
}

std::string SharedHistory::access(unsigned t, int line, std::size_t at, std::size_t n, bool write) {
  const auto say = [&](const Mark& m, const char* first, std::size_t byte) {
    return "thread " + std::to_string(m.thread) + " " + first + " shared byte " + std::to_string(byte) + " at line " +
           std::to_string(m.line) + " and thread " + std::to_string(t) + (write ? " writes" : " reads") +
           " it at line " + std::to_string(line) + " with no barrier between them: a race";
  };
  for (std::size_t b = at; b < at + n && b < writes_.size(); ++b) {
    if (!ordered(writes_[b], t)) return say(writes_[b], "writes", b);
    if (write && !ordered(reads_[b], t)) return say(reads_[b], "reads", b);
    if (write && !ordered(other_reads_[b], t)) return say(other_reads_[b], "reads", b);
  }
  for (std::size_t b = at; b < at + n && b < writes_.size(); ++b) {
    if (write) {
      writes_[b] = mark(t, line);
    } else if (reads_[b].thread < 0 || (ordered(reads_[b], t) && unsigned(reads_[b].thread) != t)) {
      reads_[b] = mark(t, line), other_reads_[b] = Mark{};  // the first read since the last ordering
    } else if (unsigned(reads_[b].thread) != t && (other_reads_[b].thread < 0 || ordered(other_reads_[b], t))) {
      other_reads_[b] = mark(t, line);  // two readers kept: a writer that is one of them races the other
    }
  }
  return {};
}

std::string GlobalStores::store(unsigned b, unsigned t, int line, std::uint64_t at, std::size_t n, bool atomic,
                                const std::function<std::string(std::uint64_t)>& where) {
  constexpr std::size_t kMaxBytes = std::size_t(1) << 24;  // past this, later stores go unchecked
  for (std::uint64_t byte = at; byte < at + n; ++byte) {
    auto it = last_.find(byte);
    if (it != last_.end() && it->second.block != b && !(atomic && it->second.atomic)) {
      const Store& s = it->second;
      return "block " + std::to_string(s.block) + " thread " + std::to_string(s.thread) + " stores " + where(byte) +
             " at line " + std::to_string(s.line) + (s.atomic ? " (atomically)" : "") + " and block " +
             std::to_string(b) + " thread " + std::to_string(t) + " stores it at line " + std::to_string(line) +
             (atomic ? " (atomically)" : "") +
             ", one of them without an atomic: blocks run in no fixed order, so which value stays is a race";
    }
    if (it != last_.end())
      it->second = {b, t, line, atomic};
    else if (last_.size() < kMaxBytes)
      last_.emplace(byte, Store{b, t, line, atomic});
  }
  return {};
}

}  // namespace rl::own::ptx
