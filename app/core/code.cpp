#include "code.h"

#include <algorithm>

namespace rl::core {

int Code::index_of(const Place& p) const {
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (numbers[i] == p.line && file_of(i) == p.file) return int(i);
  return -1;
}

const std::string* Code::text_at(const Place& p) const {
  const int i = index_of(p);
  return i < 0 ? nullptr : &lines[std::size_t(i)];
}

namespace {

// A file's runs of lines in the order shown: "70-81 and 34-65".
std::string runs_of(const Code& c, const std::string& f) {
  std::string out;
  for (std::size_t i = 0; i < c.numbers.size(); ++i) {
    if (c.file_of(i) != f || (i > 0 && c.file_of(i - 1) == f && c.numbers[i] == c.numbers[i - 1] + 1)) continue;
    std::size_t last = i;
    while (last + 1 < c.numbers.size() && c.file_of(last + 1) == f && c.numbers[last + 1] == c.numbers[last] + 1)
      ++last;
    out += (out.empty() ? "" : " and ") + std::to_string(c.numbers[i]) + "-" + std::to_string(c.numbers[last]);
  }
  return out;
}

}  // namespace

std::string Code::span() const {
  // Each file once, in the order first shown; a helper beside the kernel's file by its name alone.
  const std::string dir = file.substr(0, file.rfind('/') + 1);
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < lines.size(); ++i)
    if (std::find(shown.begin(), shown.end(), file_of(i)) == shown.end()) shown.push_back(file_of(i));
  std::string out;
  for (const auto& f : shown) {
    const std::string name = f == file ? "" : (!dir.empty() && f.starts_with(dir) ? f.substr(dir.size()) : f) + " ";
    out += (out.empty() ? "" : "; ") + name + "lines " + runs_of(*this, f);
  }
  return out;
}

}  // namespace rl::core
