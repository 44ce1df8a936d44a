// hetvp — core factory: every microcontroller core type by ISA name (core_if.h). A new core is
// added here and nowhere else (docs/architecture.md "Where things go").
#include "models/mcu/core_if.h"
#include "models/mcu/falcon/core.h"
#include "models/mcu/rv32/core.h"

#include <stdexcept>

namespace hetvp::mcu {

std::unique_ptr<CoreIf> make_core(const std::string& isa, const CoreOptions& o) {
  const bool rv32imc = isa == "rv32imc" || isa == "rv32" || isa == "rv32imc_zicsr";
  if (rv32imc || isa == "rv32im" || isa == "rv32im_zicsr") {
    auto c = std::make_unique<rv32::Rv32Core>();
    if (!rv32imc) c->set_compressed(false);
    c->set_strict_traps(o.strict_traps);
    if (o.trap_watchdog) c->set_trap_watchdog(*o.trap_watchdog);
    c->set_misaligned_emulation(o.misaligned_emulate);
    c->set_threaded_blocks(o.execution != CoreOptions::Execution::interpreted);
    c->set_x86_translation(o.execution == CoreOptions::Execution::translated);
    return c;
  }
  if (isa == "falcon" || isa == "falcon3" || isa == "falcon5") {
    auto c = std::make_unique<falcon::FalconCore>();
    if (isa == "falcon5") c->set_version(5);
    c->set_sync_io(o.sync_io);
    return c;
  }
  throw std::invalid_argument("unknown microcontroller core ISA '" + isa + "'; valid: rv32imc, rv32im, falcon");
}

}  // namespace hetvp::mcu
