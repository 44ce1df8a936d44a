// Every register block declared in firmware/include/hetvp, printed as docs/registers.md's tables
// (`hetvp registers`; tests/platform/test_register_docs.cpp checks that the file is current).
#include <cstdio>
#include <sstream>

#include "firmware/include/hetvp/coherence.h"
#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/copy_engine.h"
#include "firmware/include/hetvp/crc32.h"
#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/fifo.h"
#include "firmware/include/hetvp/gpu_mmu.h"
#include "firmware/include/hetvp/gr_ctxsw.h"
#include "firmware/include/hetvp/mcu_regs.h"
#include "firmware/include/hetvp/pcie_config.h"
#include "firmware/include/hetvp/pgraph_regfile.h"
#include "firmware/include/hetvp/pmc.h"
#include "firmware/include/hetvp/v3d_regs.h"
#include "firmware/include/hetvp/vc_mailbox.h"
#include "platform/register_table.h"

namespace hetvp {

namespace {
const RegSpec kPmc[] = {HETVP_REG_TABLE(HETVP_PMC_REGS)};
const RegSpec kPtop[] = {HETVP_REG_TABLE(HETVP_PTOP_REGS)};
const RegSpec kMmu[] = {HETVP_REG_TABLE(HETVP_MMU_REGS)};
const RegSpec kCopy[] = {HETVP_REG_TABLE(HETVP_COPY_REGS)};
const RegSpec kCompute[] = {HETVP_REG_TABLE(HETVP_COMPUTE_REGS)};
const RegSpec kComputeGpc[] = {HETVP_REG_TABLE(HETVP_COMPUTE_GPC_REGS)};
const RegSpec kFifo[] = {HETVP_REG_TABLE(HETVP_FIFO_REGS)};
const RegSpec kMcu[] = {HETVP_REG_TABLE(HETVP_MCU_REGS)};
const RegSpec kDir[] = {HETVP_REG_TABLE(HETVP_DIR_REGS)};
const RegSpec kCc[] = {HETVP_REG_TABLE(HETVP_CC_REGS)};
const RegSpec kGrc[] = {HETVP_REG_TABLE(HETVP_GR_CTXSW_REGS)};
const RegSpec kGrh[] = {HETVP_REG_TABLE(HETVP_GR_HUB_REGS)};
const RegSpec kFctx[] = {HETVP_REG_TABLE(HETVP_FCTX_REGS)};
const RegSpec kPgraphBoot[] = {HETVP_REG_TABLE(HETVP_PGRAPH_BOOT_REGS)};
const RegSpec kGpcPpc[] = {HETVP_REG_TABLE(HETVP_GPC_PPC_REGS)};
const RegSpec kPgraphExtra[] = {HETVP_REG_TABLE(HETVP_PGRAPH_EXTRA_REGS)};
const RegSpec kHubImageList[] = {HETVP_REG_TABLE(HETVP_HUB_IMAGE_LIST_REGS)};
const RegSpec kPciCfg[] = {HETVP_REG_TABLE(HETVP_PCICFG_REGS)};
const RegSpec kV3d[] = {HETVP_REG_TABLE(HETVP_V3D_REGS)};
const RegSpec kVcMbox[] = {HETVP_REG_TABLE(HETVP_VCMBOX_REGS)};
const RegSpec kCrc32[] = {HETVP_REG_TABLE(HETVP_CRC32_REGS)};

template <size_t N>
RegBlockDoc block(const char* title, const char* where, const RegSpec (&t)[N]) {
  return {title, where, t, N};
}

const char* access_name(RegAccess a) {
  switch (a) {
    case RegAccess::RO:
      return "RO";
    case RegAccess::RW:
      return "RW";
    case RegAccess::WO:
      return "WO";
    case RegAccess::W1C:
      return "W1C";
  }
  return "?";
}
}  // namespace

const std::vector<RegBlockDoc>& register_blocks() {
  static const std::vector<RegBlockDoc> blocks = {
      block("PMC (firmware/include/hetvp/pmc.h)", "BAR0 0x000000, Fermi", kPmc),
      block("FIFO engine (firmware/include/hetvp/fifo.h)",
            "BAR0 gpu.fifo.bar0 (default 0x002000, Fermi PFIFO position); PTOP_FIFO_BASE says where; docs/contexts.md "
            "describes channels, methods and the runlist",
            kFifo),
      block("PTOP (firmware/include/hetvp/pmc.h)", "BAR0 0x022400, Fermi position", kPtop),
      block("GPU MMU (firmware/include/hetvp/gpu_mmu.h)", "BAR0 0x100000, hetvp", kMmu),
      block("copy engine n (firmware/include/hetvp/copy_engine.h)",
            "BAR0 gpu.copy_engine.bar0 (default 0x104000, Fermi PCOPY position) + n·0x1000; PTOP_COPY_BASE says where",
            kCopy),
      block("compute front end (firmware/include/hetvp/compute.h)",
            "BAR0 gpu.compute.bar0 (default 0x404000, hetvp); PTOP_COMPUTE_BASE says where", kCompute),
      block("compute state of GPC n (firmware/include/hetvp/compute.h)",
            "BAR0 gpu.compute.gpc_bar0 (default 0x500000, hetvp) + n·0x8000; PTOP_COMPUTE_GPC_BASE says where",
            kComputeGpc),
      block("HUB / GPC microcontroller (firmware/include/hetvp/mcu_regs.h)",
            "BAR0 0x409000 (HUB), 0x502000 + n·0x8000 (GPC n), 0x41a000 (GPC broadcast); the core sees it at "
            "MCU_REG_BASE 0x20000; docs/mcu.md describes the behaviour",
            kMcu),
      block("GR context-switch unit, HUB and every GPC (firmware/include/hetvp/gr_ctxsw.h)",
            "inside the microcontroller windows (HUB 0x409000, GPC n 0x502000 + n·0x8000), at offsets the "
            "microcontroller's block does not use; the core reaches them at MCU_REG_BASE + offset; "
            "docs/contexts.md describes the behaviour",
            kGrc),
      block("GR context-switch unit, HUB only (firmware/include/hetvp/gr_ctxsw.h)",
            "the HUB window (0x409000): channel switch and instance-block fetch", kGrh),
      block("GF100 context controller, Falcon core (firmware/include/hetvp/falcon_ctxctl_regs.h)",
            "the same windows when gpu0.microcontrollers.core is falcon; the Falcon core sees offset X at I/O address "
            "(X & 0xffc) << 6 | index << 2; docs/falcon.md describes the behaviour",
            kFctx),
      block("PGRAPH registers of the nouveau boot (firmware/include/hetvp/falcon_ctxctl_regs.h)",
            "BAR0 addresses, served by the Falcon microcontroller block", kPgraphBoot),
      block("GPC PPC units (firmware/include/hetvp/falcon_ctxctl_regs.h)",
            "BAR0 0x500c30 + n·0x8000 (GPC n), on chips with PPCs (gpu_chips.h); docs/falcon.md, docs/kepler.md",
            kGpcPpc),
      block("PGRAPH register file: words beside GF100's lists (firmware/include/hetvp/pgraph_regfile.h)",
            "BAR0 addresses, served by the pgraph block; the other registers are those nouveau's GF100 lists name "
            "(generated at build time): docs/falcon.md \"GF100's register lists\"",
            kPgraphExtra),
      block("HUB image list words (firmware/include/hetvp/falcon_ctxctl_regs.h)",
            "BAR0 address, served by the Falcon microcontroller block: the words nouveau's HUB image's own MMCTX list "
            "names (issue #24)",
            kHubImageList),
      block("coherence directory (firmware/include/hetvp/coherence.h)",
            "host physical 0x40000000 (configs/coherence.yaml); plus the history-data port DIR_HIST_DATA 0x6800 "
            "(writes of up to 0x800 bytes of 64-bit line numbers)",
            kDir),
      block("coherence cache controller (firmware/include/hetvp/coherence.h)",
            "CPU: the directory's cpu_cc port; GPU: BAR0 gpu.compute.cc_bar0 (default 0x405000, PTOP_CC_BASE); plus "
            "the probe ports CC_PROBE 0x40 (16-byte write) "
            "and CC_PROBE_DONE 0x50 (32-byte read)",
            kCc),
      block("PCIe configuration space (firmware/include/hetvp/pcie_config.h)",
            "the GPU endpoint's Type 0 header and MSI capability, reached by configuration requests (ECAM), not BAR0",
            kPciCfg),
      block("VideoCore IV V3D host interface (firmware/include/hetvp/v3d_regs.h)",
            "peripheral base + 0xC00000 (configs/videocore4.yaml: 0x20C00000); docs/qpu.md describes the behaviour",
            kV3d),
      block("Raspberry Pi ARM<->VideoCore mailbox (firmware/include/hetvp/vc_mailbox.h)",
            "peripheral base + 0xB880 (configs/videocore4.yaml: 0x2000B880); docs/qpu.md \"Mailbox\" describes the "
            "property interface behind it",
            kVcMbox),
      block("example RTL block rtl.crc32 (firmware/include/hetvp/crc32.h)",
            "its AXI4-Lite slave port `regs`, placed by YAML (configs/rtl_block_example.yaml: host physical "
            "0x40100000); docs/rtl_blocks.md describes the behaviour",
            kCrc32),
  };
  return blocks;
}

std::string registers_markdown() {
  std::ostringstream o;
  for (const RegBlockDoc& b : register_blocks()) {
    o << "### " << b.title << "\n\n" << b.where << "\n\n";
    o << "| offset | register | access | reset | what |\n|---|---|---|---|---|\n";
    for (size_t i = 0; i < b.count; ++i) {
      const RegSpec& r = b.regs[i];
      char off[48], reset[16];
      if (r.count > 1)
        snprintf(off, sizeof off, "0x%03x–0x%03x", r.offset, r.offset + 4 * (r.count - 1));
      else
        snprintf(off, sizeof off, "0x%03x", r.offset);
      snprintf(reset, sizeof reset, "0x%x", r.reset);
      o << "| " << off << " | `" << r.name << (r.count > 1 ? "0.." + std::to_string(r.count - 1) : "") << "` | "
        << access_name(r.access) << " | " << reset << " | " << r.doc << " |\n";
    }
    o << "\n";
  }
  return o.str();
}

}  // namespace hetvp
