// hetvp — host driver boot of GF100 context controllers running nouveau's own firmware: the sequence
// of nouveau's gf100_gr_init_ctxctl_int (docs/falcon.md).
#pragma once

#include <cstdint>
#include <string>

#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

// True when the HUB window carries the Falcon layout (UC_CAPS2 0x12c reads the Falcon version, 3;
// hetvp's RV32 block has UC_CYCLES_HI there, 0 before the HUB has run 2^32 cycles).
bool falcon_microcontrollers(GpuDriver& gpu);

struct FalconBootReport {
  uint32_t context_size = 0;  // 0x409804 after init-done: the firmware's context size in bytes
  double upload_us = 0, init_done_us = 0;
  std::string summary() const;
};

// Upload nouveau's HUB image to 0x409000 and GPC image through the broadcast window 0x41a000 (data
// through DATA_INDEX/DATA, then code through CODE_INDEX/CODE with a CODE_VIRT_ADDR page tag every 256
// bytes), start the HUB (0x40910c = 0, 0x409100 = 2), poll 0x409800 bit 31, read 0x409804. Throws
// McuError when the firmware is not built in, when the HUB stops, or on timeout.
FalconBootReport boot_nouveau(HostApi& api, GpuDriver& gpu, const sc_core::sc_time& timeout);

}  // namespace hetvp::sw
