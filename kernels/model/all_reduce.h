// The all-reduce across GPUs, one level up from a reduction inside one (issue 52): N GPUs each
// hold `count` values; afterwards every GPU holds their element-wise sum. The CPU model of the
// two algorithms this project will run as kernels of its own over peer access, step by step:
//   ring      the steps of NCCL's ring (src/device/reduce_scatter.h, all_reduce.h; bytes in
//             nccl-tests doc/PERFORMANCE.md), one channel, the whole buffer one loop: the buffer
//             cut in N chunks; a reduce-scatter of N - 1 steps, in step s GPU g sends chunk
//             (g - 1 - s) mod N to GPU g + 1, which adds it into its copy, so that GPU g ends it
//             holding the whole sum of its own chunk g; an all-gather of N - 1 steps, in step s GPU
//             g sends chunk (g - s) mod N on, copied. 2(N - 1) steps; each GPU sends 2(N - 1)/N of
//             the buffer.
//   one-shot  each GPU reads every GPU's buffer and adds them, in the order of the GPUs: one
//             step, every GPU the same adds in the same order.
// A step records what moved (from, to, chunk, added or copied) and every GPU's buffer after it.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace rl::model::all_reduce {

constexpr int kMinGpus = 2, kMaxGpus = 8;

enum class Algorithm { Ring, OneShot };

struct Move {
  int from = 0, to = 0;
  int chunk = 0;     // the chunk moved (one-shot: the sender's whole buffer, chunk 0)
  bool add = false;  // added into the receiver's copy, or copied over it
};

struct Step {
  std::string label;                       // "reduce-scatter 1 of 3", "all-gather 2 of 3", "one-shot"
  std::vector<Move> moves;                 // what moved over which link in this step
  std::vector<std::vector<double>> after;  // every GPU's buffer after the step (each chunk's first `keep` values)
};

struct Run {
  Algorithm algorithm = Algorithm::Ring;
  int gpus = 0;
  std::vector<std::size_t> chunk_begin;  // chunk c is [chunk_begin[c], chunk_begin[c + 1]); N + 1 entries
  std::vector<Step> steps;
  std::vector<std::vector<double>> results;  // every GPU's buffer at the end
};

// Chunk c of `count` values cut in n: [c * count / n, (c + 1) * count / n), so sizes not divisible
// by n differ by at most one value a chunk (handled, not refused).
std::vector<std::size_t> chunk_bounds(std::size_t count, int n);

// Each buffer's chunks (bounds as chunk_bounds gives them), each cut to its first `keep` values.
std::vector<std::vector<double>> kept_values(const std::vector<std::vector<double>>& buffers,
                                             const std::vector<std::size_t>& bounds, std::size_t keep);

// Runs `algorithm` over inputs (one buffer a GPU, all of one size) with sums rounded as `round`
// rounds each add (float: to float; the identity for double). Throws std::invalid_argument for
// fewer than kMinGpus or more than kMaxGpus buffers, or buffers of different sizes. Each step keeps
// of every GPU's chunks their first `keep` values (a trace's share); the results are whole.
Run run(Algorithm algorithm, const std::vector<std::vector<double>>& inputs, double (*round)(double),
        std::size_t keep = std::size_t(-1));

// The order of adds that leaves element i's sum on every GPU, as GPU numbers: ring's chunk c
// starts at GPU c + 1 and goes round to GPU c, ((x_c+1 + x_c+2) + ...) + x_c, which the
// all-gather copies; one-shot's is 0, 1, ..., N - 1.
std::vector<int> order_of_adds(Algorithm algorithm, int gpus, std::size_t count, std::size_t i);

// The bus bandwidth of an all-reduce that took `seconds` over `bytes` a GPU: algbw (bytes /
// seconds) times 2(N - 1)/N, the share of the buffer each GPU sends and receives in a ring, so
// that it compares with the links' bandwidth whatever N (nccl-tests doc/PERFORMANCE.md).
double bus_bandwidth(double bytes, double seconds, int gpus);

}  // namespace rl::model::all_reduce
