// The hetvp command-line program: looks its first argument up among the registered commands
// (platform/cli/command.h; `hetvp --help` lists them).
// Exit status: 0 success, 1 the simulated system failed, 2 usage or configuration error.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include <systemc>

#include "platform/cli/command.h"

int sc_main(int argc, char** argv) {
  using hetvp::cli::usage_error;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) return usage_error("no command given", hetvp::cli::main_usage());
  const std::string& cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    std::cout << hetvp::cli::main_usage();
    return 0;
  }
  const hetvp::cli::Command* c = hetvp::cli::CommandRegistry::get().find(cmd);
  if (!c || cmd.empty()) return usage_error("unknown command '" + cmd + "'", hetvp::cli::main_usage());
  return c->run(std::move(args));
}

// SystemC's own main() prints a banner; hetvp's output is for its users, so start SystemC here.
int main(int argc, char** argv) {
  // Line-buffered stdout: a run's lines appear as they are printed, also into a pipe or a file.
  setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
