// Host work split into pieces that run on the machine's cores: drawing a benchmark's input and
// the exact sums its checks compare against (2^28 elements: seconds on one core). The pieces are
// fixed by the work, not by the cores, and the caller joins their results in piece order, so a
// result is the same on every machine. Plain C++.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace rl::model {

// Calls fn(p) once for each p in [0, pieces), on up to the machine's cores; returns when all are
// done. An exception from fn is thrown here (the first one; the other pieces still finish).
template <class Fn>
void for_each_piece(std::size_t pieces, Fn&& fn) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t workers = std::min(pieces, cores);
  if (workers <= 1) {
    for (std::size_t p = 0; p < pieces; ++p) fn(p);
    return;
  }
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_lock;
  const auto work = [&] {
    for (std::size_t p; (p = next.fetch_add(1)) < pieces;) try {
        fn(p);
      } catch (...) {
        const std::lock_guard<std::mutex> hold(error_lock);
        if (!error) error = std::current_exception();
      }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  try {
    for (std::size_t w = 1; w < workers; ++w) pool.emplace_back(work);
  } catch (const std::exception&) {  // no more threads (or memory for one): the ones started share the pieces
  }
  work();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

// The pieces of `count` items taken `per` at a time (the last may be short).
constexpr std::size_t piece_count(std::size_t count, std::size_t per) { return (count + per - 1) / per; }

}  // namespace rl::model
