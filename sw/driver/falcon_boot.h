// hetvp — host driver boot of GF100 context controllers running nouveau's own firmware: the sequence
// of nouveau's gf100_gr_init_ctxctl_int (docs/falcon.md).
#pragma once

#include <cstdint>
#include <string>

#include "firmware/include/hetvp/gpu_chips.h"
#include "models/mcu/falcon/nouveau_fw.h"
#include "sw/driver/gpu_driver.h"

namespace hetvp::sw {

// True when the HUB window carries the Falcon layout (UC_CAPS2 0x12c reads the Falcon version, 3;
// hetvp's RV32 block has UC_CYCLES_HI there, 0 before the HUB has run 2^32 cycles).
bool falcon_microcontrollers(GpuDriver& gpu);

struct FalconBootReport {
  std::string source = "nouveau GF100";  // whose firmware: "nouveau GK104", "image files"
  uint32_t context_size = 0;  // the firmware's context size in bytes: 0x409804 after init-done (nouveau's),
                              // FW_CMD_GR_INFO (hetvp's own, `own_firmware`)
  bool own_firmware = false;  // hetvp's own C firmware answered (its signature in CC_SCRATCH[7])
  double upload_us = 0, init_done_us = 0;
  // GF100: the register lists uploaded (per pack: entries, words, list words and the bytes the
  // firmware's mmctx_size counts) and the words of gf100_gr_init's mmio list written; else empty/0.
  std::string lists;
  size_t mmio_words = 0;
  std::string summary() const;
};

// Upload nouveau's HUB image to 0x409000 and GPC image through the broadcast window 0x41a000 (data
// through DATA_INDEX/DATA, then code through CODE_INDEX/CODE with a CODE_VIRT_ADDR page tag every 256
// bytes), start the HUB (0x40910c = 0, 0x409100 = 2), poll 0x409800 bit 31, read 0x409804. Throws
// McuError when the firmware is not built in, when the HUB stops, or on timeout.
// The chip is the one PMC_BOOT_0 names (gpu_chips.h), its images nouveau's for that chip.
FalconBootReport boot_nouveau(HostApi& api, GpuDriver& gpu, const sc_core::sc_time& timeout);

// The same with the HUB and/or GPC image read from a file (falcon_image.h; "" = the image the GPU
// holds from power-on when PTOP MCU_IMAGES says so, else nouveau's image for the chip). A file that
// cannot be read or parsed throws McuError naming it and the line.
FalconBootReport boot_nouveau_with(HostApi& api, GpuDriver& gpu, const sc_core::sc_time& timeout,
                                   const std::string& hub_image, const std::string& gpc_image);
// The chip PMC_BOOT_0 names (gpu_chips.h); McuError when hetvp has no such chip.
const GpuChip& falcon_chip(GpuDriver& gpu);

// The same boot with any HUB and GPC images (nouveau's, or read from files: falcon_image.h).
struct FalconImages {
  mcu::falcon::NouveauImage hub, gpc;
  std::string hub_name, gpc_name;  // for messages: "nouveau GK104 HUB", "hub image build/my.fuc3.h"
  // false: the controller already holds its image (gpu.microcontrollers.<hub|gpc>.image, PTOP
  // MCU_IMAGES): nothing is uploaded to it.
  bool upload_hub = true, upload_gpc = true;
};
FalconBootReport boot_falcon(HostApi& api, GpuDriver& gpu, const FalconImages& images, const GpuChip& chip,
                             const sc_core::sc_time& timeout, FalconBootReport report = {});

}  // namespace hetvp::sw
