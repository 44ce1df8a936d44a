// hetvp — FalconCore's registers for a debugger (debug_regs.h's order).
#include "models/mcu/falcon/debug_regs.h"

#include "models/mcu/falcon/core.h"

namespace hetvp::mcu::falcon {

bool FalconCore::debug_register(unsigned index, uint32_t& value) const {
  static constexpr unsigned kSpecial[] = {SR_PC, SR_SP, SR_FLAGS, SR_IV0, SR_IV1, SR_TV, SR_XCBASE, SR_XDBASE,
                                          SR_XTARGETS, SR_TSTATUS};
  static_assert(16 + sizeof kSpecial / sizeof kSpecial[0] == kDebugRegisterCount, "one name per register");
  if (index < 16) {
    value = r_[index];
    return true;
  }
  if (index >= kDebugRegisterCount) return false;
  value = read_sr(kSpecial[index - 16]);
  return true;
}

}  // namespace hetvp::mcu::falcon
