// hetvp — core factory: every microcontroller core type by ISA name (core_if.h). A new core is
// added here and nowhere else (docs/architecture.md "Where things go").
#include "models/mcu/core_if.h"
#include "models/mcu/falcon/core.h"
#include "models/mcu/rv32/core.h"

#include <stdexcept>

namespace hetvp::mcu {

std::unique_ptr<CoreIf> make_core(const std::string& isa) {
  if (isa == "rv32imc" || isa == "rv32" || isa == "rv32imc_zicsr") return std::make_unique<rv32::Rv32Core>();
  if (isa == "rv32im" || isa == "rv32im_zicsr") {
    auto c = std::make_unique<rv32::Rv32Core>();
    c->set_compressed(false);
    return c;
  }
  if (isa == "falcon" || isa == "falcon3") return std::make_unique<falcon::FalconCore>();
  throw std::invalid_argument("unknown microcontroller core ISA '" + isa + "'; valid: rv32imc, rv32im, falcon");
}

}  // namespace hetvp::mcu
