// hetvp tests — what a nouveau boot must show, shared by test_falcon_boot.cpp and test_falcon_chips.cpp:
// the GR context size nouveau's firmware computes, derived independently from the chip's extracted
// register lists, and the stop of a boot whose GR registers have no pgraph block.
#pragma once

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "common/run_hetvp.h"

#include "firmware/include/hetvp/compute.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "models/gpu/gr/gf100_lists.h"
#include "models/mcu/falcon/nouveau_fw.h"

namespace hetvp::test {

// The context size hub.fuc/gpc.fuc's init compute, derived from the chip's lists (gf100_lists.h) and
// the HUB image's own list, not from the run (docs/falcon.md "Context size", "Kepler's register lists"):
//   HUB: 256 reserved bytes + its list's mmctx_size (the image's own entries + nouveau's hub pack),
//        rounded to the next 256-byte boundary above, + its strand ((words >> 6) + 1) x 256;
//   GPC: GPC list (gpc_0 + gpc_1) + TPCs x TPC list + PPCs x PPC list (gpc.fuc's unk_count: the PPCs
//        whose TPC mask at 0x500c30 + 4n is not 0, all of the chip's in hetvp), "(size >> 8) + 1"
//        units of 256, + its strand.
// mmctx_size (com.fuc) counts 4 x (1 + (word >> 26)) bytes per list word.
// The configurations build every block (context switching): the strands are then the gr block's units'
// (the HUB's one empty strand, each GPC's strand 0 = the compute front end's per-GPC context words) and
// the HUB list gains the compute front end's context runs (sw/driver/falcon_ctx_lists.cpp); boot only
// (`gr = false`, no compute block) the controllers answer from YAML strand_words.
inline long expected_context_size(const std::string& chip, unsigned gpcs, bool gr_block = true,
                                  unsigned strand_words = 0x40) {
  namespace gr = hetvp::gpu::gr;
  const auto& l = gr::gr_lists(chip);
  const auto& hub = hetvp::mcu::falcon::nouveau_firmware(chip).hub;
  const hetvp::GpuChip& c = *hetvp::find_gpu_chip(chip);
  uint32_t image_list = 0;  // D[0] = head, D[4] = tail (hub.fuc hub_mmio_list_head/tail)
  for (uint32_t a = hub.data[0]; a < hub.data[1]; a += 4) image_list += 4 * (1 + (hub.data[a / 4] >> 26));
  uint32_t hub_list = image_list + gr::mmctx_bytes(gr::csdata_words(l.pack("hub"), 0));
  unsigned gpc_strand_words = 0;
#define HETVP_TEST_CMP(off, count) hub_list += 4 * (count);
#define HETVP_TEST_GPC(off, count) gpc_strand_words += (count);
  if (gr_block) {
    HETVP_COMPUTE_CTX_REGS(HETVP_TEST_CMP)
    HETVP_COMPUTE_GPC_CTX_REGS(HETVP_TEST_GPC)
  }
#undef HETVP_TEST_CMP
#undef HETVP_TEST_GPC
  const uint32_t gpc_list = gr::mmctx_bytes(gr::csdata_words(l.pack("gpc_0"), 0x418000)) +
                            gr::mmctx_bytes(gr::csdata_words(l.pack("gpc_1"), 0x418000));
  const uint32_t tpc_list = gr::mmctx_bytes(gr::csdata_words(l.pack("tpc"), 0x419800));
  const uint32_t ppc_list = c.ppcs ? gr::mmctx_bytes(gr::csdata_words(l.pack("ppc"), 0x41be00)) : 0;  // GF100: none
  auto strand = [](unsigned words) { return long((words >> 6) + 1) * 256; };
  const long hub_part = ((256 + hub_list) / 256 + 1) * 256 + (gr_block ? strand(0) : strand(strand_words));
  const long gpc_part = ((gpc_list + c.tpcs * tpc_list + c.ppcs * ppc_list) / 256 + 1) * 256 +
                        (gr_block ? strand(gpc_strand_words) : strand(strand_words));
  return hub_part + long(gpcs) * gpc_part;
}

// A boot without the pgraph block: the driver's first write of the chip's mmio pack fails, the
// message names that word's BAR0 offset (BAR0 is 16 MiB-aligned: the host address ends in the
// offset's six hex digits), the pack and the missing block, and no firmware reached init-done.
inline void expect_stop_at_first_mmio_word(const RunResult& r, const std::string& chip, const std::string& named) {
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const auto& mmio = hetvp::gpu::gr::gr_lists(chip).pack("mmio");
  char first[32];
  std::snprintf(first, sizeof first, "%06x failed", mmio.rows[0].inits[0].addr);
  const std::string all = r.out + r.err;
  const size_t at = all.find("nouveau boot: gf100_gr_init's mmio list: uncached store of 4 bytes at 0x");
  ASSERT_NE(at, std::string::npos) << all;
  EXPECT_EQ(all.find(first, at), all.find("failed", at) - 7) << all;
  EXPECT_NE(all.find(named), std::string::npos) << named << "\n" << all;
  EXPECT_EQ(all.find("init-done"), std::string::npos) << r.out;
}

}  // namespace hetvp::test
