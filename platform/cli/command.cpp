// hetvp — the `hetvp` program's usage text, assembled from the registered commands.
#include "platform/cli/command.h"

#include <algorithm>
#include <iostream>

#include "platform/simulation.h"

namespace hetvp::cli {

std::string main_usage() {
  std::vector<const Command*> listed;
  for (const auto& [name, c] : CommandRegistry::get().entries())
    if (!c.help.empty()) listed.push_back(&c);
  std::stable_sort(listed.begin(), listed.end(), [](const Command* a, const Command* b) { return a->order < b->order; });
  std::string u =
      "usage: hetvp COMMAND [options]\n"
      "\n"
      "commands:\n";
  for (const Command* c : listed) u += c->help;
  u +=
      "\n"
      "`hetvp COMMAND --help` describes a command's options.\n"
      "exit status: 0 success, 1 the simulated system reported a failure, 2 usage or configuration error\n";
  return u;
}

int usage_error(const std::string& msg, const std::string& usage) {
  std::cerr << "error: " << msg << "\n" << usage;
  return kExitUsage;
}

}  // namespace hetvp::cli
