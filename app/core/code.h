// Kernel source lines as a trace carries them and the source view shows them: a kernel's region
// and its helpers' regions, from its own file and the files it includes.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace rl::core {

// A line of kernel source: the file (a repository path) and its 1-based number there.
struct Place {
  std::string file;
  int line = 0;
  bool operator==(const Place&) const = default;
};

// The kernel's source lines as the run that made the trace compiled them: shown beside its stages
// when the trace comes from a file (another version, or a kernel this build lacks).
struct Code {
  std::string file;                // repository path of the kernel's own file
  std::vector<int> numbers;        // 1-based line in its file of each of `lines`
  std::vector<std::string> lines;  // the kernel's region, then each helper's
  // The file of each of `lines`, where a helper comes from a file the kernel includes; empty
  // when every line is in `file`.
  std::vector<std::string> files;
  const std::string& file_of(std::size_t i) const { return files.empty() ? file : files[i]; }
  int index_of(const Place& p) const;                // the place's position in `lines`; -1 if not shown
  const std::string* text_at(const Place& p) const;  // the line there; null if not shown
  std::string span() const;                          // "lines 70-81 and 34-65; block_shuffle.cuh lines 20-45"
  // Whether line i, in a listing that starts at line `first`, is the first shown of another file
  // than the one before it (at `first`: another than the kernel's own); its file heads it.
  bool opens_file(std::size_t i, std::size_t first = 0) const {
    return file_of(i) != (i == first ? file : file_of(i - 1));
  }
  bool operator==(const Code&) const = default;
};

}  // namespace rl::core
