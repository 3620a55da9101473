#include "run_file.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "file_io.h"
#include "json_fields.h"
#include "text.h"

namespace rl::core {
namespace {

// Which of the three a JSON object is, by the fields only it has.
RunFile kind_of(const nlohmann::json& j) {
  if (j.contains("stages")) return j.contains("race") ? RunFile::Race : RunFile::Trace;
  if (j.contains("rows") && j["rows"].is_array() && j.contains("peak_gbps")) return RunFile::Results;
  throw std::runtime_error("is not a trace, a race recording or a results file (it has no 'stages', nor 'rows' "
                           "with 'peak_gbps')");
}

}  // namespace

std::string to_string(RunFile kind) {
  switch (kind) {
    case RunFile::Trace: return "a trace";
    case RunFile::Race: return "a race recording";
    case RunFile::Results: return "a results file";
  }
  return "a file";
}

OpenedRun open_run_file(const std::string& path) {
  std::string text, why;
  if (!read_file(path, files::kTrace, &text, &why)) throw std::runtime_error(why);
  const std::string shown = "'" + printable(path) + "' ";
  OpenedRun out;
  out.path = path;
  try {
    const auto j = json_fields::parse(text);
    if (!j.is_object()) throw std::runtime_error("is not a JSON object");
    out.kind = kind_of(j);
    if (out.kind == RunFile::Results) {
      if (text.size() > std::size_t(files::kResults.max_bytes))
        throw std::runtime_error("is " + std::to_string(text.size()) + " bytes; a results file may hold at most " +
                                 std::to_string(files::kResults.max_bytes));
      out.results = bench_from_json(text);
    } else {
      if (out.kind == RunFile::Race && text.size() > std::size_t(files::kRecording.max_bytes))
        throw std::runtime_error("is " + std::to_string(text.size()) + " bytes; a race recording may hold at most " +
                                 std::to_string(files::kRecording.max_bytes));
      out.trace = trace_from_json(text);
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(shown + (std::string(e.what()).rfind("is ", 0) == 0 ? "" : "is not readable: ") + e.what());
  }
  return out;
}

std::string recorded_label(const Trace& t) {
  const std::string when = t.recorded.utc.empty() ? std::string("date not recorded") : t.recorded.utc;
  if (t.backend == "cuda") return "recorded on " + t.device + ", " + when;
  return "made by the CPU model, not a GPU run (" + t.device + "), " + when;
}

}  // namespace rl::core
