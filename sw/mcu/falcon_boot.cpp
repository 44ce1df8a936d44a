// hetvp — boot of nouveau's GF100 graphics firmware on the Falcon context controllers.
#include "sw/mcu/falcon_boot.h"
#include "sw/mcu/falcon_ctx_lists.h"

#include <cctype>
#include <cstdio>
#include <vector>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/host/host_api.h"
#include "models/mcu/falcon/nouveau_fw.h"
#include "sw/mcu/falcon_image.h"
#include "sw/mcu/mcu_driver.h"
#include "platform/format.h"

namespace hetvp::sw {

bool falcon_microcontrollers(GpuDriver& gpu) {
  const uint32_t v = gpu.reg_read(GPU_HUB_BASE + FCTX_UC_CAPS2) & FCTX_UC_CAPS2_VERSION_MASK;
  return v == FCTX_UC_CAPS2_FALCON_V3 || v == FCTX_UC_CAPS2_FALCON_V5;
}

namespace {
// nvkm_falcon_load_dmem / load_imem as gf100_gr_init_fw uses them on a v3 Falcon.
void upload(GpuDriver& gpu, uint32_t base, const mcu::falcon::NouveauImage& im, const std::string& what) {
  const uint32_t caps = gpu.reg_read(base + FCTX_UC_CAPS);
  const uint32_t code = (caps & 0x1ff) << 8, data = ((caps >> 9) & 0xff) << 8;
  if (im.code_words * 4 > code || im.data_words * 4 > data) {
    const std::string b = format(
        "%s image (code 0x%zx, data 0x%zx bytes) does not fit the Falcon at 0x%06x "
        "(UC_CAPS: code 0x%x, data 0x%x bytes)",
        what.c_str(), im.code_words * 4, im.data_words * 4, base, code, data);
    throw McuError(b);
  }
  gpu.reg_write(base + FCTX_DATA_INDEX, 0x01000000);  // address 0, auto-increment on write
  for (size_t i = 0; i < im.data_words; ++i) gpu.reg_write(base + FCTX_DATA, im.data[i]);
  gpu.reg_write(base + FCTX_CODE_INDEX, 0x01000000);
  for (size_t i = 0; i < im.code_words; ++i) {
    if ((i & 0x3f) == 0) gpu.reg_write(base + FCTX_CODE_VIRT_ADDR, static_cast<uint32_t>(i >> 6));
    gpu.reg_write(base + FCTX_CODE, im.code[i]);
  }
}

// gf100_gr_init_csdata's list format, written from its description: the list of registers the
// context switch saves is appended after the list the firmware image already holds (its head/tail
// words at `starstar`): runs of consecutive words as (count - 1) << 26 | (address - base), then the
// new tail. hetvp's lists name the PGRAPH words it models (docs/falcon.md); nouveau's own lists
// (ctxgf100.c) describe the real chip's registers, which hetvp does not have.
struct Run {
  uint32_t addr, count;
};
void csdata(GpuDriver& gpu, uint32_t falcon, uint32_t starstar, uint32_t base, const std::vector<Run>& runs) {
  gpu.reg_write(falcon + FCTX_DATA_INDEX, 0x02000000 + starstar);  // read auto-increment
  uint32_t star = gpu.reg_read(falcon + FCTX_DATA);
  const uint32_t temp = gpu.reg_read(falcon + FCTX_DATA);
  if (temp > star) star = temp;
  gpu.reg_write(falcon + FCTX_DATA_INDEX, 0x01000000 + star);
  for (const Run& r : runs) {
    gpu.reg_write(falcon + FCTX_DATA, (r.count - 1) << 26 | (r.addr - base));
    star += 4;
  }
  gpu.reg_write(falcon + FCTX_DATA_INDEX, 0x01000004 + starstar);
  gpu.reg_write(falcon + FCTX_DATA, star);
}
}  // namespace

std::string FalconBootReport::summary() const {
  const std::string b =
      format("%s firmware: init-done at %.3f us (upload %.3f us), context size %u bytes (0x%x)", source.c_str(),
             init_done_us, upload_us, context_size, context_size);
  return b;
}

FalconBootReport boot_nouveau(HostApi& api, GpuDriver& gpu, const sc_core::sc_time& timeout) {
  return boot_nouveau_with(api, gpu, timeout, "", "");
}

// The chip, by its id in PMC_BOOT_0, as nouveau's device probe finds it.
const GpuChip& falcon_chip(GpuDriver& gpu) {
  const uint32_t boot0 = gpu.reg_read(GPU_PMC_BASE + PMC_BOOT_0);
  const GpuChip* chip = find_gpu_chip_by_boot0(boot0);
  if (!chip)
    throw McuError(format("nouveau boot: PMC_BOOT_0 0x%08x names chipset 0x%x, which has no nouveau graphics firmware "
                          "in hetvp (gpu_chips.h)",
                          boot0, HETVP_PMC_BOOT_0_CHIPSET(boot0)));
  return *chip;
}

FalconBootReport boot_nouveau_with(HostApi& api, GpuDriver& gpu, const sc_core::sc_time& timeout,
                                   const std::string& hub_image, const std::string& gpc_image) {
  const GpuChip* chip = &falcon_chip(gpu);
  FalconImageFile hub_file, gpc_file;
  if (!hub_image.empty() || !gpc_image.empty()) {
    try {
      if (!hub_image.empty()) hub_file = read_falcon_image(hub_image);
      if (!gpc_image.empty()) gpc_file = read_falcon_image(gpc_image);
    } catch (const FalconImageError& e) {
      throw McuError(e.what());
    }
  }
  // nouveau's images for what no file replaces
  const auto& fw = mcu::falcon::nouveau_firmware(chip->name);
  if ((hub_image.empty() || gpc_image.empty()) && !fw.available) throw McuError(fw.reason);
  FalconBootReport r;
  r.source = "nouveau ";
  for (const char* c = chip->name; *c; ++c) r.source += static_cast<char>(std::toupper(static_cast<unsigned char>(*c)));
  FalconImages images{fw.hub, fw.gpc, r.source + " HUB", r.source + " GPC"};
  if (!hub_image.empty()) {
    images.hub = hub_file.image();
    images.hub_name = "HUB image " + hub_image;
  }
  if (!gpc_image.empty()) {
    images.gpc = gpc_file.image();
    images.gpc_name = "GPC image " + gpc_image;
  }
  if (!hub_image.empty() && !gpc_image.empty())
    r.source = "Falcon image files";
  else if (!hub_image.empty() || !gpc_image.empty())
    r.source = "Falcon image file + " + r.source;
  return boot_falcon(api, gpu, images, *chip, timeout, r);
}

FalconBootReport boot_falcon(HostApi& api, GpuDriver& gpu, const FalconImages& im, const GpuChip& chip,
                             const sc_core::sc_time& timeout, FalconBootReport r) {
  const double t0 = api.now().to_seconds();
  // 1. upload: HUB image, GPC image to every GPC at once
  upload(gpu, GPU_HUB_BASE, im.hub, im.hub_name);
  upload(gpu, GPU_GPC_BCAST_BASE, im.gpc, im.gpc_name);
  // register lists: HUB (base 0x400000), GPC (0x418000, list at D[0]), TPC (0x419800, list at D[4]),
  // PPC (0x41be00, list at D[8]).
  csdata(gpu, GPU_HUB_BASE, 0x000, 0x000000, {{PGRAPH_HANDSHAKE_4170, 1}, {PGRAPH_UNK_408A14, 1}});
  csdata(gpu, GPU_GPC_BCAST_BASE, 0x000, 0x418000, {{GPU_GPC_BCAST_BASE + chip.unk86c, 1}});
  csdata(gpu, GPU_GPC_BCAST_BASE, 0x004, 0x419800, {{0x419800, 1}});
  // Chips with PPCs: their list's head is the TPC list's tail (D[8]) and its tail D[12] must follow.
  // hetvp has no PPC context state, but the list cannot be empty (the GPC firmware's mmctx_size reads
  // at least one entry, as nouveau's csdata always writes one): one word, the PPC broadcast unit's first.
  if (chip.ppcs) csdata(gpu, GPU_GPC_BCAST_BASE, 0x008, 0x41be00, {{0x41be00, 1}});
  falcon_ctx_lists(gpu);  // hetvp's compute context registers (falcon_ctx_lists.cpp, issue #24)
  r.upload_us = (api.now().to_seconds() - t0) * 1e6;
  // 2. start the HUB; its firmware starts the GPCs
  gpu.reg_write(GPU_HUB_BASE + FCTX_UC_BLOCK_ON_FIFO, 0);
  gpu.reg_write(GPU_HUB_BASE + FCTX_UC_CTRL, FCTX_UC_CTRL_START);
  // 3. poll 0x409800 bit 31
  const sc_core::sc_time interval(1, sc_core::SC_US);
  const sc_core::sc_time start = api.now();
  for (unsigned n = 0;; ++n) {
    if (gpu.reg_read(GPU_HUB_BASE + FCTX_CC_SCRATCH) & FCTX_CC_SCRATCH0_INIT_DONE) break;
    if ((n & 15) == 15 && (gpu.reg_read(GPU_HUB_BASE + FCTX_UC_CTRL) & FCTX_UC_CTRL_STOPPED)) {
      std::string gpcs;
      for (unsigned i = 0; i < gpu.num_gpcs(); ++i) {
        const uint32_t base = GPU_GPC_BASE + i * GPU_GPC_STRIDE;
        gpcs += " gpc" + std::to_string(i) +
                ((gpu.reg_read(base + FCTX_CC_SCRATCH) & FCTX_CC_SCRATCH0_INIT_DONE) ? " init-done" : " not done");
      }
      throw McuError("nouveau boot: the HUB Falcon stopped before init-done (the simulator's warning says why);" +
                     gpcs);
    }
    if (api.now() - start > timeout)
      throw McuError("nouveau boot: no init-done at 0x409800 bit 31 within " + timeout.to_string());
    api.sleep(interval);
  }
  // 4. the context size
  r.context_size = gpu.reg_read(GPU_HUB_BASE + FCTX_CC_SCRATCH + 4);
  r.init_done_us = (api.now().to_seconds() - t0) * 1e6;
  api.log(r.summary());
  api.stat("nouveau_context_size", r.context_size);
  api.stat("mcu_init_done_us", r.init_done_us);
  return r;
}

}  // namespace hetvp::sw
