#include "text.h"

#include <ctime>

namespace rl::core {

namespace {

// One escaping for both readers of untrusted text: every byte outside printable ASCII becomes
// \xNN (C0 and C1 controls, DEL, and each byte of UTF-8, which a terminal could read as C1);
// the window's (printable) also names \t, \n, \r and doubles the backslash, while the
// terminal's keeps its line breaks. Cut at cap characters, saying how long the text was.
enum class Reader { Window, Terminal };
std::string escaped(std::string_view text, std::size_t cap, Reader reader) {
  static constexpr char kHex[] = "0123456789abcdef";
  const bool window = reader == Reader::Window;
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= cap) return out + "... (" + std::to_string(text.size()) + " bytes)";
    const auto c = static_cast<unsigned char>(text[i]);
    if (window && c == '\\')
      out += "\\\\";
    else if (window && c == '\t')
      out += "\\t";
    else if (window && c == '\n')
      out += "\\n";
    else if (window && c == '\r')
      out += "\\r";
    else if (c == '\n' || (c >= 0x20 && c < 0x7f))
      out += char(c);
    else out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
  }
  return out;
}

}  // namespace

std::string printable(std::string_view text, std::size_t cap) { return escaped(text, cap, Reader::Window); }

std::string terminal_text(std::string_view text, std::size_t cap) { return escaped(text, cap, Reader::Terminal); }

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &utc);
  return buf;
}

std::string counted(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace rl::core
