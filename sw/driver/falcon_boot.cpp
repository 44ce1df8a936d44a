// hetvp — boot of nouveau's GF100 graphics firmware on the Falcon context controllers.
#include "sw/driver/falcon_boot.h"
#include "sw/driver/falcon_ctx_lists.h"

#include <cctype>
#include <cstdio>
#include <string>
#include <vector>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/host/host_api.h"
#include "models/mcu/debug_port.h"
#include "models/mcu/falcon/nouveau_fw.h"
#include "models/gpu/gr/gf100_lists.h"
#include "sw/driver/gr_nouveau_init.h"
#include "sw/driver/falcon_image.h"
#include "sw/driver/mcu_driver.h"
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
// words at `starstar`): runs of consecutive words as (count - 1) << 26 | (address - base)
// (gf100_lists.h csdata_words), then the new tail.
void csdata(GpuDriver& gpu, uint32_t falcon, uint32_t starstar, const std::vector<uint32_t>& words) {
  gpu.reg_write(falcon + FCTX_DATA_INDEX, 0x02000000 + starstar);  // read auto-increment
  uint32_t star = gpu.reg_read(falcon + FCTX_DATA);
  const uint32_t temp = gpu.reg_read(falcon + FCTX_DATA);
  if (temp > star) star = temp;
  gpu.reg_write(falcon + FCTX_DATA_INDEX, 0x01000000 + star);
  for (uint32_t w : words) {
    gpu.reg_write(falcon + FCTX_DATA, w);
    star += 4;
  }
  gpu.reg_write(falcon + FCTX_DATA_INDEX, 0x01000004 + starstar);
  gpu.reg_write(falcon + FCTX_DATA, star);
}

// A chip's name as nouveau's messages print it: "gk104" -> "GK104".
std::string chip_upper(const std::string& name) {
  std::string u;
  for (char c : name) u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

// The chip's own lists (nouveau's ctx<chip>.c packs), as gf100_gr_init_ctxctl_int uploads them
// (gf100.c; every chip hetvp boots uses it): hub -> HUB (base 0), gpc_0 and gpc_1 -> GPC list
// (base 0x418000), tpc -> TPC list (D[4], base 0x419800), ppc -> PPC list (D[8], base 0x41be00).
// GF100 has no ppc pack: nouveau's call with it (NULL) appends one all-ones word to the list at D[8],
// which GF100's GPC firmware never reads (its NV_PGRAPH_GPCX_UNK__SIZE is 0); hetvp leaves it out.
std::string upload_gr_lists(GpuDriver& gpu, const gpu::gr::GrLists& lists) {
  namespace gr = gpu::gr;
  std::string text =
      chip_upper(lists.chip) + " register lists (nouveau ctx" + lists.chip + ".c, " + lists.chip + ".c):";
  struct Up {
    const char* pack;
    uint32_t falcon, starstar, base;
  };
  for (const Up& u : {Up{"hub", GPU_HUB_BASE, 0x000, 0x000000}, Up{"gpc_0", GPU_GPC_BCAST_BASE, 0x000, 0x418000},
                      Up{"gpc_1", GPU_GPC_BCAST_BASE, 0x000, 0x418000}, Up{"tpc", GPU_GPC_BCAST_BASE, 0x004, 0x419800},
                      Up{"ppc", GPU_GPC_BCAST_BASE, 0x008, 0x41be00}}) {
    const gr::GrPack* p = lists.find(u.pack);
    if (!p && std::string(u.pack) == "ppc") continue;  // GF100
    if (!p) p = &lists.pack(u.pack);                   // throws, naming the pack
    const auto words = gr::csdata_words(*p, u.base);
    csdata(gpu, u.falcon, u.starstar, words);
    text += format(" %s %zu entries/%zu words -> %zu list words (%u bytes);", u.pack, p->entries(), p->words(),
                   words.size(), gr::mmctx_bytes(words));
  }
  for (const char* n : {"zcull", "icmd", "mthd"}) {
    const gr::GrPack& p = lists.pack(n);
    text += format(" %s %zu entries/%zu words;", n, p.entries(), p.words());
  }
  text.pop_back();
  return text;
}
// The HUB core's state for a boot message, from its window's debug port (models/mcu/debug_port.h):
// "asleep in its sleep instruction at pc 0x04b2", "running at pc ...", "halted at pc ...".
std::string hub_state(GpuDriver& gpu) {
  const uint32_t st = gpu.reg_read(GPU_HUB_BASE + mcu::DBG_STATUS), pc = gpu.reg_read(GPU_HUB_BASE + mcu::DBG_PC);
  const unsigned mode = st & mcu::DBG_STATUS_MODE_MASK;
  std::string what = mode == MCU_STATE_SLEEPING ? "asleep in its sleep instruction (waiting for an interrupt)"
                     : mode == MCU_STATE_STOPPED ? "stopped by the debugger"
                                                 : mcu_state_name(mode);
  const auto cause = static_cast<mcu::DbgCause>((st & mcu::DBG_STATUS_CAUSE_MASK) >> mcu::DBG_STATUS_CAUSE_SHIFT);
  if (mode == MCU_STATE_STOPPED && cause == mcu::DbgCause::breakpoint) what = "stopped at a breakpoint";
  if (mode == MCU_STATE_STOPPED && cause == mcu::DbgCause::watch) what = "stopped by a watch";
  if (mode == MCU_STATE_STOPPED && (st & mcu::DBG_STATUS_ASLEEP)) what += ", asleep";
  return format("the HUB Falcon is %s at pc 0x%04x", what.c_str(), pc);
}
}  // namespace

std::string FalconBootReport::summary() const {
  const std::string b = format("%s firmware: init-done at %.3f us (upload %.3f us), context size %u bytes (0x%x)",
                               source.c_str(), init_done_us, upload_us, context_size, context_size);
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
    throw McuError(
        format("nouveau boot: PMC_BOOT_0 0x%08x names chipset 0x%x, which has no nouveau graphics firmware "
               "in hetvp (gpu_chips.h)",
               boot0, HETVP_PMC_BOOT_0_CHIPSET(boot0)));
  return *chip;
}

FalconBootReport boot_nouveau_with(HostApi& api, GpuDriver& gpu, const sc_core::sc_time& timeout,
                                   const std::string& hub_arg, const std::string& gpc_arg) {
  const GpuChip* chip = &falcon_chip(gpu);
  // Images the GPU holds from power-on (gpu.microcontrollers.<hub|gpc>.image; PTOP MCU_IMAGES): not
  // uploaded, unless the workload gives its own.
  const uint32_t resident = gpu.reg_read(GPU_PTOP_BASE + PTOP_MCU_IMAGES);
  // gpu.microcontrollers.firmware: hetvp (PTOP MCU_IMAGES_HETVP): hetvp's C firmware translated for the
  // Falcon (firmware/falcon, docs/firmware_falcon.md) where neither a file nor a resident image is given.
  const bool own = resident & PTOP_MCU_IMAGES_HETVP;
  std::string hub_image = hub_arg, gpc_image = gpc_arg;
  if (own && hub_image.empty() && !(resident & PTOP_MCU_IMAGES_HUB))
    hub_image = firmware_dir_default() + "/falcon/hub.fuc3.h";
  if (own && gpc_image.empty() && !(resident & PTOP_MCU_IMAGES_GPC))
    gpc_image = firmware_dir_default() + "/falcon/gpc.fuc3.h";
  FalconImageFile hub_file, gpc_file;
  if (!hub_image.empty() || !gpc_image.empty()) {
    try {
      if (!hub_image.empty()) hub_file = read_falcon_image(hub_image);
      if (!gpc_image.empty()) gpc_file = read_falcon_image(gpc_image);
    } catch (const FalconImageError& e) {
      if (own && (hub_arg.empty() || gpc_arg.empty()))
        throw McuError(std::string(e.what()) +
                       " (gpu.microcontrollers.firmware is hetvp: its Falcon images are built from firmware/ by "
                       "firmware/falcon/CMakeLists.txt, which needs riscv64-unknown-elf-gcc and python3)");
      throw McuError(e.what());
    }
  }
  const bool hub_resident = hub_image.empty() && (resident & PTOP_MCU_IMAGES_HUB);
  const bool gpc_resident = gpc_image.empty() && (resident & PTOP_MCU_IMAGES_GPC);
  const bool hub_custom = !hub_image.empty() || hub_resident, gpc_custom = !gpc_image.empty() || gpc_resident;
  // nouveau's images for what no file replaces
  const auto& fw = mcu::falcon::nouveau_firmware(chip->name);
  if ((!hub_custom || !gpc_custom) && !fw.available) throw McuError(fw.reason);
  FalconBootReport r;
  r.source = "nouveau " + chip_upper(chip->name);
  FalconImages images{fw.hub, fw.gpc, r.source + " HUB", r.source + " GPC"};
  if (!hub_image.empty()) {
    images.hub = hub_file.image();
    images.hub_name = "HUB image " + hub_image;
  }
  if (!gpc_image.empty()) {
    images.gpc = gpc_file.image();
    images.gpc_name = "GPC image " + gpc_image;
  }
  images.upload_hub = !hub_resident;
  images.upload_gpc = !gpc_resident;
  if (own && hub_arg.empty() && gpc_arg.empty() && !hub_resident && !gpc_resident)
    r.source = "hetvp's own C";
  else if (hub_custom && gpc_custom)
    r.source = "Falcon image files";
  else if (hub_custom || gpc_custom)
    r.source = "Falcon image file + " + r.source;
  return boot_falcon(api, gpu, images, *chip, timeout, r);
}

FalconBootReport boot_falcon(HostApi& api, GpuDriver& gpu, const FalconImages& im, const GpuChip& chip,
                             const sc_core::sc_time& timeout, FalconBootReport r) {
  const double t0 = api.now().to_seconds();
  // Every chip runs on nouveau's own register lists for it (gf100_lists.h).
  const auto& lists = gpu::gr::gr_lists(chip.name);
  const std::string upper = chip_upper(chip.name);
  if (!lists.available)
    throw McuError("nouveau boot: " + upper + "'s register lists are not built in: " + lists.reason);
  // 0. gf100_gr_init's mmio list, before the context controllers start (the `pgraph` block serves it)
  try {
    r.mmio_words = gr_init_mmio(gpu, chip.name);
  } catch (const std::exception& e) {
    throw McuError("nouveau boot: gf100_gr_init's mmio list: " + std::string(e.what()) + " (" +
                   lists.pack("mmio").source + "; " + upper +
                   "'s GR registers need the pgraph block: gpu0.blocks, docs/falcon.md)");
  }
  // 1. upload: HUB image, GPC image to every GPC at once
  if (im.upload_hub) upload(gpu, GPU_HUB_BASE, im.hub, im.hub_name);
  if (im.upload_gpc) upload(gpu, GPU_GPC_BCAST_BASE, im.gpc, im.gpc_name);
  // 2. register lists: HUB, GPC (list at D[0]), TPC (list at D[4]), PPC (list at D[8]).
  r.lists = upload_gr_lists(gpu, lists);
  api.log(r.lists + format("; mmio %zu words written before the start", r.mmio_words));
  falcon_ctx_lists(gpu);  // hetvp's compute context registers after nouveau's (falcon_ctx_lists.cpp, issue #24)
  r.upload_us = (api.now().to_seconds() - t0) * 1e6;
  // 3. start the HUB; its firmware starts the GPCs
  gpu.reg_write(GPU_HUB_BASE + FCTX_UC_BLOCK_ON_FIFO, 0);
  gpu.reg_write(GPU_HUB_BASE + FCTX_UC_CTRL, FCTX_UC_CTRL_START);
  // 4. poll 0x409800 bit 31
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
      throw McuError("nouveau boot: the HUB Falcon stopped before init-done (the simulator's warning says why; " +
                     hub_state(gpu) + ");" + gpcs);
    }
    if (api.now() - start > timeout)
      throw McuError("nouveau boot: no init-done at 0x409800 bit 31 within " + timeout.to_string() + ": " +
                     hub_state(gpu) + " (" + im.hub_name + ")");
    api.sleep(interval);
  }
  r.init_done_us = (api.now().to_seconds() - t0) * 1e6;
  // 5. the context size: nouveau's firmware leaves it in CC_SCRATCH[1]; hetvp's own (it signs
  // CC_SCRATCH[7], firmware/hub/hub.c) keeps its command sequence there and answers FW_CMD_GR_INFO.
  r.own_firmware = gpu.reg_read(GPU_HUB_BASE + FCTX_HETVP_FW_ID_REG) == FCTX_HETVP_FW_ID;
  if (r.own_firmware) {
    McuDriver mcu(api, gpu);
    const McuResult info = mcu.command(McuId::hub(), FW_CMD_GR_INFO, 0);
    r.context_size = info.error == FW_ERR_OK ? info.result : 0;
  } else {
    r.context_size = gpu.reg_read(GPU_HUB_BASE + FCTX_CC_SCRATCH + 4);
  }
  api.log(r.summary());
  api.stat("nouveau_context_size", r.context_size);
  api.stat("mcu_init_done_us", r.init_done_us);
  return r;
}

}  // namespace hetvp::sw
