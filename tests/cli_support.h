// Running the command line in-process for the CLI suites: exit code, stdout and stderr.
#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"

namespace rl::test {

struct CliResult {
  int code;
  std::string out, err;
};

// args without the program name. Were the window opened, err ends in "[gui]".
inline CliResult run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "reduction-lab");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  bool gui_called = false;
  const int code = cli::run(int(argv.size()), argv.data(), out, err,
                            [&](const cli::GuiOptions&, std::ostream&) { gui_called = true; return 0; });
  return {code, out.str(), err.str() + (gui_called ? "[gui]" : "")};
}

}  // namespace rl::test
