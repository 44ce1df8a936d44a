// hetvp-falcon-as: `hetvp falcon-as` as a program of its own, built before the libraries so that the
// build can assemble nouveau's firmware from source (cmake/NouveauFirmware.cmake).
#include <iostream>

#include "models/mcu/falcon/asm/cli.h"

int main(int argc, char** argv) {
  using namespace hetvp::mcu::falcon::as;
  CLI::App app{std::string(kUsage) + "\n" + kAbout};
  CliArgs a;
  declare_options(app, a);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return run(a);
}
