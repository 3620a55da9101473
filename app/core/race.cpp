#include "race.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "../../kernels/algorithms.h"
#include "embedded.h"
#include "file_io.h"
#include "text.h"
#include "trace.h"

namespace rl::core {
namespace {

constexpr int kSlots = 3;  // read, read, written: kernels::RaceProbe's layout

bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

// The access of stage s that writes cell c, or null.
const Access* writer_of(const Stage& s, int c) {
  for (const auto& a : s.accesses)
    if (std::find(a.writes.begin(), a.writes.end(), c) != a.writes.end()) return &a;
  return nullptr;
}

struct Replay {
  Trace& t;
  const std::vector<double>& log;
  Race& race;
  int threads;

  double logged(int k, int thread, int slot) const {
    return log[(std::size_t(k) * threads + std::size_t(thread)) * kSlots + std::size_t(slot)];
  }

  // A read that saw a value written in its own stage or a later one (the writer ran ahead):
  // late, with that write's thread and stage.
  void mark_if_late(StaleRead& x) const {
    for (std::size_t j = std::size_t(x.stage); j < t.stages.size(); ++j) {
      const Access* w = writer_of(t.stages[j], x.cell);
      if (w && w->thread != x.thread && same(x.seen, logged(int(j), w->thread, 2))) {
        x.early = false, x.writer = w->thread, x.writer_stage = int(j);
        return;
      }
    }
  }

  // Checks each read of stage k against `before`, then applies the stage's writes to `state`.
  void stage(int k, const std::vector<double>& before, std::vector<double>& state, std::vector<int>& writer,
             std::vector<int>& written_at) {
    const Stage& s = t.stages[std::size_t(k)];
    for (const auto& a : s.accesses) {
      for (std::size_t r = 0; r < a.reads.size() && r < 2; ++r) {
        const int c = a.reads[r];
        const double seen = logged(k, a.thread, int(r));
        if (same(seen, before[std::size_t(c)])) continue;
        StaleRead x{k, a.thread, c, seen, before[std::size_t(c)], writer[std::size_t(c)], written_at[std::size_t(c)], true};
        mark_if_late(x);
        race.stale.push_back(x);
      }
    }
    for (const auto& a : s.accesses)
      for (int c : a.writes) {
        state[std::size_t(c)] = logged(k, a.thread, 2);
        writer[std::size_t(c)] = a.thread, written_at[std::size_t(c)] = k;
      }
  }

  // Back from cell 0 after the last stage to the stale read its wrong value came from.
  void follow() {
    int k = int(t.stages.size()) - 1, c = 0;
    const auto& last = race.wrong.back();
    if (std::find(last.begin(), last.end(), 0) == last.end()) return;
    while (k >= 0) {
      const Access* w = writer_of(t.stages[std::size_t(k)], c);
      if (!w) {
        --k;
        continue;
      }
      race.path.insert(race.path.begin(), {k, c});
      const auto stale = std::find_if(race.stale.begin(), race.stale.end(),
                                      [&](const StaleRead& x) { return x.stage == k && x.thread == w->thread; });
      if (stale != race.stale.end()) {
        race.path.insert(race.path.begin(), {k, stale->cell});
        return;
      }
      if (k == 0) return;
      const auto& run = *t.stages[std::size_t(k - 1)].shared;
      const auto& meant = race.meant[std::size_t(k - 1)];
      const auto bad = std::find_if(w->reads.begin(), w->reads.end(),
                                    [&](int r) { return !same(run[std::size_t(r)], meant[std::size_t(r)]); });
      if (bad == w->reads.end()) return;
      c = *bad, --k;
    }
  }

  void run() {
    const std::size_t stages = t.stages.size();
    if (stages == 0 || !t.stages[0].shared) throw std::invalid_argument("race replay: the trace has no shared memory to replay");
    if (log.size() != stages * std::size_t(threads) * kSlots)
      throw std::invalid_argument("race replay: the log holds " + std::to_string(log.size()) + " values, the trace needs " +
                                  std::to_string(stages * std::size_t(threads) * kSlots));
    std::vector<double> state = *t.stages[0].shared;
    std::vector<int> writer(state.size(), -1), written_at(state.size(), -1);
    race.meant.clear(), race.wrong.clear(), race.stale.clear(), race.path.clear();
    for (std::size_t k = 0; k < stages; ++k) {
      Stage& s = t.stages[k];
      if (!s.shared || s.shared->size() != state.size()) throw std::invalid_argument("race replay: a stage without shared memory");
      for (const auto& a : s.accesses)
        if (a.thread < 0 || a.thread >= threads || a.reads.size() > 2 || a.writes.size() > 1 ||
            std::any_of(a.reads.begin(), a.reads.end(), [&](int c) { return c < 0 || std::size_t(c) >= state.size(); }) ||
            std::any_of(a.writes.begin(), a.writes.end(), [&](int c) { return c < 0 || std::size_t(c) >= state.size(); }))
          throw std::invalid_argument("race replay: stage " + std::to_string(k) + " has an access the log cannot hold");
      const std::vector<double> before = state;
      stage(int(k), before, state, writer, written_at);
      race.meant.push_back(*s.shared);
      std::vector<int> wrong;
      for (std::size_t c = 0; c < state.size(); ++c)
        if (!same(state[c], (*s.shared)[c])) wrong.push_back(int(c));
      race.wrong.push_back(std::move(wrong));
      s.shared = state;
    }
    follow();
  }
};

}  // namespace

int wrong_runs(const Race& race) {
  return int(std::count_if(race.results.begin(), race.results.end(), [&](double r) { return !same(r, race.expected); }));
}

std::vector<std::pair<double, int>> result_spread(const Race& race) {
  std::vector<std::pair<double, int>> out;
  for (double r : race.results) {
    const auto it = std::find_if(out.begin(), out.end(), [&](const auto& p) { return same(p.first, r); });
    if (it == out.end())
      out.emplace_back(r, 1);
    else
      ++it->second;
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::vector<StaleRead> stale_in(const Race& race, int stage) {
  std::vector<StaleRead> out;
  std::copy_if(race.stale.begin(), race.stale.end(), std::back_inserter(out), [&](const StaleRead& x) { return x.stage == stage; });
  return out;
}

void replay(Trace& trace, const std::vector<double>& log, Race& race) { Replay{trace, log, race, trace.block}.run(); }

std::string describe(const StaleRead& x, const Race* race, int warp_size) {
  const auto num = [](double v) {  // the shortest text that reads back as v
    char buf[40];
    for (int digits = 6; digits <= 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*g", digits, v);
      if (same(std::strtod(buf, nullptr), v)) break;
    }
    return std::string(buf);
  };
  const auto thread = [&](int t) {
    const int w = t / warp_size;
    return "thread " + std::to_string(t) + (w == x.thread / warp_size ? " (its own warp " : " (warp ") + std::to_string(w) + ")";
  };
  std::string who;
  if (x.early)
    who = x.writer < 0 ? " before it was written" : " before " + thread(x.writer) + " wrote it";
  else
    who = " after " + thread(x.writer) + " had already overwritten it";
  std::string text = "thread " + std::to_string(x.thread) + " read cell " + std::to_string(x.cell) + who + ": saw " +
                     num(x.seen) + ", meant " + num(x.meant);
  const auto k = std::size_t(x.stage);  // the model's cell before this stage: what a clean run has there
  if (race && k >= 1 && k <= race->meant.size() && std::size_t(x.cell) < race->meant[k - 1].size() &&
      !same(race->meant[k - 1][std::size_t(x.cell)], x.meant))
    text += " (itself wrong after an earlier stale read: a run without stale reads has " +
            num(race->meant[k - 1][std::size_t(x.cell)]) + " there)";
  return text;
}

std::vector<Ahead> warps_ahead(const Race& race, int stage, int warp_size) {
  std::vector<Ahead> out;
  for (const auto& x : race.stale) {
    if (x.stage != stage || x.writer < 0 || x.writer == x.thread) continue;
    const int first = x.early ? x.thread : x.writer, second = x.early ? x.writer : x.thread;
    const bool lanes = first / warp_size == second / warp_size;
    const Ahead key{lanes ? first : first / warp_size, lanes ? second : second / warp_size, lanes, 0};
    auto it = std::find_if(out.begin(), out.end(), [&](const Ahead& a) {
      return a.ahead == key.ahead && a.behind == key.behind && a.lanes == key.lanes;
    });
    if (it == out.end()) it = out.insert(out.end(), key);
    ++it->reads;
  }
  return out;
}

std::string stale_caption(const Race& race, int stage, int index) {
  const auto here = stale_in(race, stage);
  if (here.empty()) {
    const std::size_t wrong = stage >= 0 && std::size_t(stage) < race.wrong.size() ? race.wrong[std::size_t(stage)].size() : 0;
    if (wrong == 0) return "no stale read in this stage";
    return "no stale read in this stage; " + count_text(wrong, "cell holds", "cells hold") + " a value the code did not mean";
  }
  const std::size_t i = std::size_t(std::clamp(index, 0, int(here.size()) - 1));
  const std::string which =
      here.size() == 1 ? "1 stale read" : std::to_string(i + 1) + " of " + std::to_string(here.size()) + " stale reads";
  return which + " in this stage: " + describe(here[i], &race);
}

std::string race_headline(const Race& race) {
  int blocks = 0;
  for (int w : race.wrong_blocks) blocks += w;
  return std::to_string(wrong_runs(race)) + " of " + count_text(std::size_t(race.runs), "run", "runs") +
         " gave a wrong result; " + count_text(std::size_t(blocks), "wrong block", "wrong blocks") +
         " in all (" + count_text(race.blocks, "block", "blocks") + " a run)";
}

std::string replayed_text(const Race& race) {
  const std::string stale = " (" + count_text(race.stale.size(), "stale read", "stale reads") + ")";
  if (race.first_wrong >= 0)
    return "the first run with a wrong block: run " + std::to_string(race.first_wrong + 1) + "; the views replay its block " +
           std::to_string(race.block) + stale;
  std::string text = "no block went wrong in any run's first pass; the views replay block " + std::to_string(race.block) +
                     " of the last run" + stale;
  if (wrong_runs(race) > 0) text += "; the wrong results came from a later pass, over the blocks' results";
  return text;
}

std::string spread_text(const Race& race, DType type, std::size_t shown) {
  const auto spread = result_spread(race);
  const bool missed = std::none_of(spread.begin(), spread.end(), [&](const auto& r) { return same(r.first, race.expected); });
  std::string text = missed ? "meant " + format_value(race.expected, type) + ", which no run gave; " : "";
  const std::size_t head = text.size();
  for (std::size_t i = 0; i < spread.size() && i < shown; ++i) {
    const auto& [value, runs] = spread[i];
    text += (text.size() > head ? "; " : "") + format_value(value, type) + (same(value, race.expected) ? " (meant)" : "") + ": " +
            count_text(std::size_t(runs), "run", "runs");
  }
  if (spread.size() > shown) text += "; and " + count_text(spread.size() - shown, "more result", "more results");
  return text;
}

int replayed_run(const Race& race) { return race.first_wrong >= 0 ? race.first_wrong : race.runs - 1; }

bool ordered_by_luck(const Race& race) { return wrong_runs(race) == 0 && race.first_wrong < 0 && race.stale.empty(); }

bool has_race_recording(const std::string& algorithm) {
  const auto* row = kernels::find_row(algorithm);
  return row && !kernels::is_baseline(*row) && kernels::race_recordable(row->algo);
}

namespace {

// What trace_from_json does not check and the views rely on: every cell a race names lies in
// its stage's shared memory, and the replayed block is the traced one.
void check_recording(const Trace& t) {
  const Race& r = *t.race;
  if (!has_race_recording(t.algorithm))
    throw std::runtime_error("trace field 'algorithm' is '" + t.algorithm +
                             "', which has no race recording (missing-syncthreads, legacy-warp-synchronous and their "
                             "fixes sequential and unroll-last-warp have one)");
  if (r.block != t.trace_block)
    throw std::runtime_error("trace field 'race' replays block " + std::to_string(r.block) + ", but 'trace_block' is " +
                             std::to_string(t.trace_block));
  for (std::size_t k = 0; k < t.stages.size(); ++k) {
    const auto& shared = t.stages[k].shared;
    if (!shared || shared->size() != r.meant[k].size())
      throw std::runtime_error("trace field 'stages' holds stage " + std::to_string(k) +
                               " without shared memory the size of the race's 'meant'");
    for (int c : r.wrong[k])
      if (c < 0 || std::size_t(c) >= shared->size())
        throw std::runtime_error("trace field 'wrong' names cell " + std::to_string(c) + " outside stage " + std::to_string(k));
  }
  for (const auto& p : r.path)
    if (p.stage < 0 || std::size_t(p.stage) >= t.stages.size() || p.cell < 0 ||
        std::size_t(p.cell) >= t.stages[std::size_t(p.stage)].shared->size())
      throw std::runtime_error("trace field 'path' holds a step outside the block");
}

}  // namespace

Trace read_race_file(const std::string& path) {
  std::string text, why;
  if (!read_file(path, files::kRecording, &text, &why)) throw std::runtime_error(why);
  try {
    Trace t = trace_from_json(text);
    if (!t.race)
      throw std::runtime_error("trace has no field 'race': a plain trace, not a recording (`trace --runs N --format json` makes one)");
    check_recording(t);
    return t;
  } catch (const std::exception& e) {
    throw std::runtime_error(printable(path) + ": " + e.what());
  }
}

std::optional<RacecheckFinding> racecheck_finding(const std::string& algorithm) {
  const auto text = embedded::shipped_race("racecheck");
  if (text.empty()) return std::nullopt;
  const auto j = nlohmann::json::parse(text);
  for (const auto& f : j.at("findings"))
    if (f.at("algorithm") == algorithm)
      return RacecheckFinding{algorithm, j.at("device").get<std::string>(), j.at("date").get<std::string>(),
                              f.at("command").get<std::string>(), f.at("summary").get<std::string>()};
  return std::nullopt;
}

std::optional<Trace> shipped_race(const std::string& algorithm) {
  if (algorithm == "racecheck") return std::nullopt;
  const auto text = embedded::shipped_race(algorithm);
  if (text.empty()) return std::nullopt;
  return trace_from_json(std::string(text));
}

}  // namespace rl::core
