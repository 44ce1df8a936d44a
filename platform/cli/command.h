// hetvp — the subcommands of the `hetvp` program. They belong to the tool layer (platform/cli, the
// CMake target hetvp_cli), which only the program links: nothing here is in the libraries that
// plugins and the Python module load. Each command registers itself in its own .cpp:
//   HETVP_REGISTER_COMMAND("registers", 80, "  registers      print the register tables ...\n",
//                          registers_command);
// and main.cpp looks the first argument up. A command that drives one model (`iss`) sits beside
// it (models/mcu/rv32/iss_command.cpp) and is compiled into hetvp_cli too: the libraries stay free
// of argv parsing, and platform/ free of models/.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "platform/registry.h"

namespace hetvp::cli {

struct Command {
  static constexpr const char* kKind = "command";
  std::string name;
  int order = 0;     // position in `hetvp --help`
  std::string help;  // its lines in `hetvp --help` (empty: not listed, e.g. an alias)
  // args[0] is the command's name; returns the exit status (0, kExitSimFailure, kExitUsage).
  std::function<int(std::vector<std::string> args)> run;
};
using CommandRegistry = Registry<Command>;

// `hetvp --help`: the header, every listed command in `order`, the footer.
std::string main_usage();
// Prints "error: MSG" and `usage` to stderr; returns kExitUsage.
int usage_error(const std::string& msg, const std::string& usage);

// A command's option parser (CLI11: `--opt value`, `--opt=value`, `-j4`, `-vv`, `-h`/`--help`).
// Its help is `usage` (the first line, "usage: hetvp run CONFIG [options]"), then `about`, then
// the options CLI11 lists from their declarations, so the help cannot miss an option.
std::unique_ptr<CLI::App> make_parser(const std::string& usage, const std::string& about = "");
// Parses `args` (args[0] is the command's name) into the options declared on `app`. Returns -1
// when the command should go on, 0 after printing --help, kExitUsage after printing an error
// ("unknown option '--x'", "unexpected argument 'y'", CLI11's message for a missing or bad value)
// and the help.
int parse_args(CLI::App& app, const std::vector<std::string>& args);

// Prints the debug categories (platform/debug.h) with what each prints; returns 0.
int list_debug_flags(std::ostream& out);

}  // namespace hetvp::cli

#define HETVP_REGISTER_COMMAND(NAME, ORDER, HELP, FUNCTION) \
  HETVP_REGISTER_ENTRY(::hetvp::cli::Command, NAME, ORDER, HELP, FUNCTION)
