#include "bench_chart.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <tuple>

#include "../core/catalog.h"
#include "palette.h"

namespace rl::render {
namespace {

// Distinct hues for many series; Okabe-Ito first (safe for common colour-vision deficiencies).
constexpr std::array<Color, 14> kColors = {rgb(0xE69F00), rgb(0x56B4E9), rgb(0x009E73), rgb(0xF0E442),
                                           rgb(0x0072B2), rgb(0xD55E00), rgb(0xCC79A7), rgb(0x8DD3C7),
                                           rgb(0xBEBADA), rgb(0xFB8072), rgb(0x80B1D3), rgb(0xFDB462),
                                           rgb(0xB3DE69), rgb(0xFCCDE5)};

// Where the timings come from, in the title's words.
std::string measured_on(const core::BenchReport& report, Origin origin) {
  if (origin == Origin::Shipped) return "measured on " + report.device + ", not this machine";
  if (origin == Origin::File) return "from a file, measured on " + report.device + (report.backend == "sim" ? " (not a GPU)" : "");
  if (report.backend == "sim") return report.device + " timings (the host's cost, not a GPU's)";
  return "on " + report.device;
}

// A matrix sweep's own total (rows x cols), the one most of its shapes share; the others are
// shapes off it (the odd ones), drawn apart from the lines.
std::size_t sweep_total(const core::BenchReport& report) {
  std::map<std::size_t, int> count;
  for (const auto& r : report.rows) ++count[r.rows * r.cols];
  return std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

}  // namespace

PlotSpec bench_chart(const core::BenchReport& report, std::string_view type, std::string_view op, Origin origin) {
  PlotSpec spec;
  spec.title = "Bandwidth, " + std::string(op) + " of " + std::string(type) + ", " + measured_on(report, origin) +
               std::string(kTitleBreak) + report.date;
  // A matrix sweep's rows hold their shape: x is then a row's length, so the chart says which
  // kernel suits which row length; y the share of the peak where the device has one.
  const bool matrix = std::any_of(report.rows.begin(), report.rows.end(), [](const core::BenchRow& r) { return r.rows > 0; });
  const bool share = matrix && report.peak_gbps > 0;
  spec.x_label = matrix ? "elements a row (log2); lone markers: odd shapes" : "n (elements, log2)";
  const std::size_t total = matrix ? sweep_total(report) : 0;
  spec.y_label = share ? "% of peak" : "GB/s";
  std::size_t color = 0;
  // Ours in the catalog's order, then kernels of your own (bench --kernel: own:NAME) as they came.
  std::vector<std::string> ids;
  for (const auto& a : core::algorithms()) ids.push_back(a.id);
  for (const auto& r : report.rows)
    if (r.algorithm.rfind("own:", 0) == 0 && std::find(ids.begin(), ids.end(), r.algorithm) == ids.end())
      ids.push_back(r.algorithm);
  for (const std::string& id : ids) {
    Series s;
    s.name = id;
    std::vector<std::tuple<double, double, bool>> at;  // x, y, off the sweep's total
    for (const auto& r : report.rows)
      if (r.algorithm == id && r.type == type && r.op == op && r.median_us > 0)
        at.emplace_back(double(matrix ? r.cols : r.n), share ? r.pct_of_peak : r.gbps,
                        matrix && r.rows * r.cols != total);
    if (at.empty()) continue;
    std::sort(at.begin(), at.end());
    for (const auto& [x, y, off] : at) s.points.push_back({x, y}), s.apart.push_back(off);
    if (id == "cub" || id == "cub-segmented") {
      s.color = {1, 1, 1, 1};  // the reference: white and thick
      s.width = 3.5f;
      s.name = id + " (reference)";
    } else if (id.rfind("cublas-", 0) == 0) {  // the other anchors: grey, thick, one dashed
      s.color = rgb(0x9AA0A6);
      s.width = 2.5f;
      s.dashed = id == "cublas-gemv-columns";
      s.name = id + " (reference)";
    } else if (id.rfind("own:", 0) == 0) {  // yours: thick, in a colour none of ours takes
      s.color = rgb(0xFF5FD2);
      s.width = 3.5f;
    } else if (id == "copy") {
      s.color = rgb(0x9AA0A6);
      s.width = 2.5f;
      s.name = "copy (reference)";
    } else {  // past the palette, colours come round again dashed, then solid and thick
      const std::size_t round = color / kColors.size();
      s.dashed = round % 2 == 1;
      if (round >= 2) s.width = 3.5f;
      s.color = kColors[color++ % kColors.size()];
    }
    spec.series.push_back(std::move(s));
  }
  if (report.peak_gbps > 0) {
    char name[64];
    std::snprintf(name, sizeof name, "theoretical peak %.0f GB/s", report.peak_gbps);
    spec.lines.push_back({name, share ? 100.0 : report.peak_gbps, rgb(0xD55E00)});
  }
  return spec;
}

}  // namespace rl::render
