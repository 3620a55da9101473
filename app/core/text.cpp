#include "text.h"

#include <ctime>

namespace rl::core {

std::string printable(std::string_view text, std::size_t cap) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= cap) return out + "... (" + std::to_string(text.size()) + " bytes)";
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') out += "\\\\";
    else if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c >= 0x20 && c < 0x7f) out += char(c);
    else out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
  }
  return out;
}

std::string terminal_text(std::string_view text, std::size_t cap) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (out.size() >= cap) return out + "... (" + std::to_string(text.size()) + " bytes)";
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n' || (c >= 0x20 && c < 0x7f))
      out += char(c);
    else
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
  }
  return out;
}

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &utc);
  return buf;
}

}  // namespace rl::core
