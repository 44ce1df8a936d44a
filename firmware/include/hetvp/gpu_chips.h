/* hetvp — GPU generations as configuration (gpu0.chip in YAML): what differs between the chips whose
 * graphics firmware nouveau ships, in one table, read by the models (PMC, the Falcon context
 * controllers, the coalescer) and by the driver (which picks nouveau's images by PMC_BOOT_0, as
 * nouveau does). No model asks "which chip?": each reads the column it needs.
 *
 * Columns:
 *   NAME      YAML name (gpu0.chip) and nouveau's (gr/fuc/hub<NAME>.fuc3.h ...)
 *   CHIPSET   PMC_BOOT_0 bits 20-28 (envytools rnndb/bus/pmc.xml ID.CHIPSET; docs/hw/gpu.rst "id")
 *   PCI_DEV   PCI device ID of the board in the description (vendor 0x10de), as envytools
 *             docs/hw/pciid.rst lists it (the pci.ids database agrees): GTX 480 0x06c0, GT 620M 0x1140,
 *             GTX 680 0x1180, GTX Titan 0x1005, GT 640 Rev. 2 0x1282
 *   GPCS      GPCs of the full chip: the largest gpu0.gpcs allowed (docs/hw/gpu.rst "GPCs")
 *   TPCS      TPCs (SMs / SMXs) per GPC (docs/hw/gpu.rst "TPCs/GPC")
 *   PARTS     memory partitions (ROPs), read by the HUB firmware at 0x409604 bits 16-20 (gpu.rst "PARTs")
 *   PPCS      PPC units per GPC (gpu.rst "PPCs/GPC"); the GPC firmware probes each one's TPC mask at
 *             GPC unit 0xc30 + 4 * n (nouveau gr/gf100.c gf100_gr_oneinit, gpc.fuc "init_unk_loop")
 *   CC        context-controller generation cc0..cc3 (envytools docs/hw/graph/fermi/ctxctl/intro.rst)
 *   FUC       Falcon version of the context controllers: UC_CAPS2 bits 0-3 (intro.rst "Version")
 *   HUB_CODE, HUB_DATA, GPC_CODE, GPC_DATA   segment sizes in bytes, reported by UC_CAPS (intro.rst)
 *   CC_SET    offset of CC_SCRATCH_SET[0] in a context controller's window: 0x820, from GK110 on 0x8c0
 *             (nouveau gr/fuc/macros.fuc, "#if CHIPSET < GK110"; envytools ctxctl.xml has 0x8c0 from
 *             GM107 on: hetvp follows the firmware that runs on it)
 *   UNK86C    offset of the ctx_86c handshake word: 0x86c, from GK110 on 0x88c (macros.fuc)
 *   L1_GLOBAL 1: global loads are cached in L1 by default (Fermi); 0: they bypass L1 and are cached
 *             in L2 only, L1 serving local memory (Kepler GK10x/GK110: NVIDIA Kepler tuning guide,
 *             seeds/kepler_coalescing; docs/kepler.md)
 *   STEPPING  PMC_BOOT_0 bits 0-7: assumption (0xa1, the first production stepping of each) */
/* Hand-aligned tables: never reformatted. */
/* clang-format off */
#ifndef HETVP_GPU_CHIPS_H
#define HETVP_GPU_CHIPS_H

/*  X(NAME,  CHIPSET, PCI_DEV, GPCS, TPCS, PARTS, PPCS, CC, FUC, HUB_CODE, HUB_DATA, GPC_CODE, GPC_DATA, CC_SET, UNK86C, L1_GLOBAL, "description") */
#define HETVP_GPU_CHIPS(X)                                                                                              \
    X(gf100, 0x0c0, 0x06c0, 4, 4, 6, 0, 0, 3, 0x4000, 0x1000, 0x2000, 0x800, 0x820, 0x86c, 1, "Fermi GF100 (GTX 480 class)")     \
    X(gf117, 0x0d7, 0x1140, 1, 2, 1, 1, 0, 3, 0x4000, 0x1000, 0x2000, 0x800, 0x820, 0x86c, 1, "Fermi GF117 (GeForce 6x0M class)") \
    X(gk104, 0x0e4, 0x1180, 4, 2, 4, 1, 1, 3, 0x5000, 0x1000, 0x2800, 0x800, 0x820, 0x86c, 0, "Kepler GK104 (GTX 680 class)")    \
    X(gk110, 0x0f0, 0x1005, 5, 3, 6, 2, 1, 3, 0x5000, 0x1000, 0x2800, 0x800, 0x8c0, 0x88c, 0, "Kepler GK110 (GTX Titan / 780 Ti class)") \
    X(gk208, 0x108, 0x1282, 1, 2, 1, 1, 2, 5, 0x5000, 0x1000, 0x2800, 0x800, 0x8c0, 0x88c, 0, "Kepler GK208 (GT 640 rev. 2 class)")

#define HETVP_GPU_CHIP_STEPPING 0xa1u /* assumption */
#define HETVP_PMC_BOOT_0(chipset) (((unsigned)(chipset) << 20) | HETVP_GPU_CHIP_STEPPING)
#define HETVP_PMC_BOOT_0_CHIPSET(boot0) (((boot0) >> 20) & 0x1ffu)

/* The PPC TPC-mask registers: GPC n, PPC j at BAR0 0x500c30 + n * 0x8000 + 4 * j (nouveau GPC_UNIT). */
#define HETVP_PPC_TPC_MASK_BASE 0x500c30u
#define HETVP_PPC_TPC_MASK_STRIDE 0x8000u

#ifdef __cplusplus
#include <cstdint>
#include <string>
namespace hetvp {
struct GpuChip {
  const char* name;
  uint32_t chipset;
  uint16_t pci_device;
  unsigned gpcs, tpcs, parts, ppcs, cc, fuc;
  uint32_t hub_code, hub_data, gpc_code, gpc_data;
  uint32_t cc_scratch_set, unk86c;
  bool l1_caches_global_loads;
  const char* description;
  uint32_t boot0() const { return HETVP_PMC_BOOT_0(chipset); }
};
#define HETVP_GPU_CHIP_ENTRY(n, id, pci, g, t, p, ppc, cc, fuc, hc, hd, gc, gd, set, u86c, l1, d) \
  {#n, id, pci, g, t, p, ppc, cc, fuc, hc, hd, gc, gd, set, u86c, l1 != 0, d},
inline const GpuChip* gpu_chips_begin() {
  static const GpuChip chips[] = {HETVP_GPU_CHIPS(HETVP_GPU_CHIP_ENTRY)};
  return chips;
}
inline unsigned gpu_chip_count() {
#define HETVP_GPU_CHIP_ONE(...) +1
  return 0 HETVP_GPU_CHIPS(HETVP_GPU_CHIP_ONE);
#undef HETVP_GPU_CHIP_ONE
}
#undef HETVP_GPU_CHIP_ENTRY
/* nullptr: no such chip */
inline const GpuChip* find_gpu_chip(const std::string& name) {
  for (unsigned i = 0; i < gpu_chip_count(); ++i)
    if (name == gpu_chips_begin()[i].name) return &gpu_chips_begin()[i];
  return nullptr;
}
inline const GpuChip* find_gpu_chip_by_boot0(uint32_t boot0) {
  for (unsigned i = 0; i < gpu_chip_count(); ++i)
    if (gpu_chips_begin()[i].chipset == HETVP_PMC_BOOT_0_CHIPSET(boot0)) return &gpu_chips_begin()[i];
  return nullptr;
}
}  // namespace hetvp
#endif

#endif
