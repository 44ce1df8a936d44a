// Fuzz harness: a YAML configuration through what `hetvp check` does in-process
// (platform/simulation.cpp check_platform): Config::load_string, validate, and the builder's checks
// (Builder::build: instantiate, resolve address maps, bind ports). Anything but a ConfigError is a
// finding, and so is a SystemC error report.
//
// Building a SystemC hierarchy many times in one process: modules are created before sc_start and
// destroyed again, which SystemC 2.3 allows (names are released on destruction). A configuration
// may ask for huge memories or thousands of instances; the harness caps the input size and the
// builder's sparse memories keep that cheap. HETVP_FUZZ_YAML_NO_BUILD=1 fuzzes load + validate only.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include <systemc>

#include "platform/builder.h"
#include "platform/config.h"

namespace {
void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions&) {
  if (rep.get_severity() >= sc_core::SC_ERROR) {
    std::cerr << "fuzz_yaml: SystemC " << rep.get_msg_type() << ": " << rep.get_msg() << "\n";
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sc_core::sc_report_handler::set_handler(report_handler);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 16384) return 0;
  static const bool build = std::getenv("HETVP_FUZZ_YAML_NO_BUILD") == nullptr;
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    hetvp::Config cfg = hetvp::Config::load_string(text, "fuzz.yaml");
    cfg.validate();
    (void)cfg.instance_names();
    (void)cfg.simulation();
    (void)cfg.workload();
    if (build) {
      hetvp::RunContext run;
      hetvp::Builder b(cfg, run);
      b.build();
    }
  } catch (const hetvp::ConfigError&) {
  }
  return 0;
}
