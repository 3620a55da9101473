#include "code.h"

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

std::string Code::span() const {
  std::string out;
  for (std::size_t i = 0; i < numbers.size(); ++i) {
    const bool new_file = i == 0 || file_of(i) != file_of(i - 1);
    if (!new_file && numbers[i] == numbers[i - 1] + 1) continue;  // inside a run of lines
    std::size_t last = i;
    while (last + 1 < numbers.size() && numbers[last + 1] == numbers[last] + 1 && file_of(last + 1) == file_of(i))
      ++last;
    const std::string run = std::to_string(numbers[i]) + "-" + std::to_string(numbers[last]);
    if (out.empty())
      out = (file_of(i) == file ? "" : file_of(i) + " ") + "lines " + run;
    else if (!new_file)
      out += " and " + run;
    else
      out += "; " + file_of(i) + " lines " + run;
  }
  return out;
}

}  // namespace rl::core
