// The command line: subcommands list, trace, render and bench; no subcommand opens the window.
#pragma once
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "../core/bench.h"
#include "../ui/options.h"

namespace rl::cli {

using GuiOptions = ui::GuiOptions;  // the window's options, which `run` parses

using GuiEntry = std::function<int(const GuiOptions&, std::ostream& err)>;

// Exit codes: 0 success, 1 the work failed (device, file, display), 2 a usage error.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui);

// bench's exit code once measured: 1, with a line on err, when a row failed its check or
// nothing was measured at all; else 0.
int bench_verdict(const core::BenchReport& report, std::ostream& err);

// "1000" or "2^20"; nullopt for anything else (negative, non-numeric, overflowing).
std::optional<std::size_t> parse_size(std::string_view text);

}  // namespace rl::cli
