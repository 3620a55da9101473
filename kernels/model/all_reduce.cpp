#include "all_reduce.h"

#include <algorithm>
#include <stdexcept>

namespace rl::model::all_reduce {
namespace {

int wrap(int g, int n) { return ((g % n) + n) % n; }

}  // namespace

std::vector<std::vector<double>> kept_values(const std::vector<std::vector<double>>& buffers,
                                             const std::vector<std::size_t>& bounds, std::size_t keep) {
  std::vector<std::vector<double>> out(buffers.size());
  for (std::size_t g = 0; g < buffers.size(); ++g)
    for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
      const auto first = buffers[g].begin() + std::ptrdiff_t(bounds[c]);
      out[g].insert(out[g].end(), first, first + std::ptrdiff_t(std::min(keep, bounds[c + 1] - bounds[c])));
    }
  return out;
}

namespace {

void check(const std::vector<std::vector<double>>& inputs) {
  const int n = int(inputs.size());
  if (n < kMinGpus || n > kMaxGpus)
    throw std::invalid_argument("an all-reduce over " + std::to_string(n) + (n == 1 ? " GPU" : " GPUs") +
                                ": the model takes " + std::to_string(kMinGpus) + " to " + std::to_string(kMaxGpus));
  for (const auto& b : inputs)
    if (b.size() != inputs[0].size())
      throw std::invalid_argument("an all-reduce over buffers of different sizes (" + std::to_string(b.size()) +
                                  " and " + std::to_string(inputs[0].size()) + " values)");
}

// Every move of a step reads the buffers as they were before it (the links run at once): the
// chunks sent are copied out before any is written. The step keeps each chunk's first `keep`
// values of every GPU.
void apply(Step& step, std::vector<std::vector<double>>& buffers, const std::vector<std::size_t>& bounds,
           double (*round)(double), std::size_t keep) {
  std::vector<std::vector<double>> sent;
  for (const Move& mv : step.moves) {
    const auto& from = buffers[std::size_t(mv.from)];
    sent.emplace_back(from.begin() + std::ptrdiff_t(bounds[std::size_t(mv.chunk)]),
                      from.begin() + std::ptrdiff_t(bounds[std::size_t(mv.chunk) + 1]));
  }
  for (std::size_t m = 0; m < step.moves.size(); ++m) {
    const Move& mv = step.moves[m];
    auto& to = buffers[std::size_t(mv.to)];
    const std::size_t first = bounds[std::size_t(mv.chunk)];
    for (std::size_t i = 0; i < sent[m].size(); ++i)
      to[first + i] = mv.add ? round(sent[m][i] + to[first + i]) : sent[m][i];
  }
  step.after = kept_values(buffers, bounds, keep);
}

// The window shows these two functions beside the steps (the regions between the markers).
// <<< ring-all-reduce
Run ring(const std::vector<std::vector<double>>& inputs, double (*round)(double), std::size_t keep) {
  Run r;
  r.algorithm = Algorithm::Ring, r.gpus = int(inputs.size());
  const int n = r.gpus;
  r.chunk_begin = chunk_bounds(inputs[0].size(), n);
  std::vector<std::vector<double>> buffers = inputs;  // [input]
  for (int s = 0; s < n - 1; ++s) {                   // reduce-scatter: after it GPU g holds chunk g's whole sum
    Step step{"reduce-scatter " + std::to_string(s + 1) + " of " + std::to_string(n - 1), {}, {}};
    for (int g = 0; g < n; ++g)
      step.moves.push_back({g, wrap(g + 1, n), wrap(g - 1 - s, n), true});  // [reduce-scatter]
    apply(step, buffers, r.chunk_begin, round, keep);
    r.steps.push_back(std::move(step));
  }
  for (int s = 0; s < n - 1; ++s) {  // all-gather: the whole sums passed on round the ring
    Step step{"all-gather " + std::to_string(s + 1) + " of " + std::to_string(n - 1), {}, {}};
    for (int g = 0; g < n; ++g) step.moves.push_back({g, wrap(g + 1, n), wrap(g - s, n), false});  // [all-gather]
    apply(step, buffers, r.chunk_begin, round, keep);
    r.steps.push_back(std::move(step));
  }
  r.results = buffers;
  return r;
}
// >>>

// <<< one-shot-all-reduce
Run one_shot(const std::vector<std::vector<double>>& inputs, double (*round)(double), std::size_t keep) {
  Run r;
  r.algorithm = Algorithm::OneShot, r.gpus = int(inputs.size());
  r.chunk_begin = {0, inputs[0].size()};
  Step step{"one-shot", {}, {}};
  for (int to = 0; to < r.gpus; ++to)
    for (int from = 0; from < r.gpus; ++from)
      if (from != to) step.moves.push_back({from, to, 0, true});
  std::vector<double> sum = inputs[0];             // [input]
  for (std::size_t g = 1; g < inputs.size(); ++g)  // every GPU the same adds, in the GPUs' order
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] = round(sum[i] + inputs[g][i]);  // [peer-add]
  r.results.assign(inputs.size(), sum);
  step.after = kept_values(r.results, r.chunk_begin, keep);
  r.steps.push_back(std::move(step));
  return r;
}
// >>>

}  // namespace

std::vector<std::size_t> chunk_bounds(std::size_t count, int n) {
  std::vector<std::size_t> b;
  for (int c = 0; c <= n; ++c) b.push_back(std::size_t(c) * count / std::size_t(n));
  return b;
}

Run run(Algorithm algorithm, const std::vector<std::vector<double>>& inputs, double (*round)(double),
        std::size_t keep) {
  check(inputs);
  return algorithm == Algorithm::Ring ? ring(inputs, round, keep) : one_shot(inputs, round, keep);
}

std::vector<int> order_of_adds(Algorithm algorithm, int gpus, std::size_t count, std::size_t i) {
  std::vector<int> order;
  if (algorithm == Algorithm::OneShot) {
    for (int g = 0; g < gpus; ++g) order.push_back(g);
    return order;
  }
  const std::vector<std::size_t> b = chunk_bounds(count, gpus);
  int c = 0;
  while (!(i >= b[std::size_t(c)] && i < b[std::size_t(c) + 1])) ++c;
  for (int k = 1; k <= gpus; ++k) order.push_back(wrap(c + k, gpus));
  return order;
}

double bus_bandwidth(double bytes, double seconds, int gpus) {
  return bytes / seconds * 2.0 * double(gpus - 1) / double(gpus);
}

}  // namespace rl::model::all_reduce
