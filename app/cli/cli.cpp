#include "cli.h"

#include <cerrno>
#include <cstring>
#include <iostream>
#include <optional>

#include "../core/input.h"
#include "../core/text.h"
#include "../own/own_run.h"
#include "commands.h"
#include "version_line.h"  // generated: cmake/version.cmake

namespace rl::cli {
namespace {

// The subcommands, in the order --help lists them: each adds its options to its own CLI::App
// and returns what runs it once parsed.
struct Subcommand {
  const char* name;
  const char* about;
  Handler (*setup)(CLI::App& cmd);
};
const Subcommand kSubcommands[] = {
    {"list", "List the algorithms", list_command},
    {"trace", "Record every stage of one block of a run", trace_command},
    {"repeat", "Run one algorithm, or every one, N times on one input: do its results repeat bit for bit?",
     repeat_command},
    {"ladder",
     "One input in half, bf16 (added in themselves and in float), float and double: each sum's error, "
     "time and bandwidth",
     ladder_command},
    {"render", "Draw a stage's view, or a results file's or shipped run's chart, to PNG, headless (EGL)",
     render_command},
    {"bench", "Time algorithms on large arrays (GB/s against the peak and CUB)", bench_command},
};

// An option given with an empty value (`-n ''`, `--sizes ''`) would silently mean its default:
// a usage error names it instead (issue 48, item 14).
void refuse_empty_values(const CLI::App& app) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->count() == 0 || o->get_type_size() == 0) continue;  // not given, or a flag
    for (const std::string& value : o->results())
      if (value.empty()) throw CLI::ValidationError(o->get_name(), "is empty (give a value, or leave the option out)");
  }
  for (const CLI::App* sub : app.get_subcommands()) refuse_empty_values(*sub);
}

// An exit code when parsing ends the run (help, version, a usage error); nullopt to go on.
std::optional<int> parse(CLI::App& app, int argc, const char* const* argv, const Io& io) {
  try {
    app.parse(argc, argv);
    refuse_empty_values(app);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::ParseError& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << " (see --help)\n";
    return 2;
  }
  return std::nullopt;
}

int run_handler(const Handler& handler, const Io& io) {
  try {
    return handler(io);
  } catch (const UsageError& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 1;
  }
}

int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui) {
  CLI::App app{"Reduction Lab: watch GPUs reduce an array, stage by stage", "reduction-lab"};
  app.set_version_flag("--version", std::string(REDLAB_VERSION_LINE));
  app.require_subcommand(0, 1);
  Handler chosen = window_command(app);
  std::vector<std::pair<const CLI::App*, Handler>> commands;
  for (const Subcommand& c : kSubcommands) {
    CLI::App* cmd = app.add_subcommand(c.name, c.about);
    commands.emplace_back(cmd, c.setup(*cmd));
  }
  const Io io{out, err, gui};
  if (const auto code = parse(app, argc, argv, io)) return *code;
  for (const auto& [cmd, handler] : commands)
    if (*cmd) chosen = handler;
  return run_handler(chosen, io);
}

// --standby (own_process.h's Standby): CUDA and NVRTC started, then the one command whose words
// come on standard input, tab-separated, run as if given after the program's name.
int standby(const char* program, std::ostream& out, std::ostream& err, const GuiEntry& gui) {
  own::warm_up_gpu();
  std::string line;
  if (!std::getline(std::cin, line)) return 0;  // the window closed or sent nothing: nothing to run
  std::vector<std::string> words{program};
  for (std::size_t at = 0; at <= line.size();) {
    const std::size_t end = std::min(line.find('\t', at), line.size());
    words.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  return run_command(int(argv.size()), argv.data(), out, err, gui);
}

}  // namespace

// What a command printed counts only once it is flushed: `list >/dev/full` fails, saying so.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui) {
  const bool waits = argc == 2 && std::string_view(argv[1]) == "--standby";
  const int code = waits ? standby(argv[0], out, err, gui) : run_command(argc, argv, out, err, gui);
  errno = 0;
  if (out.flush()) return code;
  err << "reduction-lab: error: cannot write the output: "
      << (errno ? std::strerror(errno) : "the write failed and the system gave no reason") << "\n";
  return 1;
}

std::optional<std::size_t> parse_size(std::string_view text) { return core::parse_size(text, 62); }

}  // namespace rl::cli
