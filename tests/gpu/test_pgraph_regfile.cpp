// The PGRAPH register file (models/gpu/gr/pgraph_regfile.h) by itself, on hand-made lists: stores
// and returns, broadcast fan-out (GPC and TPC), the unmodelled-register error; GF100's extracted
// lists and the Kepler/GF117 ones (gf100_lists.h) against entries read by hand from nouveau's source;
// PPC units; csdata's run format.
#include <gtest/gtest.h>

#include <systemc>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "models/gpu/gr/gf100_lists.h"
#include "models/gpu/gr/pgraph_regfile.h"

using namespace hetvp;
using namespace hetvp::gpu::gr;
using sc_core::sc_time;

namespace {
// hub 0x404004 and 0x404008; GPC 0x418380; TPC 0x419a00, 0x419a04 (2 words of one entry)
const GrInit kHub[] = {{0x404004, 2, 4, 0x11}};
const GrInit kGpc[] = {{0x418380, 1, 4, 0x16}};
const GrInit kTpc[] = {{0x419a00, 2, 4, 0x1f0}};
const GrPackRow kRows[] = {{"hub", 0, kHub, 1}, {"gpc", 0, kGpc, 1}, {"tpc", 0, kTpc, 1}};
const GrPack kPack = {"test", "test", kRows, 3};

// 2 GPCs of 3 TPCs, the words above and one extra (0x400700)
struct Bench {
  PgraphRegfile file{"pgraph", 2, 3, {&kPack}, {0x400700}};
  test::TestInitiator host;
  explicit Bench(std::function<void(test::TestInitiator&)> body) : host("host", std::move(body)) {
    host.socket.bind(file.regs);
  }
};
}  // namespace

TEST(PgraphRegfile, StoresAndReturnsListedWordsResetZero) {
  uint32_t before = 1, after = 0, extra = 1;
  tlm::tlm_response_status st = tlm::TLM_INCOMPLETE_RESPONSE;
  Bench b([&](test::TestInitiator& h) {
    sc_time d;
    h.read32(0x404008, before, d);
    st = h.write32(0x404008, 0xdeadbeef, d);
    h.read32(0x404008, after, d);
    h.read32(0x400700, extra, d);
  });
  sc_core::sc_start();
  EXPECT_EQ(before, 0u) << "reset value: 0 (assumption, pgraph_regfile.h)";
  EXPECT_EQ(st, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(after, 0xdeadbeefu);
  EXPECT_EQ(extra, 0u);
  EXPECT_EQ(b.file.writes, 1u);
  EXPECT_EQ(b.file.hub_words(), 3u);  // 0x404004, 0x404008, 0x400700
}

TEST(PgraphRegfile, BroadcastWritesReachEveryGpcAndTpcReadsReturnTheFirst) {
  std::vector<uint32_t> gpc(2), tpc(6);
  uint32_t bcast_read = 0, gpc1_tpc_bcast = 0;
  Bench b([&](test::TestInitiator& h) {
    sc_time d;
    h.write32(0x418380, 0x16, d);  // GPC broadcast
    h.write32(0x419a04, 0x77, d);  // TPC broadcast: every TPC of every GPC
    for (unsigned g = 0; g < 2; ++g) {
      h.read32(0x500380 + g * 0x8000, gpc[g], d);
      for (unsigned t = 0; t < 3; ++t) h.read32(0x504204 + g * 0x8000 + t * 0x800, tpc[g * 3 + t], d);
    }
    h.write32(0x500380 + 0x8000, 0x99, d);  // GPC 1's own copy only
    h.read32(0x418380, bcast_read, d);      // GPC 0's
    h.write32(0x509a04, 0x55, d);           // GPC 1's TPC broadcast (0x501800 + 0x204 + 0x8000)
    h.read32(0x50d204, gpc1_tpc_bcast, d);  // GPC 1, TPC 2
  });
  sc_core::sc_start();
  for (unsigned g = 0; g < 2; ++g) EXPECT_EQ(gpc[g], 0x16u) << "GPC " << g;
  for (unsigned i = 0; i < 6; ++i) EXPECT_EQ(tpc[i], 0x77u) << "GPC " << i / 3 << " TPC " << i % 3;
  EXPECT_EQ(bcast_read, 0x16u) << "a broadcast read returns GPC 0's copy, not GPC 1's 0x99";
  EXPECT_EQ(gpc1_tpc_bcast, 0x55u);
  uint32_t v = 0;
  ASSERT_TRUE(b.file.peek(0x504204, v));
  EXPECT_EQ(v, 0x77u) << "GPC 0's TPCs keep the global broadcast's value";
  EXPECT_EQ(b.file.broadcast_writes, 3u);
}

TEST(PgraphRegfile, UnlistedAddressInTheWindowIsAnUnmodelledRegisterError) {
  tlm::tlm_response_status rd = tlm::TLM_OK_RESPONSE, wr = tlm::TLM_OK_RESPONSE, tpc3 = tlm::TLM_OK_RESPONSE;
  Bench b([&](test::TestInitiator& h) {
    sc_time d;
    uint32_t v;
    rd = h.read32(0x404000, v, d);    // in the hub window, in no list
    wr = h.write32(0x418384, 1, d);   // GPC broadcast, not listed
    tpc3 = h.read32(0x505a00, v, d);  // TPC 3 of a 3-TPC GPC
  });
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  sc_core::sc_start();
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  EXPECT_EQ(rd, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(wr, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(tpc3, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_NE(out.find("unmodelled register 0x404000 read by test"), std::string::npos) << out;
  EXPECT_NE(out.find("unmodelled register 0x418384 written by test"), std::string::npos) << out;
  EXPECT_EQ(b.file.errors, 3u);
  EXPECT_FALSE(b.file.accepts(0x505a00));
  EXPECT_TRUE(b.file.accepts(0x504200 + 2 * 0x800 + 0x8000));
}

TEST(PgraphRegfile, ListedAddressOutsideThePgraphRangesIsRefusedAtConstruction) {
  const GrInit bad[] = {{0x41be00, 1, 4, 0}};
  const GrPackRow rows[] = {{"ppc", 0, bad, 1}};
  const GrPack p = {"ppc", "test", rows, 1};
  try {
    PgraphRegfile f("pgraph", 1, 1, {&p}, {});
    FAIL() << "accepted 0x41be00";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pack ppc names 0x41be00"), std::string::npos) << e.what();
  }
}

// Runs of consecutive words across entries, at most 32 per run, and nothing shared between packs.
TEST(Gf100Lists, CsdataWordsFollowNouveausRunFormat) {
  const GrInit a[] = {{0x418000, 3, 4, 0}, {0x41800c, 1, 4, 0}, {0x418100, 40, 4, 0}, {0x418300, 1, 4, 0}};
  const GrPackRow rows[] = {{"a", 0, a, 4}};
  const GrPack p = {"a", "test", rows, 1};
  const auto w = csdata_words(p, 0x418000);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_EQ(w[0], 3u << 26 | 0x000);   // 0x418000..0x41800c: one run of 4
  EXPECT_EQ(w[1], 31u << 26 | 0x100);  // 40 words: 32 ...
  EXPECT_EQ(w[2], 7u << 26 | 0x180);   // ... + 8
  EXPECT_EQ(w[3], 0u << 26 | 0x300);
  EXPECT_EQ(mmctx_bytes(w), 4u * (4 + 40 + 1));
  EXPECT_EQ(p.entries(), 4u);
  EXPECT_EQ(p.words(), 45u);
}

// The extraction against entries read by hand from Debian's linux-source-6.1 (the pinned files).
TEST(Gf100Lists, ExtractedPacksMatchEntriesReadFromNouveausSource) {
  const auto& l = gf100_lists();
  if (!l.available) GTEST_SKIP() << l.reason;
  for (const char* n : {"hub", "gpc_0", "gpc_1", "zcull", "tpc", "icmd", "mthd", "mmio"})
    EXPECT_NE(l.find(n), nullptr) << n;
  EXPECT_EQ(l.find("ppc"), nullptr) << "GF100 has no PPC pack";
  const GrPack& hub = l.pack("hub");
  // ctxgf100.c gf100_grctx_pack_hub: main_0, fe_0, pri_0, memfmt_0, ds_0, pd_0, rstr2d_0, scc_0, be_0
  ASSERT_EQ(hub.count, 9u);
  EXPECT_STREQ(hub.rows[0].list, "gf100_grctx_init_main_0");
  EXPECT_EQ(hub.rows[0].inits[0].addr, 0x400204u);
  EXPECT_EQ(hub.rows[0].inits[0].count, 2u);
  EXPECT_STREQ(hub.rows[8].list, "gf100_grctx_init_be_0");
  EXPECT_EQ(hub.rows[8].inits[hub.rows[8].count - 1].addr, 0x408980u);
  EXPECT_EQ(hub.rows[8].inits[hub.rows[8].count - 1].data, 0x0000011du);
  const GrPack& mthd = l.pack("mthd");
  ASSERT_EQ(mthd.count, 4u);
  EXPECT_EQ(mthd.rows[0].type, 0x9097u);
  EXPECT_EQ(mthd.rows[3].type, 0x90c0u);
  const GrPack& mmio = l.pack("mmio");  // gf100.c gf100_gr_pack_mmio: 27 lists, main_0 first, pe_1 last
  ASSERT_EQ(mmio.count, 27u);
  EXPECT_EQ(mmio.rows[0].inits[0].addr, 0x400080u);
  EXPECT_EQ(mmio.rows[0].inits[0].data, 0x003083c2u);
  EXPECT_EQ(mmio.rows[26].inits[0].addr, 0x419880u);
  // every BAR0 pack stays in PGRAPH's hub / GPC / TPC ranges
  for (const char* n : {"gpc_0", "gpc_1", "zcull"})
    l.pack(n).for_each_word(
        [&](uint32_t a, uint32_t) { EXPECT_TRUE(a >= 0x418000 && a < 0x419800) << n << std::hex << a; });
  l.pack("tpc").for_each_word(
      [&](uint32_t a, uint32_t) { EXPECT_TRUE(a >= 0x419800 && a < 0x41a000) << std::hex << a; });
  l.pack("hub").for_each_word(
      [&](uint32_t a, uint32_t) { EXPECT_TRUE(a >= 0x400000 && a < 0x418000) << std::hex << a; });
}

// PPC units (GF117, Kepler): 0x41be00 + r reaches every PPC of every GPC, GPC n's 0x503e00 + r
// (+ n * 0x8000) its own PPCs, 0x503000 + p * 0x200 + r one PPC (nouveau gf100.h PPC_UNIT).
TEST(PgraphRegfile, PpcBroadcastReachesEveryPpcOfEveryGpc) {
  const GrInit ppc[] = {{0x41be24, 1, 4, 6}};
  const GrPackRow rows[] = {{"ppc", 0, ppc, 1}};
  const GrPack p = {"ppc", "test", rows, 1};
  PgraphRegfile file{"pgraph", 2, 2, {&p}, {}, 2};  // 2 GPCs, 2 TPCs, 2 PPCs
  std::vector<uint32_t> all(4), gpc1(4);
  uint32_t bcast_read = 0;
  tlm::tlm_response_status ppc2 = tlm::TLM_OK_RESPONSE;
  test::TestInitiator host("host", [&](test::TestInitiator& h) {
    sc_time d;
    h.write32(0x41be24, 0x6, d);
    for (unsigned i = 0; i < 4; ++i) h.read32(0x503024 + (i / 2) * 0x8000 + (i % 2) * 0x200, all[i], d);
    h.write32(0x50be24, 0x9, d);  // GPC 1's PPC broadcast (0x500000 + 0x8000 + 0x3e00 + 0x24)
    for (unsigned i = 0; i < 4; ++i) h.read32(0x503024 + (i / 2) * 0x8000 + (i % 2) * 0x200, gpc1[i], d);
    h.write32(0x503224, 0x3, d);  // GPC 0, PPC 1 only
    h.read32(0x41be24, bcast_read, d);
    uint32_t v;
    ppc2 = h.read32(0x503424, v, d);  // PPC 2 of a 2-PPC GPC
  });
  host.socket.bind(file.regs);
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  sc_core::sc_start();
  const std::string out = testing::internal::GetCapturedStdout() + testing::internal::GetCapturedStderr();
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(all[i], 0x6u) << "GPC " << i / 2 << " PPC " << i % 2;
  EXPECT_EQ(gpc1[0], 0x6u);
  EXPECT_EQ(gpc1[1], 0x6u);
  EXPECT_EQ(gpc1[2], 0x9u);
  EXPECT_EQ(gpc1[3], 0x9u);
  EXPECT_EQ(bcast_read, 0x6u) << "a broadcast read returns GPC 0 PPC 0's copy";
  uint32_t v = 0;
  ASSERT_TRUE(file.peek(0x503224, v));
  EXPECT_EQ(v, 0x3u);
  EXPECT_EQ(ppc2, tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_NE(out.find("unmodelled register 0x503424 read by"), std::string::npos) << out;
  EXPECT_EQ(file.ppc_words(), 1u);
  EXPECT_EQ(file.broadcast_writes, 2u);
}

TEST(PgraphRegfile, PpcWordOnAChipWithoutPpcsAndAddressOutsideAreRefused) {
  const GrInit ppc[] = {{0x41be24, 1, 4, 6}}, far[] = {{0x420000, 1, 4, 0}};
  const GrPackRow rows[] = {{"ppc", 0, ppc, 1}}, frows[] = {{"far", 0, far, 1}};
  const GrPack p = {"ppc", "test", rows, 1}, f = {"far", "test", frows, 1};
  try {
    PgraphRegfile file("pgraph", 1, 1, {&p}, {}, 0);
    FAIL() << "accepted a PPC word without PPCs";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pack ppc names 0x41be24, a PPC register, but the chip has no PPC units"),
              std::string::npos)
        << e.what();
  }
  try {
    PgraphRegfile file("pgraph", 1, 1, {&f}, {}, 1);
    FAIL() << "accepted 0x420000";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("pack far names 0x420000, outside PGRAPH's"), std::string::npos) << e.what();
  }
}

// The Kepler/GF117 extraction against entries read by hand from Debian's linux-source-6.1 (the pinned
// files): the chips' packs, the arrays they reuse from older chips' files, and the API's errors.
TEST(GrLists, KeplerPacksMatchEntriesReadFromNouveausSource) {
  const auto& k = gr_lists("gk104");
  if (!k.available) GTEST_SKIP() << k.reason;
  for (const char* chip : {"gf117", "gk104", "gk110", "gk208"}) {
    const auto& l = gr_lists(chip);
    ASSERT_TRUE(l.available) << chip << ": " << l.reason;
    for (const char* n : {"hub", "gpc_0", "gpc_1", "zcull", "tpc", "ppc", "icmd", "mthd", "mmio"})
      EXPECT_NE(l.find(n), nullptr) << chip << " " << n;
    // every chip's ppc pack sits in the PPC broadcast range, its tpc pack in the TPC broadcast range
    l.pack("ppc").for_each_word(
        [&](uint32_t a, uint32_t) { EXPECT_TRUE(a >= 0x41be00 && a < 0x41c000) << chip << std::hex << a; });
    l.pack("tpc").for_each_word(
        [&](uint32_t a, uint32_t) { EXPECT_TRUE(a >= 0x419800 && a < 0x41a000) << chip << std::hex << a; });
  }
  // ctxgk104.c gk104_grctx_pack_hub: 11 lists, GF100's main_0 first, GK104's be_0 last
  const GrPack& hub = k.pack("hub");
  ASSERT_EQ(hub.count, 11u);
  EXPECT_STREQ(hub.source, "gk104_grctx_pack_hub");
  EXPECT_STREQ(hub.rows[0].list, "gf100_grctx_init_main_0");
  EXPECT_STREQ(hub.rows[8].list, "gf100_grctx_init_rstr2d_0");
  EXPECT_STREQ(hub.rows[10].list, "gk104_grctx_init_be_0");
  // gk104_grctx_pack_ppc: pes_0 (0x41be24 = 6), cbm_0 (3 words), GF117's wwdx_0
  const GrPack& ppc = k.pack("ppc");
  ASSERT_EQ(ppc.count, 3u);
  EXPECT_EQ(ppc.rows[0].inits[0].addr, 0x41be24u);
  EXPECT_EQ(ppc.rows[0].inits[0].data, 6u);
  ASSERT_EQ(ppc.rows[1].count, 3u);
  EXPECT_EQ(ppc.rows[1].inits[2].addr, 0x41bee4u);
  EXPECT_EQ(ppc.rows[1].inits[2].data, 0x06480430u);
  EXPECT_STREQ(ppc.rows[2].list, "gf117_grctx_init_wwdx_0");
  // gk104_grctx_pack_mthd: a097 (Kepler 3D) and GF100's 902d
  const GrPack& mthd = k.pack("mthd");
  ASSERT_EQ(mthd.count, 2u);
  EXPECT_EQ(mthd.rows[0].type, 0xa097u);
  EXPECT_EQ(mthd.rows[1].type, 0x902du);
  EXPECT_STREQ(mthd.rows[1].list, "gf100_grctx_init_902d_0");
  // gk104.c gk104_gr_pack_mmio: 30 lists, gk104_gr_init_main_0 first (11 entries), gf100_gr_init_fe_1 last
  const GrPack& mmio = k.pack("mmio");
  ASSERT_EQ(mmio.count, 30u);
  ASSERT_EQ(mmio.rows[0].count, 11u);
  EXPECT_EQ(mmio.rows[0].inits[0].addr, 0x400080u);
  EXPECT_EQ(mmio.rows[0].inits[0].data, 0x003083c2u);
  EXPECT_EQ(mmio.rows[0].inits[9].addr, 0x400130u);
  EXPECT_EQ(mmio.rows[0].inits[9].count, 2u);
  EXPECT_STREQ(mmio.rows[10].list, "gf108_gr_init_gpc_unk_0");
  EXPECT_STREQ(mmio.rows[29].list, "gf100_gr_init_fe_1");
  // reuse: GF117's icmd/mthd are GF119's, GK208's mthd is GK110's, every chip's zcull is GF100's
  EXPECT_STREQ(gr_lists("gf117").pack("icmd").source, "gf119_grctx_pack_icmd");
  EXPECT_STREQ(gr_lists("gf117").pack("mthd").source, "gf119_grctx_pack_mthd");
  EXPECT_EQ(gr_lists("gk208").pack("mthd").rows[0].inits, gr_lists("gk110").pack("mthd").rows[0].inits);
  EXPECT_EQ(gr_lists("gk110").pack("zcull").rows[0].inits, gf100_lists().pack("zcull").rows[0].inits)
      << "one table: a reused list is stored once";
  // GK110 has 2 PPCs per GPC; its ppc pack's cbm_0 is its own
  EXPECT_STREQ(gr_lists("gk110").pack("ppc").rows[1].list, "gk110_grctx_init_cbm_0");
}

TEST(GrLists, UnknownChipAndPackAreNamed) {
  const auto& x = gr_lists("gm107");
  EXPECT_FALSE(x.available);
  if (!gf100_lists().available) GTEST_SKIP() << gf100_lists().reason;
  EXPECT_EQ(x.reason,
            "hetvp extracts no GR register lists for chip 'gm107' (it has: gf100, gf117, gk104, gk110, gk208)");
  // every chip gpu0.chip can name (gpu_chips.h) has its lists
  EXPECT_EQ(gr_list_chips().size(), size_t(gpu_chip_count()));
  for (unsigned i = 0; i < gpu_chip_count(); ++i)
    EXPECT_TRUE(gr_lists(gpu_chips_begin()[i].name).available) << gpu_chips_begin()[i].name;
  try {
    gr_lists("gk104").pack("rop");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("gk104 GR register list 'rop' does not exist (packs: hub, gpc_0, gpc_1, "
                                         "zcull, tpc, ppc, icmd, mthd, mmio)"),
              std::string::npos)
        << e.what();
  }
  try {
    x.pack("hub");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("gm107 GR register list 'hub' not available: hetvp extracts no"),
              std::string::npos)
        << e.what();
  }
}
