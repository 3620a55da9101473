#include "own_file.h"

#include <cctype>
#include <limits>
#include <optional>
#include <stdexcept>

#include "../core/text.h"

namespace rl::own {
namespace {

constexpr std::uint64_t kLimit = std::uint64_t(1) << 63;
constexpr int kMaxDepth = 32;

// A recursive-descent reader of one expression; every step checks the bounds.
class Reader {
 public:
  Reader(std::string_view text, const ExprNames& names) : s_(text), names_(names) {}

  std::uint64_t whole() {
    const std::uint64_t v = sum(0);
    skip();
    if (at_ < s_.size()) fail("unexpected '" + std::string(1, s_[at_]) + "'");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument(what + " at column " + std::to_string(at_ + 1) + " of \"" + core::printable(s_) + "\"");
  }
  void skip() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_]))) ++at_;
  }
  bool take(char c) {
    skip();
    if (at_ < s_.size() && s_[at_] == c) return ++at_, true;
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("expected '") + c + "'");
  }
  std::uint64_t add(std::uint64_t a, std::uint64_t b) const {
    std::uint64_t r = 0;
    if (__builtin_add_overflow(a, b, &r) || r >= kLimit) fail("a value past 2^63");
    return r;
  }
  std::uint64_t mul(std::uint64_t a, std::uint64_t b) const {
    std::uint64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r) || r >= kLimit) fail("a value past 2^63");
    return r;
  }

  std::uint64_t sum(int depth) {
    std::uint64_t v = product(depth);
    for (;;) {
      if (take('+')) {
        v = add(v, product(depth));
      } else if (take('-')) {
        const std::uint64_t r = product(depth);
        if (r > v) fail("a value below 0");
        v -= r;
      } else {
        return v;
      }
    }
  }
  std::uint64_t product(int depth) {
    std::uint64_t v = factor(depth);
    for (;;) {
      if (take('*')) {
        v = mul(v, factor(depth));
      } else if (take('/')) {
        v = divide(v, factor(depth), false);
      } else if (take('%')) {
        v = divide(v, factor(depth), true);
      } else {
        return v;
      }
    }
  }
  std::uint64_t divide(std::uint64_t a, std::uint64_t b, bool remainder) const {
    if (b == 0) fail("a division by zero");
    return remainder ? a % b : a / b;
  }
  std::uint64_t factor(int depth) {
    if (depth > kMaxDepth) fail("brackets nested past " + std::to_string(kMaxDepth));
    skip();
    if (take('(')) {
      const std::uint64_t v = sum(depth + 1);
      expect(')');
      return v;
    }
    if (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_]))) return number();
    const std::string name = word();
    if (name.empty())
      fail(at_ < s_.size() ? "unexpected '" + std::string(1, s_[at_]) + "'" : "an expression ends early");
    if (name == "min" || name == "max") {
      expect('(');
      const std::uint64_t a = sum(depth + 1);
      expect(',');
      const std::uint64_t b = sum(depth + 1);
      expect(')');
      return name == "min" ? std::min(a, b) : std::max(a, b);
    }
    if (name == "sizeof") return size_of();
    if (name == "n") return names_.n;
    if (name == "block") return names_.block;
    if (name == "sms") return names_.sms;
    if (name == "threads_per_sm") return names_.threads_per_sm;
    fail("unknown name '" + name + "' (n, block, sms, threads_per_sm, sizeof(value_t), min, max)");
  }
  std::uint64_t number() {
    std::uint64_t v = 0;
    while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_])))
      v = add(mul(v, 10), unsigned(s_[at_++] - '0'));
    return v;
  }
  std::string word() {
    std::string w;
    while (at_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[at_])) || s_[at_] == '_')) w += s_[at_++];
    return w;
  }
  std::uint64_t size_of() {
    expect('(');
    skip();
    const std::string type = word();
    expect(')');
    if (type == "value_t") return names_.value_bytes;
    if (type == "float" || type == "int") return 4;
    if (type == "double") return 8;
    fail("sizeof takes value_t, float, int or double, not '" + type + "'");
  }

  std::string_view s_;
  const ExprNames& names_;
  std::size_t at_ = 0;
};

std::string trim(std::string_view s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// "name" or "name<block>": the only template argument a launch fills in is the block size.
bool is_kernel_name(std::string_view s) {
  const std::size_t lt = s.find('<');
  if (lt == std::string_view::npos) return is_identifier(s);
  return is_identifier(s.substr(0, lt)) && s.substr(lt) == "<block>";
}

class LaunchReader {
 public:
  explicit LaunchReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(int line, const std::string& what) const {
    throw std::invalid_argument(core::printable(file_) + ":" + std::to_string(line) + ": " + what);
  }

  void field(int line, const std::string& key, const std::string& value) {
    if (value.size() > kMaxExpressionChars)
      fail(line, key + ": longer than " + std::to_string(kMaxExpressionChars) + " characters");
    if (key == "kernel") {
      once(line, key, out_.kernel_line);
      if (!is_kernel_name(value))
        fail(line, "kernel: '" + core::printable(value) + "' is not a function name (or name<block>)");
      out_.kernel = value;
    } else if (key == "block") {
      once(line, key, block_line_);
      out_.block = block_of(line, value);
    } else if (key == "grid") {
      once(line, key, out_.grid_line), out_.grid = value;
    } else if (key == "shared") {
      once(line, key, out_.shared_line), out_.shared = value;
    } else if (key == "passes") {
      once(line, key, passes_line_);
      if (value != "until one" && value != "one")
        fail(line, "passes: 'until one' or 'one', not '" + core::printable(value) + "'");
      out_.until_one = value == "until one";
    } else if (key == "launch") {
      once(line, key, launch_line_);
      if (value != "cooperative")
        fail(line, "launch: 'cooperative' (every block resident at once) is the one kind a file names, not '" +
                       core::printable(value) + "'");
      out_.cooperative = true;
    } else {
      fail(line, "unknown key '" + core::printable(key) + "' (kernel, block, grid, shared, passes, launch)");
    }
  }

  OwnLaunch finish(int lines) {
    if (out_.kernel_line == 0) fail(lines, "no '//! kernel: NAME' line");
    if (out_.grid_line == 0) fail(lines, "no '//! grid: EXPRESSION' line");
    if (out_.shared.empty()) out_.shared = "0";
    for (const auto& [line, expr] : {std::pair{out_.grid_line, out_.grid}, std::pair{out_.shared_line, out_.shared}}) {
      try {  // a sample launch: what every run evaluates, checked once here
        evaluate(expr, ExprNames{1u << 20, std::uint64_t(out_.block), 4, 132, 2048});
      } catch (const std::invalid_argument& e) {
        fail(line, e.what());
      }
    }
    return out_;
  }

 private:
  void once(int line, const std::string& key, int& seen) {
    if (seen) fail(line, key + ": given twice (first on line " + std::to_string(seen) + ")");
    seen = line;
  }
  int block_of(int line, const std::string& value) {
    if (value.empty() || value.size() > 4 || value.find_first_not_of("0123456789") != std::string::npos)
      fail(line, "block: a number of threads, not '" + core::printable(value) + "'");
    const int b = std::stoi(value);
    if (b < 1 || b > 1024) fail(line, "block: " + value + " threads; a block takes 1 to 1024");
    return b;
  }

  std::string file_;
  OwnLaunch out_;
  int block_line_ = 0, passes_line_ = 0, launch_line_ = 0;
};

}  // namespace

std::uint64_t evaluate(std::string_view expr, const ExprNames& names) {
  if (expr.size() > kMaxExpressionChars)
    throw std::invalid_argument("an expression longer than " + std::to_string(kMaxExpressionChars) + " characters");
  return Reader(expr, names).whole();
}

std::string OwnLaunch::name_expression(int run_block) const {
  const std::size_t lt = kernel.find('<');
  if (lt == std::string::npos) return kernel;
  return kernel.substr(0, lt) + "<" + std::to_string(run_block) + ">";
}

OwnLaunch parse_launch(std::string_view source, const std::string& file) {
  LaunchReader reader(file);
  if (source.size() > kMaxSourceBytes)
    reader.fail(1, "the file is " + std::to_string(source.size()) + " bytes; a kernel file may hold " +
                       std::to_string(kMaxSourceBytes));
  int line = 0;
  std::size_t at = 0;
  while (at <= source.size()) {
    const std::size_t end = std::min(source.find('\n', at), source.size());
    const std::string text = trim(source.substr(at, end - at));
    ++line;
    if (text.rfind("//!", 0) == 0) {
      const std::string body = trim(std::string_view(text).substr(3));
      const std::size_t colon = body.find(':');
      if (colon == std::string::npos) reader.fail(line, "expected '//! key: value'");
      reader.field(line, trim(std::string_view(body).substr(0, colon)), trim(std::string_view(body).substr(colon + 1)));
    }
    at = end + 1;
  }
  return reader.finish(line);
}

namespace {

std::string_view last_component(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// "NAME:LINE: what" -> LINE and what, where NAME ends in `name`; nullopt otherwise.
std::optional<LineMessage> line_message(std::string_view line, std::string_view name) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || name.empty() || last_component(line.substr(0, colon)) != name) return {};
  std::size_t at = colon + 1;
  int number = 0;
  for (; at < line.size() && std::isdigit(static_cast<unsigned char>(line[at])) && number < 10000000; ++at)
    number = number * 10 + (line[at] - '0');
  if (number == 0 || at >= line.size() || line[at] != ':') return {};
  std::string_view what = line.substr(at + 1);
  while (!what.empty() && what.front() == ' ') what.remove_prefix(1);
  return LineMessage{number, std::string(what)};
}

}  // namespace

std::vector<LineMessage> line_messages(std::string_view text, std::string_view name) {
  name = last_component(name);
  std::vector<LineMessage> out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (auto m = line_message(text.substr(at, end - at), name)) out.push_back(std::move(*m));
    at = end + 1;
  }
  return out;
}

}  // namespace rl::own
