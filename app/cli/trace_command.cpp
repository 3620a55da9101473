// `trace` records every stage of one block; `repeat` runs kernels N times on one input.
#include <cmath>
#include <nlohmann/json.hpp>

#include "../../kernels/race_api.h"
#include "../backend/repeat.h"
#include "../core/catalog.h"
#include "../core/race.h"
#include "../core/run_file.h"
#include "../core/text.h"

#include "commands.h"

namespace rl::cli {
Handler trace_command(CLI::App& cmd) {
  struct Options {
    RunOptions run;
    std::string format = "json";
    int runs = 0;
  };
  auto o = std::make_shared<Options>();
  add_run_options(&cmd, o->run);
  cmd.add_option("--format", o->format, "json | text")->check(CLI::IsMember({"json", "text"}));
  cmd.add_option("--runs", o->runs,
                 "A race-revealing recording, run N times on the same input (GPU only; missing-syncthreads, "
                 "legacy-warp-synchronous, sequential, unroll-last-warp): wrong runs and blocks, and the stale reads "
                 "of a block of the first run whose first pass went wrong (else of the last run)")
      ->check(CLI::Range(1, kernels::kMaxRaceRuns));
  return [o](const Io& io) {
    const core::Trace t = record(o->run, o->runs, &io.err);
    io.out << (o->format == "json" ? core::to_json(t) + "\n" : core::to_text(t));
    return report_findings(t, io.err);
  };
}

// The determinism lab from the command line: one algorithm, or every array algorithm, run N
// times on one input, its row's promise beside the distinct results.
void print_lab(std::ostream& out, const std::vector<backend::LabRow>& rows, core::DType type,
               const std::string& format) {
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : rows) {
      nlohmann::json results = nlohmann::json::array();
      for (const auto& d : r.repeats.results) {
        // JSON has no NaN or Inf: they travel as strings, as in traces ("nan", "inf", "-inf").
        const nlohmann::json value = std::isfinite(d.result) ? nlohmann::json(d.result)
                                     : std::isnan(d.result)  ? nlohmann::json("nan")
                                                             : nlohmann::json(d.result > 0 ? "inf" : "-inf");
        results.push_back({{"value", value}, {"count", d.count}});
      }
      j.push_back({{"algorithm", r.algorithm},
                   {"run_to_run", kernels::to_string(kernels::run_to_run(*kernels::find_row(r.algorithm)))},
                   {"backend", r.repeats.backend},
                   {"device", r.repeats.device},
                   {"runs", r.repeats.runs},
                   {"results", results},
                   {"error", r.error},
                   {"note", r.note}});
    }
    out << j.dump(2) << "\n";
    return;
  }
  for (const auto& r : rows) {
    const std::string promise(kernels::to_string(kernels::run_to_run(*kernels::find_row(r.algorithm))));
    char line[160];
    if (!r.error.empty()) {
      out << r.algorithm << "  " << promise << "  not run: " << core::printable(r.error) << "\n";
      continue;
    }
    std::snprintf(line, sizeof line, "%-26s %-8s %zu distinct in %d run%s:", r.algorithm.c_str(), promise.c_str(),
                  r.repeats.results.size(), r.repeats.runs, r.repeats.runs == 1 ? "" : "s");
    out << line;
    for (const auto& d : r.repeats.results) out << " " << core::format_value(d.result, type) << " x" << d.count;
    out << (r.note.empty() ? "" : "  (" + r.note + ")") << "\n";
  }
  const auto ran = std::find_if(rows.begin(), rows.end(), [](const backend::LabRow& r) { return r.error.empty(); });
  if (ran != rows.end()) out << "device: " << ran->repeats.device << "\n";
}

Handler repeat_command(CLI::App& cmd) {
  struct Options {
    RunOptions run;
    int runs = backend::kDefaultRepeats;
    std::string format = "text";
  };
  auto o = std::make_shared<Options>();
  add_run_options(&cmd, o->run)->description("Algorithm id (default: every array algorithm but the pitfalls)");
  cmd.add_option("--runs", o->runs, "Runs of each algorithm (the CPU model runs each once: its order never changes)")
      ->check(CLI::Range(1, backend::kMaxRepeats));
  cmd.add_option("--format", o->format, "text | json")->check(CLI::IsMember({"text", "json"}));
  return [o](const Io& io) {
    RunOptions run = o->run;
    const bool every = run.algorithm.empty();
    if (every) run.algorithm = "sequential";  // the shape of an array run
    backend::TraceRequest req = request_of(run);
    auto sel = backend::select(kBackends.at(run.backend));
    std::vector<backend::LabRow> rows;
    if (every) {
      rows = backend::repeat_every(*sel.backend, req, o->runs);
    } else {
      backend::LabRow row;
      row.algorithm = req.algorithm;
      row.error = backend::type_refusal(req.algorithm, req.type, req.op);
      if (!row.error.empty()) throw UsageError(row.error);
      try {
        row.repeats = backend::repeat_trace(*sel.backend, req, backend::runs_on(*sel.backend, o->runs));
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
      rows.push_back(std::move(row));
    }
    print_lab(io.out, rows, req.type, o->format);
    if (std::all_of(rows.begin(), rows.end(), [](const backend::LabRow& r) { return !r.error.empty(); })) {
      io.err << "reduction-lab: error: no algorithm ran (each says why above)\n";
      return 1;
    }
    return 0;
  };
}

}  // namespace rl::cli
