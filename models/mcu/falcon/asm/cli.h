// hetvp — `hetvp falcon-as`'s options and run (docs/falcon.md "Assembler"), shared by the subcommand
// (falcon_as_command.cpp, in the tool layer) and the build's own assembler program hetvp-falcon-as
// (falcon_as_main.cpp), which assembles nouveau's firmware before the libraries are compiled.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace hetvp::mcu::falcon::as {

struct CliArgs {
  std::string source;
  std::vector<std::string> include_dirs, defines;
  std::string isa;  // "" = from the source's suffix (.fuc0/.fuc3/.fuc4/.fuc5), else fuc3
  std::string format = "header";
  std::string output;  // "" = standard output (header only)
  std::string symbols;
  std::string code_size, data_size;  // "" = no limit (or the chip's)
  // A chip of firmware/include/hetvp/gpu_chips.h and the controller (hub, gpc; "" = from the source's
  // name): its code and data memories limit the *_code / *_data sections; "" = no chip.
  std::string chip, unit;
};

extern const char* const kUsage;
extern const char* const kAbout;
void declare_options(CLI::App& app, CliArgs& a);
// Assembles; prints a located error on stderr and returns 1 on failure, 0 on success.
int run(const CliArgs& a);

}  // namespace hetvp::mcu::falcon::as
