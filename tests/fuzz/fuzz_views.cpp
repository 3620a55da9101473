// libFuzzer: what a reader accepts is drawn. Any trace or race recording trace_from_json takes
// is drawn in every view that applies, at every stage (the first 64), at two text scales; any
// results file bench_from_json takes is drawn as its chart. Under AddressSanitizer and UBSan,
// so a field the readers let through that a view cannot draw fails here (issue 48: a stage
// with "shared": [] crashed cell_texts, pass_outputs 2^63 divided by zero in the grid view).
// The mutator knows JSON: it changes one value of a real file (the corpus holds golden traces,
// a race recording and a results file) to a value at an edge, so the runs stay past the reader.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/core/bench.h"
#include "app/core/trace.h"
#include "app/core/views.h"
#include "app/platform/headless.h"
#include "app/render/bench_chart.h"
#include "app/render/canvas.h"
#include "app/render/offscreen.h"
#include "app/render/plot.h"
#include "app/render/warp_views.h"

namespace {

constexpr int kWidth = 320, kHeight = 200, kMostStages = 64;

struct Gl {
  std::unique_ptr<rl::platform::HeadlessContext> context;
  std::unique_ptr<rl::render::Offscreen> target;
  std::unique_ptr<rl::render::Canvas> canvas;
};

// One context for the whole run; nullptr where there is no EGL (said once).
Gl* gl() {
  static Gl* made = [] {
    std::string why;
    auto ctx = rl::platform::HeadlessContext::create(&why);
    if (!ctx) {
      std::fprintf(stderr, "fuzz_views: no headless OpenGL here (%s): nothing is drawn\n", why.c_str());
      return static_cast<Gl*>(nullptr);
    }
    auto* g = new Gl{std::move(ctx), std::make_unique<rl::render::Offscreen>(), nullptr};
    g->canvas = std::make_unique<rl::render::Canvas>();
    g->target->resize(kWidth, kHeight);
    return g;
  }();
  return made;
}

void draw_trace(Gl& g, const rl::core::Trace& t) {
  g.target->bind();
  for (const auto& row : rl::core::kViewRows) {
    if (!rl::core::why_not(row.view, t).empty()) continue;
    const int stages = std::min(int(t.stages.size()), kMostStages);
    for (int s = 0; s < stages; ++s)
      for (const float scale : {1.0f, 1.6f}) {
        rl::render::ViewOptions options;
        options.text_scale = scale, options.high_contrast = scale > 1;
        options.first_bank_row = s * 7, options.warp = s % 32, options.stale = s, options.part = s % 4;
        (void)rl::render::draw_stage_view(*g.canvas, row.view, t, s, kWidth, kHeight, options);
      }
  }
  rl::render::Offscreen::unbind();
}

void draw_results(Gl& g, const rl::core::BenchReport& r) {
  if (r.rows.empty()) return;
  g.target->bind();
  const auto& first = r.rows.front();
  for (const auto origin : {rl::render::Origin::File, rl::render::Origin::Shipped})
    rl::render::draw_plot(*g.canvas, rl::render::bench_chart(r, first.type, first.op, origin), kWidth, kHeight);
  rl::render::Offscreen::unbind();
}

// A value at an edge for the node's kind: what a careless or hostile writer puts in a file.
nlohmann::json edge_value(const nlohmann::json& was, std::mt19937_64& rng) {
  const std::vector<nlohmann::json> numbers{0, -1, 1, 2, 31, 32, 33, 1023, 1024, 65536, std::int64_t(1) << 31,
                                            std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::uint64_t>::max(),
                                            std::numeric_limits<std::int64_t>::min(), 1e308, -1e308, 0.5, 3e9, 1e-310};
  switch (rng() % 5) {
    case 0: return numbers[rng() % numbers.size()];
    case 1: return nlohmann::json::array();
    case 2: return was.is_array() && !was.empty() ? nlohmann::json::array({was.front()}) : nlohmann::json("");
    case 3: return std::string(rng() % 2 ? 1 : 3000, "ax\x1b"[rng() % 3]);
    default: return was.is_number() ? nlohmann::json(was.get<double>() * -1 + 1) : nlohmann::json(nullptr);
  }
}

// Every value in the document, depth first: the mutator picks one.
void collect(nlohmann::json& j, std::vector<nlohmann::json*>& out) {
  out.push_back(&j);
  if (j.is_object())
    for (auto& [k, v] : j.items()) collect(v, out);
  else if (j.is_array())
    for (auto& v : j) collect(v, out);
}

}  // namespace

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,
                                               unsigned int seed) {
  std::mt19937_64 rng(seed);
  nlohmann::json j = nlohmann::json::parse(std::string(reinterpret_cast<char*>(data), size), nullptr, false);
  if (j.is_discarded() || rng() % 8 == 0) return LLVMFuzzerMutate(data, size, max_size);  // bytes, now and then
  std::vector<nlohmann::json*> nodes;
  collect(j, nodes);
  for (int k = 0, edits = 1 + int(rng() % 3); k < edits; ++k) {
    nlohmann::json* n = nodes[rng() % nodes.size()];
    *n = edge_value(*n, rng);
    nodes.clear();
    collect(j, nodes);
  }
  const std::string out = j.dump();
  if (out.size() > max_size) return LLVMFuzzerMutate(data, size, max_size);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Gl* g = gl();
  if (!g) return 0;
  // Only the readers may refuse: a view that throws on what they took ends the run as a finding.
  rl::core::Trace t;
  try {
    t = rl::core::trace_from_json(text);
  } catch (const std::runtime_error&) {
    rl::core::BenchReport r;
    try {
      r = rl::core::bench_from_json(text);
    } catch (const std::runtime_error&) {
      return 0;
    }
    draw_results(*g, r);
    return 0;
  }
  draw_trace(*g, t);
  return 0;
}
