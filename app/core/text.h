// Text from a file or the command line on its way to a terminal or the window: escaped and
// capped, so a file someone else made cannot retitle the terminal, spray binary or fill the
// screen (issue 30).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace rl::core {

inline constexpr std::size_t kShownChars = 200;  // the most characters of one shown value

// text with every byte outside printable ASCII written as \xNN (tab, newline and carriage
// return as \t, \n, \r, a backslash as \\), cut after `cap` characters of the result with
// "... (N bytes)" saying how long the original was.
std::string printable(std::string_view text, std::size_t cap = kShownChars);

// A message on its way to the terminal (an error's what(), which may carry a file's bytes from
// any reader): every control byte but the newline, and every byte past ASCII, as \xNN, cut after
// `cap` characters. Backslashes stay, so text escaped once by printable() reads as it did.
std::string terminal_text(std::string_view text, std::size_t cap = 2000);

// "2026-11-26 07:40 UTC": when a run was recorded or measured.
std::string utc_now();
// "1 stage", "9 stages": n and the noun, with an s unless n is 1.
std::string counted(std::size_t n, std::string_view noun);

}  // namespace rl::core
