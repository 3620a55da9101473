// The algorithm catalog: ids, lessons, and where each stage sits in the real kernel source.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rl::core {

struct SourceView {
  std::string file;                // repository path of the kernel source
  int first_line = 0;              // 1-based line of lines[0] in that file
  std::vector<std::string> lines;  // the algorithm's kernel, as compiled
  int load_line = 0;               // 1-based line the load stage corresponds to
  int step_line = 0;               // 1-based line each tree step corresponds to
};

struct AlgorithmInfo {
  std::string id;
  std::string family;
  std::string title;
  std::string lesson;  // one line, for `list`
  std::string detail;  // a paragraph, for the window
};

std::span<const AlgorithmInfo> algorithms();
const AlgorithmInfo* find_algorithm(std::string_view id);
std::vector<std::string> algorithm_ids();

// The kernel's source as built into this binary. Throws std::runtime_error if the
// markers for id are missing (a broken build, never user input).
const SourceView& source_of(std::string_view id);

// Finds "<<< id" ... ">>>" with its "[load]" and "[step]" tags in a source text.
SourceView parse_source(std::string_view text, std::string_view file, std::string_view id);

}  // namespace rl::core
