// Races in a block's shared memory, by a happens-before check the interpreter (ptx_machine.cpp)
// keeps as it runs: who last wrote each byte, and who read it, between which barriers. Two threads
// that touch one byte between the same __syncthreads() (and, inside one warp, the same
// __syncwarp() or .sync shuffle), one of them writing, race: what the reader sees depends on the
// order the GPU happens to run them in, whichever order this run took.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rl::own::ptx {

class SharedHistory {
 public:
  void reset(std::size_t bytes, unsigned warps);
  void barrier() { ++block_epoch_; }
  void warp_sync(unsigned warp) { ++warp_epoch_[warp]; }
  // Thread t's access to bytes [at, at + n) at a source line; the race it completes in words
  // ("thread 3 writes shared byte 12 at line 20 and thread 4 reads it at line 21 ..."), or empty.
  std::string access(unsigned t, int line, std::size_t at, std::size_t n, bool write);

 private:
  struct Mark {
    int thread = -1;
    int line = 0;
    std::uint32_t block_epoch = 0, warp_epoch = 0;
  };
  bool ordered(const Mark& m, unsigned t) const;
  Mark mark(unsigned t, int line) const;

  std::vector<Mark> writes_, reads_, other_reads_;  // two distinct readers between orderings
  std::vector<std::uint32_t> warp_epoch_;
  std::uint32_t block_epoch_ = 0;
};

// Stores to global memory by the blocks of one launch. Blocks run in no order a kernel can rely on
// (a fence orders a block's own accesses, not the blocks), so two blocks that store to one byte,
// one of them with a plain st rather than an atomic, race: which value stays is the blocks' order.
class GlobalStores {
 public:
  void reset() { last_.clear(); }
  // Block b's thread t stores bytes [at, at + n) at a source line (atomic: atom or red); the race it
  // completes in words, naming each byte by where(byte), or empty.
  std::string store(unsigned b, unsigned t, int line, std::uint64_t at, std::size_t n, bool atomic,
                    const std::function<std::string(std::uint64_t)>& where);

 private:
  struct Store {
    unsigned block = 0, thread = 0;
    int line = 0;
    bool atomic = false;
  };
  std::unordered_map<std::uint64_t, Store> last_;
};

}  // namespace rl::own::ptx
