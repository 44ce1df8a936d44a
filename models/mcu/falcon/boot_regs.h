// hetvp — what a Falcon cluster adds around its context controllers for nouveau's boot (the
// microcontroller block, models/mcu/cluster.cpp, with core: falcon): the PGRAPH registers nouveau's
// HUB firmware touches outside the controllers' windows, each GPC's PPC units, and the images the
// controllers hold at power-on (gpu0.microcontrollers.hub.image / gpc.image).
#pragma once

#include <memory>
#include <vector>

#include "models/gpu/gpu_block.h"
#include "models/mcu/mcu_config.h"

namespace hetvp::mcu::falcon {

class PgraphBootRegs;
class GpcPpcRegs;
class ImageLoader;
class HubImageListRegs;
struct ImageJob;

class FalconBoot {
 public:
  // What must hold before the controllers are made (the compute block's window clear of PGRAPH
  // 0x404170, each image within its controller's segments); publishes PTOP MCU_IMAGES.
  FalconBoot(gpu::GpuContext& ctx, const McuBlockConfig& c);
  ~FalconBoot();
  // GPC n's PPC units (PPC_TPC_MASK), when the chip has them.
  void add_gpc(gpu::GpuContext& ctx, const McuBlockConfig& c, unsigned n);
  // The PGRAPH and PFB words, and the image loader (after the controllers and the broadcast window).
  void finish(gpu::GpuContext& ctx);

 private:
  std::vector<ImageJob> jobs_;
  std::unique_ptr<PgraphBootRegs> r4170_, r8a14_, r4160_;
  std::vector<std::unique_ptr<GpcPpcRegs>> ppcs_;
  std::unique_ptr<ImageLoader> loader_;
  std::unique_ptr<HubImageListRegs> list17e91c_;
};

}  // namespace hetvp::mcu::falcon
