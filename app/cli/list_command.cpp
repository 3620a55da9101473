// `list`: the catalog as text, JSON, the markdown of docs/algorithms.md, or README's counts.
#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "../../kernels/algorithms.h"
#include "../../kernels/collectives.h"
#include "../backend/geometry.h"
#include "../core/catalog.h"
#include "../core/facts.h"
#include "../core/glossary.h"

#include "commands.h"

namespace rl::cli {
namespace {

// docs/algorithms.md's generated part (scripts/algorithms-doc.sh splices it in).
// The catalog with each lesson's numbers filled from a CPU-model run (backend::with_numbers).
// Then the family across GPUs, whose lessons hold formulas, not a run's numbers.
std::vector<core::AlgorithmInfo> lessons_with_numbers() {
  std::vector<core::AlgorithmInfo> out;
  for (const auto& a : core::algorithms()) out.push_back(backend::with_numbers(a));
  for (const auto& a : core::collectives()) out.push_back(a);
  return out;
}

void list_markdown(std::ostream& out) {
  for (const auto& a : lessons_with_numbers()) {
    out << "### `" << a.id << "`: " << a.title << "\n\n*" << a.family << "*"
        << (a.file.empty() ? "" : ", `" + a.file + "`") << ". " << a.lesson << "\n\n";
    if (a.kind != core::Kind::Collective) out << "*Run to run:* " << core::run_to_run_text(a.id) << ".\n\n";
    if (!a.brief.empty()) out << a.brief << "\n\n";
    if (a.look) out << "*Where to look:* " << core::pointer_label(*a.look, nullptr) << ": " << a.look->text << "\n\n";
    if (!a.detail.empty()) out << a.detail << "\n\n";
  }
  out << "## Glossary\n\nThe window underlines these words in the lessons; hovering one shows its entry.\n\n";
  for (const auto& t : core::glossary()) out << "- **" << t.term << "**: " << t.definition << "\n";
  out << "\n";
}

// README's inventory (scripts/algorithms-doc.sh splices it in): counted from the table, never typed.
void list_summary(std::ostream& out) {
  std::vector<std::pair<std::string, int>> families;  // in the table's order
  std::vector<std::string> baselines;
  int traced = 0;
  for (const auto& a : lessons_with_numbers()) {
    if (a.kind == core::Kind::Baseline) {
      baselines.push_back("`" + a.id + "`");
      continue;
    }
    ++traced;
    auto it = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.first == a.family; });
    if (it == families.end()) it = families.insert(it, {a.family, 0});
    ++it->second;
  }
  out << traced << " traced algorithms in " << families.size() << " families (";
  for (std::size_t i = 0; i < families.size(); ++i)
    out << (i ? ", " : "") << families[i].first << " " << families[i].second;
  out << ") and " << baselines.size() << " baselines (";
  for (std::size_t i = 0; i < baselines.size(); ++i) out << (i ? ", " : "") << baselines[i];
  out << ")\n";
}

// A row of the family across GPUs: what its table says, and the columns scripts filter on.
nlohmann::json collective_columns() {
  return {{"source", ""},
          {"gpu", true},  // our kernels over peer access, where two GPUs or more are present
          {"harris_step", 0},
          {"shape", "gpus"},
          {"gpus_min", model::all_reduce::kMinGpus},
          {"gpus_max", model::all_reduce::kMaxGpus},
          {"run_to_run", "fixed"}};
}

// Every column of a row, by name: what scripts read (scripts/catalog.py), never the header.
nlohmann::json row_columns(const kernels::AlgorithmRow& r) {
  return {{"source", std::string(r.source)},
          {"combine", std::string(kernels::to_string(r.combine))},
          {"any_block", r.blocks == kernels::BlockRule::Any},
          {"gpu", r.gpu},
          {"harris_step", r.harris_step},
          {"shape", r.shape == kernels::Shape::Matrix ? "matrix" : "array"},
          {"indexing", std::string(kernels::to_string(r.indexing))},
          {"lines", r.shape != kernels::Shape::Matrix                          ? ""
                    : kernels::lines_of(r.indexing) == kernels::Lines::Rows    ? "rows"
                    : kernels::lines_of(r.indexing) == kernels::Lines::Columns ? "columns"
                                                                               : "whole"},
          {"tree", std::string(kernels::to_string(r.tree))},
          {"vectors", r.vectors},
          {"fix", std::string(r.fix)},
          {"ints_only", r.ints_only},
          {"bulk_copy", r.bulk_copy},
          {"compensated", r.compensated},
          {"narrow", r.narrow},
          {"run_to_run", std::string(kernels::to_string(kernels::run_to_run(r)))}};
}

int cmd_list(std::ostream& out, const std::string& format) {
  if (format == "markdown") return list_markdown(out), 0;
  if (format == "summary") return list_summary(out), 0;
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& a : lessons_with_numbers()) {
      nlohmann::json entry =
          a.kind == core::Kind::Collective ? collective_columns() : row_columns(*kernels::find_row(a.id));
      entry.update({{"id", a.id}, {"family", a.family}, {"title", a.title}, {"lesson", a.lesson}, {"brief", a.brief}});
      j.push_back(std::move(entry));
    }
    out << j.dump(2) << "\n";
    return 0;
  }
  for (const auto& a : lessons_with_numbers())
    out << a.id << "  [" << a.family << "]  " << a.title << "\n    " << a.lesson << "\n";
  return 0;
}

}  // namespace

Handler list_command(CLI::App& cmd) {
  auto format = std::make_shared<std::string>("text");
  cmd.add_option("--format", *format, "text | json | markdown | summary (the counts README.md quotes)")
      ->check(CLI::IsMember({"text", "json", "markdown", "summary"}));
  return [format](const Io& io) { return cmd_list(io.out, *format); };
}

}  // namespace rl::cli
