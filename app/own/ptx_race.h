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
#include <unordered_set>
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

// Global memory between the blocks of one launch. Blocks run in no order a kernel can rely on, so
// two blocks that touch one byte, one of them storing with a plain st (not an atomic), race: which
// value stays, or what the read sees, is the blocks' order. Unless the two are ordered as the CUDA
// Programming Guide's __threadfence() example orders them: the first block fences at GPU scope
// after its access, then does an atomic on some address, and the second does an atomic on the
// same address before its access (the last block to retire reads the others' partials). The
// interpreter runs the blocks one after another; this finds what another order would change.
class GlobalAccesses {
 public:
  void reset();  // a new launch
  void begin_block(unsigned b);
  void fence() { ++fences_; }  // a fence at GPU (or system) scope by the current block
  // The current block's thread t stores or loads bytes [at, at + n) at a source line; region and
  // offset name the buffer (GlobalMemory::Place) for the loads' record. The race it completes in
  // words, naming each byte by where(byte), or empty. An atomic store is also a release and an
  // acquire at `at`.
  std::string store(unsigned t, int line, std::uint64_t at, std::size_t n, bool atomic, unsigned region,
                    std::uint64_t offset, const std::function<std::string(std::uint64_t)>& where);
  std::string load(unsigned t, int line, std::uint64_t at, std::size_t n, unsigned region, std::uint64_t offset,
                   const std::function<std::string(std::uint64_t)>& where);

 private:
  struct Access {
    unsigned block = 0, thread = 0;
    int line = 0;
    std::uint32_t fences = 0;  // the block's fences before the access
    bool atomic = false;
    bool read = false;  // a load, else a store
  };
  bool ordered(const Access& earlier) const;  // happens before the current block's accesses
  std::string say(const Access& earlier, const Access& now, std::uint64_t byte,
                  const std::function<std::string(std::uint64_t)>& where) const;

  unsigned block_ = 0;
  std::uint32_t fences_ = 0;
  std::unordered_set<std::uint64_t> acquired_;  // the addresses of the current block's atomics
  // Each block's releases: an atomic's address, and the block's fences before its last atomic there.
  std::unordered_map<unsigned, std::unordered_map<std::uint64_t, std::uint32_t>> releases_;
  std::unordered_map<std::uint64_t, Access> stores_;  // the last store of each byte
  // The last load of each byte, a buffer at a time: an index into load_records_ plus 1 (0: none).
  std::unordered_map<unsigned, std::vector<std::uint32_t>> loads_;
  std::vector<Access> load_records_;
};

}  // namespace rl::own::ptx
