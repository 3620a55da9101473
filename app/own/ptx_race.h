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
// two blocks that touch one byte, one of them storing with a plain st, race: which value stays, or
// what the read sees, is the blocks' order. Strong accesses (atom, red, and ld/st .relaxed,
// .acquire, .release or .volatile at GPU or system scope) do not race with each other (the PTX
// ISA's memory consistency model). Two blocks' accesses are ordered as the CUDA Programming Guide's
// __threadfence() example and cooperative groups' grid.sync() order them: the first block fences
// at GPU scope after its access (or releases: st.release, atom.release), then makes a strong
// store or an atomic at some address; the second acquires at that address (an atomic, an
// ld.acquire, or a strong load followed by a fence) before its access. The interpreter runs
// blocks one after another, or in turns (a cooperative launch); this finds what another order
// would change.
class GlobalAccesses {
 public:
  // How an access orders (Machine reads it from the instruction).
  struct Order {
    bool strong = false;   // atomic, or relaxed/acquire/release/volatile past the block
    bool acquire = false;  // sees the releases made at its address before it (atom, ld.acquire)
    bool release = false;  // a fence before it (st.release, atom.release, .acq_rel)
  };
  void reset(unsigned blocks);   // a new launch of `blocks` blocks
  void begin_block(unsigned b);  // b runs (again, in a cooperative launch's turns)
  void end_block();              // the current block has exited: what it acquired goes
  // A fence at GPU (or system) scope by the current block; a full one (not a release's) also
  // acquires what its strong loads saw since its last.
  void fence(bool full = true);
  // The current block's thread t stores or loads bytes [at, at + n) at a source line; region and
  // offset name the buffer (GlobalMemory::Place) for the loads' record. The race it completes in
  // words, naming each byte by where(byte), or empty. A strong store is a release at `at`.
  std::string store(unsigned t, int line, std::uint64_t at, std::size_t n, Order order, unsigned region,
                    std::uint64_t offset, const std::function<std::string(std::uint64_t)>& where);
  std::string load(unsigned t, int line, std::uint64_t at, std::size_t n, Order order, unsigned region,
                   std::uint64_t offset, const std::function<std::string(std::uint64_t)>& where);

 private:
  struct Access {
    unsigned block = 0, thread = 0;
    int line = 0;
    std::uint32_t fences = 0;  // the block's fences before the access
    bool strong = false;
    bool read = false;  // a load, else a store
  };
  using Releases = std::unordered_map<unsigned, std::uint32_t>;  // a block's fences before its release
  struct Block {
    std::uint32_t fences = 0;
    // The releases this block acquired, by block (empty until its first): it is ordered after a
    // block's accesses before them. A vector: grid.sync() has every block acquire every other's.
    std::vector<std::uint32_t> seen;
    Releases pending;  // what its strong loads saw since its last full fence
  };
  bool ordered(const Access& earlier) const;  // happens before the current block's accesses
  void acquire(std::uint64_t at);             // the releases at `at` so far, into seen
  void take(Releases& into, std::uint64_t at) const;
  std::string say(const Access& earlier, const Access& now, std::uint64_t byte,
                  const std::function<std::string(std::uint64_t)>& where) const;

  unsigned block_ = 0, blocks_total_ = 1;
  Block* now_ = nullptr;  // blocks_[block_]
  std::unordered_map<unsigned, Block> blocks_;
  std::unordered_map<std::uint64_t, Releases> releases_;  // each address's releases, by block
  std::unordered_map<std::uint64_t, Access> stores_;      // the last store of each byte
  // The last load of each byte, a buffer at a time: an index into load_records_ plus 1 (0: none);
  // a load like the byte's last (a spin) adds no record, and past kMaxLoads loads go unchecked.
  std::unordered_map<unsigned, std::vector<std::uint32_t>> loads_;
  std::vector<Access> load_records_;
};

}  // namespace rl::own::ptx
