#include "ptx_race.h"

#include <algorithm>

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

void GlobalAccesses::reset(unsigned blocks) {
  stores_.clear(), loads_.clear(), load_records_.clear(), releases_.clear(), blocks_.clear();
  blocks_total_ = std::max(blocks, 1u);
  begin_block(0);
}

void GlobalAccesses::begin_block(unsigned b) { block_ = b, now_ = &blocks_[b]; }

void GlobalAccesses::end_block() { blocks_.erase(block_), now_ = nullptr; }

void GlobalAccesses::fence(bool full) {
  ++now_->fences;
  if (!full || now_->pending.empty()) return;
  if (now_->seen.empty()) now_->seen.assign(blocks_total_, 0);
  for (const auto& [block, fences] : now_->pending)
    if (block < now_->seen.size()) now_->seen[block] = std::max(now_->seen[block], fences);
  now_->pending.clear();
}

void GlobalAccesses::acquire(std::uint64_t at) {
  const auto it = releases_.find(at);
  if (it == releases_.end()) return;
  if (now_->seen.empty()) now_->seen.assign(blocks_total_, 0);
  for (const auto& [block, fences] : it->second)
    if (block != block_ && block < now_->seen.size()) now_->seen[block] = std::max(now_->seen[block], fences);
}

void GlobalAccesses::take(Releases& into, std::uint64_t at) const {
  const auto it = releases_.find(at);
  if (it == releases_.end()) return;
  for (const auto& [block, fences] : it->second)
    if (block != block_) into[block] = std::max(into[block], fences);
}

bool GlobalAccesses::ordered(const Access& earlier) const {
  if (earlier.block == block_) return true;  // within a block: the shared-memory check's business
  // Fenced after it, released, acquired here.
  return earlier.block < now_->seen.size() && now_->seen[earlier.block] > earlier.fences;
}

namespace {
const char* verb(bool read, bool strong) { return read ? "reads" : strong ? "stores (atomically)" : "stores"; }
}  // namespace

std::string GlobalAccesses::say(const Access& earlier, const Access& now, std::uint64_t byte,
                                const std::function<std::string(std::uint64_t)>& where) const {
  return "block " + std::to_string(earlier.block) + " thread " + std::to_string(earlier.thread) + " " +
         verb(earlier.read, earlier.strong) + " " + where(byte) + " at line " + std::to_string(earlier.line) +
         " and block " + std::to_string(now.block) + " thread " + std::to_string(now.thread) + " " +
         verb(now.read, now.strong) + " it at line " + std::to_string(now.line) +
         ", with no fence and atomic ordering the blocks: blocks run in no fixed order, so " +
         (earlier.read || now.read ? "what the read sees" : "which value stays") + " is a race";
}

std::string GlobalAccesses::store(unsigned t, int line, std::uint64_t at, std::size_t n, Order order, unsigned region,
                                  std::uint64_t offset, const std::function<std::string(std::uint64_t)>& where) {
  constexpr std::size_t kMaxBytes = std::size_t(1) << 24;  // past this, later stores go unchecked
  if (order.release) fence(false);
  if (order.acquire) acquire(at);
  if (order.strong) releases_[at][block_] = now_->fences;
  const Access now{block_, t, line, now_->fences, order.strong, false};
  const auto loaded = loads_.find(region);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t byte = at + i;
    auto it = stores_.find(byte);
    if (it != stores_.end() && !(order.strong && it->second.strong) && !ordered(it->second))
      return say(it->second, now, byte, where);
    if (loaded != loads_.end() && offset + i < loaded->second.size() && loaded->second[offset + i] != 0) {
      const Access& read = load_records_[loaded->second[offset + i] - 1];
      if (!(order.strong && read.strong) && !ordered(read)) return say(read, now, byte, where);
    }
    if (it != stores_.end())
      it->second = now;
    else if (stores_.size() < kMaxBytes)
      stores_.emplace(byte, now);
  }
  return {};
}

std::string GlobalAccesses::load(unsigned t, int line, std::uint64_t at, std::size_t n, Order order, unsigned region,
                                 std::uint64_t offset, const std::function<std::string(std::uint64_t)>& where) {
  constexpr std::size_t kMaxLoads = std::size_t(1) << 24;
  if (order.release) fence(false);
  if (order.acquire) acquire(at);
  if (order.strong && !order.acquire) take(now_->pending, at);
  const Access now{block_, t, line, now_->fences, order.strong, true};
  for (std::uint64_t byte = at; byte < at + n && !stores_.empty(); ++byte) {
    const auto it = stores_.find(byte);
    if (it != stores_.end() && !it->second.strong && !ordered(it->second)) return say(it->second, now, byte, where);
  }
  std::vector<std::uint32_t>& marks = loads_[region];
  if (marks.size() < offset + n) marks.resize(offset + n, 0);
  const auto first = marks.begin() + std::ptrdiff_t(offset), last = first + std::ptrdiff_t(n);
  const std::uint32_t mark = *first;
  const auto same = [&](const Access& a) {
    return a.block == now.block && a.thread == now.thread && a.line == now.line && a.fences == now.fences &&
           a.strong == now.strong;
  };
  if (mark != 0 && same(load_records_[mark - 1]) &&
      std::all_of(first, last, [&](std::uint32_t m) { return m == mark; }))
    return {};  // the same load again (a spin): its record stands
  if (load_records_.size() >= kMaxLoads) return {};
  load_records_.push_back(now);
  std::fill(first, last, std::uint32_t(load_records_.size()));
  return {};
}

}  // namespace rl::own::ptx
