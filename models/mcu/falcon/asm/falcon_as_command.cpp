// hetvp — `hetvp falcon-as` (models/mcu/falcon/asm/cli.h) registered as a subcommand of the program;
// compiled into the tool layer (platform/cli/command.h), beside what it drives.
#include "models/mcu/falcon/asm/cli.h"
#include "platform/cli/command.h"

namespace hetvp::mcu::falcon::as {
namespace {

int falcon_as_command(std::vector<std::string> args) {
  CliArgs a;
  auto app = cli::make_parser(kUsage, kAbout);
  declare_options(*app, a);
  if (int parsed = cli::parse_args(*app, args); parsed >= 0) return parsed;
  return run(a);
}

}  // namespace
}  // namespace hetvp::mcu::falcon::as

HETVP_REGISTER_COMMAND("falcon-as", 75,
                       "  falcon-as      assemble a Falcon source (nouveau's .fuc files, envyas' syntax) after cpp\n",
                       hetvp::mcu::falcon::as::falcon_as_command);
