#include "bench.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "../../kernels/algorithms.h"
#include "catalog.h"
#include "embedded.h"
#include "json_fields.h"
#include "text.h"
#include "types.h"

namespace rl::core {
namespace {

using json = nlohmann::ordered_json;

std::optional<std::size_t> one_size(std::string_view t) { return parse_size(t, 40); }

template <class T>
T get(const json& j, const char* name) {
  if (!j.is_object() || !j.contains(name)) throw std::runtime_error(std::string("results are missing field '") + name + "'");
  return json_fields::as<T>(j.at(name), std::string("results field '") + name + "'");
}

}  // namespace

std::optional<std::size_t> parse_size(std::string_view text, int max_log2) {
  const bool pow = text.starts_with("2^");
  if (pow) text.remove_prefix(2);
  std::size_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) return std::nullopt;
  if (pow) return v <= std::size_t(max_log2) ? std::optional<std::size_t>(std::size_t(1) << v) : std::nullopt;
  return v;
}

std::optional<std::vector<std::size_t>> parse_sizes(std::string_view text, std::string* error) {
  std::vector<std::size_t> out;
  const auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return std::nullopt;
  };
  if (const auto dots = text.find(".."); dots != std::string_view::npos) {
    const auto lo = text.substr(0, dots), hi = text.substr(dots + 2);
    if (!lo.starts_with("2^") || !hi.starts_with("2^")) return fail("a range is 2^A..2^B, got '" + std::string(text) + "'");
    const auto a = one_size(lo), b = one_size(hi);
    if (!a || !b || *a > *b) return fail("a range is 2^A..2^B with A <= B <= 40, got '" + std::string(text) + "'");
    for (std::size_t v = *a; v <= *b; v *= 2) out.push_back(v);
    return out;
  }
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const auto v = one_size(text.substr(start, comma - start));
    if (!v || *v == 0)
      return fail("'" + std::string(text.substr(start, comma - start)) + "' is not a size (N or 2^K, 1 to 2^40)");
    out.push_back(*v);
    start = comma + 1;
  }
  return out;
}

std::optional<std::vector<MatrixShape>> parse_shapes(std::string_view text, std::string* error) {
  std::vector<MatrixShape> out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view item = text.substr(start, comma - start);
    const std::size_t x = item.find('x');
    const auto rows = x == std::string_view::npos ? std::nullopt : one_size(item.substr(0, x));
    const auto cols = x == std::string_view::npos ? std::nullopt : one_size(item.substr(x + 1));
    if (!rows || !cols || *rows == 0 || *cols == 0) {
      if (error) *error = "'" + std::string(item) + "' is not a shape: ROWSxCOLS, each N or 2^K, at least 1";
      return std::nullopt;
    }
    if (*cols > (std::size_t(1) << 40) / *rows) {
      if (error) *error = "'" + std::string(item) + "' has more than 2^40 elements";
      return std::nullopt;
    }
    out.push_back({*rows, *cols});
    start = comma + 1;
  }
  return out;
}

std::vector<MatrixShape> default_shapes(int log2_total) {
  std::vector<MatrixShape> out;
  for (int r = 4; r <= log2_total - 4; r += 2) out.push_back({std::size_t(1) << r, std::size_t(1) << (log2_total - r)});
  return out;
}

std::vector<MatrixShape> sweep_shapes(int log2_total) {
  std::vector<MatrixShape> out = default_shapes(log2_total);
  const std::size_t total = std::size_t(1) << log2_total;
  std::size_t tens = 1;
  while (tens * 10 * 100 <= total) tens *= 10;
  out.push_back({total >> 4, 15});
  out.push_back({tens, 100});
  out.push_back({3, (total >> 8) + 1});
  return out;
}

std::string to_csv(const BenchReport& r) {
  std::ostringstream out;
  out << "algorithm,type,op,n,rows,cols,block,grid,cluster,median_us,noise_pct,samples,discarded,gbps,pct_of_peak,"
         "device,check_ok,check,write_back_us\n";
  char line[512];
  for (const auto& x : r.rows) {
    std::snprintf(line, sizeof line, "%s,%s,%s,%zu,%zu,%zu,%d,%zu,%d,%.3f,%.3f,%d,%d,%.2f,%.2f,\"%s\",%s,\"%s\",%.3f\n",
                  x.algorithm.c_str(), x.type.c_str(), x.op.c_str(), x.n, x.rows, x.cols, x.block, x.grid, x.cluster,
                  x.median_us, x.noise_pct, x.samples, x.discarded, x.gbps, x.pct_of_peak, r.device.c_str(),
                  x.check_ok ? "yes" : "no", x.check.c_str(), x.write_back_us);
    out << line;
  }
  return out.str();
}

std::string to_json(const BenchReport& r) {
  json j;
  j["device"] = r.device;
  j["driver"] = r.driver;
  j["date"] = r.date;
  j["backend"] = r.backend;
  j["peak_gbps"] = r.peak_gbps;
  json rows = json::array();
  for (const auto& x : r.rows) {
    json row = {{"algorithm", x.algorithm}, {"type", x.type}, {"op", x.op}, {"n", x.n}, {"block", x.block},
                {"median_us", x.median_us}, {"noise_pct", x.noise_pct}, {"samples", x.samples},
                {"discarded", x.discarded}, {"gbps", x.gbps}, {"pct_of_peak", x.pct_of_peak},
                {"device", r.device}, {"check_ok", x.check_ok}, {"check", x.check}};
    if (x.rows) row["rows"] = x.rows, row["cols"] = x.cols;
    if (x.grid) row["grid"] = x.grid;
    if (x.cluster) row["cluster"] = x.cluster;
    if (x.write_back_us) row["write_back_us"] = x.write_back_us;
    rows.push_back(row);
  }
  j["rows"] = rows;
  return j.dump(2);
}

// A row's figures as a run can give them: n from 1 to 2^40 elements, times and rates finite and
// not negative (NaN: a row that did not run), so no chart plots -1e300 GB/s or a negative median.
static void check_figures(const BenchRow& row) {
  if (row.n < 1 || row.n > (std::size_t(1) << 40))
    throw std::runtime_error("results row '" + printable(row.algorithm) + "': 'n' is " + std::to_string(row.n) +
                             "; 1 to 2^40 elements");
  const struct {
    const char* name;
    double value;
  } figures[] = {{"median_us", row.median_us},
                 {"noise_pct", row.noise_pct},
                 {"gbps", row.gbps},
                 {"pct_of_peak", row.pct_of_peak},
                 {"write_back_us", row.write_back_us}};
  for (const auto& f : figures)
    if (!(std::isnan(f.value) || (std::isfinite(f.value) && f.value >= 0 && f.value < 1e12)))
      throw std::runtime_error("results row '" + printable(row.algorithm) + "': '" + f.name + "' is " +
                               std::to_string(f.value) + "; a measured figure is finite and not negative");
  if (row.samples < 0 || row.discarded < 0 || row.block < 0)
    throw std::runtime_error("results row '" + printable(row.algorithm) + "': a negative count of samples or threads");
}

BenchReport bench_from_json(const std::string& text) {
  json j;
  try {
    j = json_fields::parse(text);
  } catch (const std::exception& e) {  // parse errors, numbers out of range, nesting too deep
    throw std::runtime_error(std::string("results are not valid JSON: ") + e.what());
  }
  BenchReport r;
  r.device = get<std::string>(j, "device");
  r.driver = get<std::string>(j, "driver");
  r.date = get<std::string>(j, "date");
  r.backend = get<std::string>(j, "backend");
  r.peak_gbps = get<double>(j, "peak_gbps");
  // 0: the CPU model, which has no peak. 1e-310 GB/s drew its line so low that the chart's
  // ticks never ended (fuzz_views' long run, issue 48).
  if (!(r.peak_gbps == 0 || (r.peak_gbps >= 1 && r.peak_gbps < 1e6)))
    throw std::runtime_error("results field 'peak_gbps' is " + format_value(r.peak_gbps, DType::Double) +
                             "; a peak is 0 (none known) or from 1 to below 1e6 GB/s");
  const json& rows = j.contains("rows") ? j.at("rows") : throw std::runtime_error("results are missing field 'rows'");
  if (!rows.is_array()) throw std::runtime_error("results field 'rows' is not a list");
  for (const auto& x : rows) {
    BenchRow row;
    row.algorithm = get<std::string>(x, "algorithm");
    row.type = get<std::string>(x, "type");
    row.op = get<std::string>(x, "op");
    row.n = get<std::size_t>(x, "n");
    if (x.contains("block")) row.block = get<int>(x, "block");  // absent in results from before it was recorded
    if (x.contains("rows")) {
      row.rows = get<std::size_t>(x, "rows");
      row.cols = get<std::size_t>(x, "cols");
      if (row.rows == 0 || row.cols == 0 || row.cols > row.n / row.rows || row.rows * row.cols != row.n)
        throw std::runtime_error("results row: 'rows' x 'cols' is not 'n'");
    }
    if (x.contains("grid")) {  // matrix kernels, and array kernels that take --grid
      row.grid = get<std::size_t>(x, "grid");
      if (row.grid == 0 || row.grid > 2147483647) throw std::runtime_error("results row: 'grid' is not 1..2^31-1");
    }
    if (x.contains("cluster")) {                                     // cluster-dsmem, since it was recorded
      row.cluster = get<int>(x, "cluster");
      if (row.cluster != 2 && row.cluster != 4 && row.cluster != 8)
        throw std::runtime_error("results row: 'cluster' is " + std::to_string(row.cluster) + ", not 2, 4 or 8 blocks");
    }
    row.median_us = get<double>(x, "median_us");
    row.noise_pct = get<double>(x, "noise_pct");
    if (x.contains("write_back_us")) row.write_back_us = get<double>(x, "write_back_us");  // matrices, since recorded
    row.samples = get<int>(x, "samples");
    row.discarded = get<int>(x, "discarded");
    row.gbps = get<double>(x, "gbps");
    row.pct_of_peak = get<double>(x, "pct_of_peak");
    row.check_ok = get<bool>(x, "check_ok");
    row.check = get<std::string>(x, "check");
    check_figures(row);
    for (auto* s : {&row.algorithm, &row.type, &row.op, &row.check}) *s = printable(*s);
    r.rows.push_back(std::move(row));
  }
  // Escaped and capped (core/text.h): a 20,000-character device or date overran ImGui's 16-bit
  // indices when drawn, and reached the terminal raw.
  for (auto* s : {&r.device, &r.driver, &r.date, &r.backend}) *s = printable(*s);
  return r;
}

namespace {

// A report's type and operator, "float sum", from its first row.
std::string holds(const BenchReport& r) {
  if (r.rows.empty()) return "no rows";
  return r.rows.front().type + " " + r.rows.front().op + (is_matrix_report(r) ? " over matrix shapes" : "");
}

}  // namespace

const std::vector<ShippedReport>& shipped_reports() {
  static const std::vector<ShippedReport> all = [] {
    std::vector<ShippedReport> out;
    for (const auto name : embedded::shipped_report_names()) {
      const std::string file = "assets/runs/" + std::string(name) + ".json";
      try {
        out.push_back({std::string(name.substr(0, name.find('/'))), bench_from_json(std::string(embedded::shipped_report(name)))});
      } catch (const std::runtime_error& e) {
        throw std::runtime_error("shipped " + file + ": " + e.what());
      }
    }
    return out;
  }();
  return all;
}

std::vector<std::string> shipped_runs() {
  std::vector<std::string> runs;
  for (const auto& s : shipped_reports())
    if (std::find(runs.begin(), runs.end(), s.run) == runs.end()) runs.push_back(s.run);
  return runs;
}

bool is_matrix_report(const BenchReport& r) {
  return std::any_of(r.rows.begin(), r.rows.end(), [](const BenchRow& x) { return x.rows > 0; });
}

const BenchReport* shipped_report(std::string_view run, std::string_view type, std::string_view op, bool matrix) {
  for (const auto& s : shipped_reports()) {
    if (s.run != run || is_matrix_report(s.report) != matrix) continue;
    for (const auto& row : s.report.rows)
      if (row.type == type && row.op == op) return &s.report;
  }
  return nullptr;
}

std::string shipped_contents(std::string_view run) {
  std::string out;
  for (const auto& s : shipped_reports())
    if (s.run == run) out += (out.empty() ? "" : " and ") + holds(s.report);
  return out;
}

std::string report_contents(const BenchReport& r) {
  std::vector<std::string> kinds;
  for (const auto& row : r.rows)
    if (const std::string k = row.type + " " + row.op; std::find(kinds.begin(), kinds.end(), k) == kinds.end())
      kinds.push_back(k);
  if (kinds.empty()) return "no rows";
  std::string out;
  for (const auto& k : kinds) out += (out.empty() ? "" : k == kinds.back() ? " and " : ", ") + k;
  return out + (is_matrix_report(r) ? " over matrix shapes" : "");
}

bool report_has(const BenchReport& r, std::string_view type, std::string_view op) {
  return std::any_of(r.rows.begin(), r.rows.end(),
                     [&](const BenchRow& row) { return row.type == type && row.op == op; });
}

std::string shipped_label(const BenchReport& r) {
  return "measured on " + r.device + ", not this machine (driver " + r.driver + ", " + r.date + ")";
}

const std::vector<std::string_view>& harris_kernels() {
  static const std::vector<std::string_view> ids = [] {
    std::vector<const kernels::AlgorithmRow*> rows;
    for (const auto& r : kernels::kAlgorithms)
      if (r.harris_step > 0) rows.push_back(&r);
    std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->harris_step < b->harris_step; });
    std::vector<std::string_view> out;
    for (const auto* r : rows) out.push_back(r->id);
    return out;
  }();
  return ids;
}

std::vector<HarrisRow> harris_table(const BenchReport& r, std::size_t n, std::string_view type, std::string_view op) {
  const auto find = [&](std::string_view id) -> const BenchRow* {
    for (const auto& x : r.rows)
      if (x.algorithm == id && x.n == n && x.type == type && x.op == op && x.median_us > 0) return &x;
    return nullptr;
  };
  const auto& harris = harris_kernels();
  std::vector<std::string_view> order(harris.begin(), harris.end());
  for (const auto& a : algorithms())
    if (std::find(harris.begin(), harris.end(), a.id) == harris.end()) order.push_back(a.id);
  for (const auto& x : r.rows)  // kernels of your own (bench --kernel), after ours
    if (x.algorithm.rfind("own:", 0) == 0 && std::find(order.begin(), order.end(), x.algorithm) == order.end())
      order.push_back(x.algorithm);
  std::vector<HarrisRow> out;
  const BenchRow* prev_harris = nullptr;
  std::size_t prev_i = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    const BenchRow* x = find(order[i]);
    if (!x) continue;
    const bool in_harris = i < harris.size();  // order starts with Harris' kernels
    HarrisRow h{x->algorithm, x->median_us, x->gbps, x->pct_of_peak, 1, 1, in_harris, x->block};
    // Speedups are against Harris' kernel 1 (or the first row when it was not measured); the
    // step speedup only along his progression, where each kernel builds on the one before.
    if (!out.empty()) h.cumulative_speedup = out.front().median_us / x->median_us;
    if (!in_harris) h.step_speedup = std::numeric_limits<double>::quiet_NaN();
    else if (prev_harris) h.step_speedup = prev_harris->median_us / x->median_us;
    // Harris' figure for kernel i + 1 over kernel i, beside a measured step over the same kernel.
    if (in_harris && prev_harris && prev_i + 1 == i && i - 1 < std::size(kHarrisG80Step)) h.g80_step = kHarrisG80Step[i - 1];
    if (in_harris) prev_harris = x, prev_i = i;
    out.push_back(h);
  }
  return out;
}

double bytes_moved(std::string_view algorithm, std::size_t n, std::size_t element_bytes) {
  const double input = double(n) * double(element_bytes);
  return algorithm == "copy" ? 2 * input : input + double(element_bytes);
}

}  // namespace rl::core
