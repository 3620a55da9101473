// Benchmark results: rows as they stream in, the report's header, CSV and JSON, and the
// Harris-style table (time, bandwidth, % of peak, step and cumulative speedup) for one n.
#pragma once
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl::core {

struct BenchRow {
  std::string algorithm, type, op;
  std::size_t n = 0;
  std::size_t rows = 0, cols = 0;  // a matrix benchmark's shape (rows x cols = n); 0 for arrays
  int block = 0;  // threads per block; 0 for the baselines (CUB picks its own) and old files
  std::size_t grid = 0;  // first-pass blocks: a matrix kernel's, an array kernel's that takes --grid; else 0
  int cluster = 0;       // blocks a cluster (cluster-dsmem: 2, 4 or 8); 0 for kernels without clusters
  double median_us = 0;
  double noise_pct = 0;
  double write_back_us = 0;  // matrices: L2's write-back of the run's outputs, in median_us (kernels::Timing)
  int samples = 0;
  int discarded = 0;  // throttled samples left out
  double gbps = 0;
  double pct_of_peak = 0;  // 0 when there is no peak (the CPU model)
  bool check_ok = false;
  std::string check;  // "exact", "within 2e-4 of sum|x|", or what went wrong
  bool operator==(const BenchRow&) const = default;
};

// A row the GPU could not run (a kernel needing a newer compute capability): its check says
// why, beginning with this; it holds no time and is no wrong result.
inline constexpr std::string_view kNotRun = "not run: ";
inline bool was_run(const BenchRow& row) { return !row.check.starts_with(kNotRun); }

struct BenchReport {
  std::string device, driver, date, backend;  // backend: "cuda" or "sim"
  double peak_gbps = 0;
  std::vector<BenchRow> rows;
  bool operator==(const BenchReport&) const = default;
};

// "RxC,RxC,..." (each side N or 2^K), e.g. "2^8x2^20,1000x3". nullopt with *error otherwise.
struct MatrixShape {
  std::size_t rows = 0, cols = 0;
  bool operator==(const MatrixShape&) const = default;
};
std::optional<std::vector<MatrixShape>> parse_shapes(std::string_view text, std::string* error);
// The default sweep: 2^28 elements as 2^4 x 2^24, 2^6 x 2^22, ..., 2^24 x 2^4 (log2 of the total).
std::vector<MatrixShape> default_shapes(int log2_total);
// `--shapes sweep`: the default sweep, then shapes off its powers of two: 2^(L-4) rows of 15 (beside
// rows of 16), the largest power of ten of rows of 100 within 2^L, and 3 rows of 2^(L-8) + 1.
// At L = 28 these are issue 33's 2^24 x 15, 10^6 x 100 and 3 x (2^20 + 1).
std::vector<MatrixShape> sweep_shapes(int log2_total);

// One size: "N" or "2^K" with K at most max_log2; nullopt for anything else.
std::optional<std::size_t> parse_size(std::string_view text, int max_log2);
// "2^16..2^28" (powers of two), or "N,N,..." (each N or 2^K). nullopt with *error otherwise.
std::optional<std::vector<std::size_t>> parse_sizes(std::string_view text, std::string* error);

std::string to_csv(const BenchReport& r);
std::string to_json(const BenchReport& r);
// Throws std::runtime_error naming the field that is missing or malformed.
BenchReport bench_from_json(const std::string& text);

// The GPU runs shipped in the binary (assets/runs/RUN/bench_TYPE_OP.json), as measured there.
struct ShippedReport {
  std::string run;  // "h200": the folder under assets/runs/
  BenchReport report;
};
// Every shipped file, parsed once, in the build's order. Throws std::runtime_error naming the
// file if one does not parse (tests/bench_test.cpp holds them parsing).
const std::vector<ShippedReport>& shipped_reports();
std::vector<std::string> shipped_runs();  // each run once, in the build's order: "h200", "h100"
// The run's report that holds rows of `type` and `op`, over arrays or (matrix) matrix shapes;
// nullptr when it has none.
const BenchReport* shipped_report(std::string_view run, std::string_view type, std::string_view op, bool matrix = false);
// True when the report's rows are matrix shapes (bench --shapes).
bool is_matrix_report(const BenchReport& r);
// What the run holds, for a note: "float sum and int sum".
std::string shipped_contents(std::string_view run);
// What a report's rows measure, "float sum and int max", and whether any row measures type and op.
std::string report_contents(const BenchReport& r);
bool report_has(const BenchReport& r, std::string_view type, std::string_view op);
// "measured on NVIDIA H200, not this machine (driver 580.159.04, 2026-11-22 02:30 UTC)": the
// device, driver and date are the report's own.
std::string shipped_label(const BenchReport& r);

struct HarrisRow {
  std::string algorithm;
  double median_us = 0, gbps = 0, pct_of_peak = 0;
  double step_speedup = 1;        // against the kernel before it in Harris' order; NaN off it
  double cumulative_speedup = 1;  // against the first row
  bool harris = false;            // one of Harris' kernels 1 to 7
  int block = 0;                  // threads per block it ran with (0: a library's own, or unknown)
  // Harris' G80 step speedup of this kernel over the one before it (kHarrisG80Step); NaN
  // unless this row's measured step is over that same kernel.
  double g80_step = std::numeric_limits<double>::quiet_NaN();
};
// Quoted, not measured here: Harris' step speedups on a G80 (2^22 ints) in "Optimizing
// Parallel Reduction in CUDA" (Mark Harris, NVIDIA, 2007), kernel 2 over 1, 3 over 2, ..., 7
// over 6. The only place they are written (scripts/bench-report.py reads them from here).
inline constexpr double kHarrisG80Step[] = {2.33, 2.01, 1.78, 1.80, 1.41, 1.42};
// Harris' kernels 1 to 7 ("Optimizing Parallel Reduction in CUDA"), in his order.
const std::vector<std::string_view>& harris_kernels();
// One row per algorithm measured at n for the type and operator: Harris' kernels in his
// order first, then every other algorithm in catalog order.
std::vector<HarrisRow> harris_table(const BenchReport& r, std::size_t n, std::string_view type, std::string_view op);

// Bytes an algorithm must move for n elements: read the input once, write the result
// (the copy baseline reads and writes every element).
double bytes_moved(std::string_view algorithm, std::size_t n, std::size_t element_bytes);

}  // namespace rl::core
