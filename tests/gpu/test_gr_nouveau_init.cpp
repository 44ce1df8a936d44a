// nouveau's GR list writers (sw/driver/gr_nouveau_init.h) on their own: configs/gf100_nouveau.yaml
// (and gk104_nouveau.yaml with GK104's lists)
// in-process, a test program that writes gf100_gr_init's mmio list and gf100_grctx_generate's
// register writes (no firmware is started), then reads back what the pgraph block stored: broadcast
// copies in every GPC and TPC, the method interfaces' last words; precedence of the context
// controllers' PGRAPH word 0x404170; an unlisted PGRAPH address fails the run, named.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "common/run_hetvp.h"
#include "firmware/include/hetvp/gpu_chips.h"
#include "models/gpu/gr/gf100_lists.h"
#include "platform/format.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/driver/gr_nouveau_init.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {

struct GrListWriterArgs : ParamSet {
  Str mode{this, "mode", "golden", "golden | handshake | unlisted | busy"};
  Str chip{this, "chip", "gf100", "whose lists: gf100 | gf117 | gk104 | gk110 | gk208"};
};

class GrListWriter : public ProgramWithArgs<GrListWriterArgs> {
 public:
  int run(HostApi& api, const GrListWriterArgs& args) override {
    GpuDriver drv(api);
    drv.open(0);
    const std::string mode = args.mode;
    if (mode == "unlisted") {
      drv.reg_write(0x404000, 1);  // PGRAPH, in no list, no model
      return 0;
    }
    if (mode == "handshake") {  // the falcon block's word wins over the register file
      drv.reg_write(0x404170, 0x12);
      const uint32_t v = drv.reg_read(0x404170);
      if (v != 0x02) throw HostError(format("0x404170 reads 0x%x, the ctxctl's handshake reads 0x2", v));
      api.log("0x404170 served by the context controllers' handshake word");
      return 0;
    }
    if (mode == "busy") {  // PGRAPH_STATUS stored with bit 2 set: the icmd poll must give up, named
      drv.reg_write(0x400700, 0x4);
      gf100_grctx_generate_writes(drv, 50);
      return 0;
    }
    const std::string chip = args.chip;
    const auto& l = gpu::gr::gr_lists(chip);
    const GpuChip& c = *find_gpu_chip(chip);
    const double t0 = api.now().to_seconds();
    const size_t mmio = gr_init_mmio(drv, chip);
    const GrctxWrites w = gf100_grctx_generate_writes(drv, l);
    api.log(format("mmio %zu words; golden writes: %zu BAR0 words, %zu icmd, %zu mthd methods, %zu accesses, %.1f us",
                   mmio, w.mmio_words, w.icmd_methods, w.mthd_methods, w.bar0_accesses,
                   (api.now().to_seconds() - t0) * 1e6));
    // What nouveau's lists wrote, read back per GPC / TPC through the unicast addresses.
    std::string bad;
    auto expect = [&](uint32_t addr, uint32_t want) {
      const uint32_t v = drv.reg_read(addr);
      if (v != want) bad += format(" 0x%06x=0x%x (want 0x%x)", addr, v, want);
    };
    size_t checked = 0;
    for (unsigned g = 0; g < drv.num_gpcs(); ++g) {
      l.pack("gpc_0").for_each_word([&](uint32_t a, uint32_t d) { expect(0x500000 + g * 0x8000 + (a - 0x418000), d); });
      for (unsigned t = 0; t < c.tpcs; ++t)
        l.pack("tpc").for_each_word(
            [&](uint32_t a, uint32_t d) { expect(0x504000 + g * 0x8000 + t * 0x800 + (a - 0x419800), d); });
      // PPC p of GPC g at 0x503000 + g * 0x8000 + p * 0x200 (nouveau gf100.h PPC_UNIT)
      if (const auto* ppc = l.find("ppc"))
        for (unsigned p = 0; p < c.ppcs; ++p)
          ppc->for_each_word([&](uint32_t a, uint32_t d) {
            expect(0x503000 + g * 0x8000 + p * 0x200 + (a - 0x41be00), d);
            ++checked;
          });
    }
    api.log(format("%zu PPC copies checked", checked));
    return bad.empty() ? 0 : (api.log("wrong:" + bad), 1);
  }
};
HETVP_REGISTER_PROGRAM("test_gr_list_writer", GrListWriter, "test: nouveau's GR list writers on a chip's lists");

struct Outcome {
  int code;
  std::string out, err;
};
Outcome run(const std::string& mode, std::vector<std::string> extra = {}, const std::string& chip = "gf100") {
  RunOptions opt;
  opt.config = test::config(chip + "_nouveau.yaml");
  opt.workload = "test_gr_list_writer";
  opt.overrides = {"workload.args.mode=" + mode, "workload.args.chip=" + chip};
  for (auto& e : extra) opt.overrides.push_back(e);
  std::ostringstream out, err;
  const int code = run_platform(opt, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST(GrNouveauInit, ListWritesReachEveryGpcAndTpcCopy) {
  if (!gpu::gr::gf100_lists().available) GTEST_SKIP() << gpu::gr::gf100_lists().reason;
  Outcome o = run("golden", {"gpu0.gpcs=2"});
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  // counts from the lists themselves (gf100_lists.h), not pasted from the output
  const auto& l = gpu::gr::gf100_lists();
  const size_t bar0 = l.pack("hub").words() + l.pack("gpc_0").words() + l.pack("zcull").words() +
                      l.pack("gpc_1").words() + l.pack("tpc").words();
  EXPECT_NE(o.out.find(format("mmio %zu words; golden writes: %zu BAR0 words, %zu icmd, %zu mthd methods",
                              l.pack("mmio").words(), bar0, l.pack("icmd").words(), l.pack("mthd").words())),
            std::string::npos)
      << o.out;
  EXPECT_EQ(o.err.find("unmodelled"), std::string::npos) << o.err;
  const size_t at = o.out.find("mmio ");
  if (at != std::string::npos) std::cout << o.out.substr(at, o.out.find('\n', at) - at) << "\n";
}

// The same writer on GK104's lists (chip-generic): the ppc pack is written after tpc, and every PPC
// of every GPC holds its words.
TEST(GrNouveauInit, Gk104ListWritesReachEveryPpcCopy) {
  const auto& l = gpu::gr::gr_lists("gk104");
  if (!l.available) GTEST_SKIP() << l.reason;
  Outcome o = run("golden", {"gpu0.gpcs=3"}, "gk104");
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  const size_t bar0 = l.pack("hub").words() + l.pack("gpc_0").words() + l.pack("zcull").words() +
                      l.pack("gpc_1").words() + l.pack("tpc").words() + l.pack("ppc").words();
  EXPECT_NE(o.out.find(format("mmio %zu words; golden writes: %zu BAR0 words, %zu icmd, %zu mthd methods",
                              l.pack("mmio").words(), bar0, l.pack("icmd").words(), l.pack("mthd").words())),
            std::string::npos)
      << o.out;
  // 3 GPCs x 1 PPC (gpu_chips.h) x the ppc pack's words
  EXPECT_NE(o.out.find(format("%zu PPC copies checked", 3 * l.pack("ppc").words())), std::string::npos) << o.out;
  EXPECT_EQ(o.err.find("unmodelled"), std::string::npos) << o.err;
  const size_t at = o.out.find("mmio ");
  if (at != std::string::npos) std::cout << o.out.substr(at, o.out.find('\n', at) - at) << "\n";
}

TEST(GrNouveauInit, ContextControllersPgraphWordTakesPrecedence) {
  if (!gpu::gr::gf100_lists().available) GTEST_SKIP() << gpu::gr::gf100_lists().reason;
  Outcome o = run("handshake");
  ASSERT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("served by the context controllers' handshake word"), std::string::npos) << o.out;
}

TEST(GrNouveauInit, UnlistedPgraphAddressFailsTheRunNamed) {
  if (!gpu::gr::gf100_lists().available) GTEST_SKIP() << gpu::gr::gf100_lists().reason;
  Outcome o = run("unlisted");
  EXPECT_NE(o.code, 0) << o.out << o.err;
  EXPECT_NE((o.out + o.err).find("unmodelled register 0x404000 written by"), std::string::npos) << o.out << o.err;
}

// The register file with hetvp's compute front end at its default 0x404000 (configs/default.yaml +
// pgraph): the overlap is reported at build time, naming the compute window, and compute keeps its
// registers; the register file still serves the listed words outside it and refuses unlisted ones.
namespace {
Outcome mmio_on_default(uint32_t bar0_offset) {
  RunOptions opt;
  opt.config = test::config("default.yaml");
  opt.workload = "mmio";
  opt.overrides = {"gpu0.blocks=compute,copy_engine,fifo,gr,microcontrollers,pgraph", "workload.args.enumerate=true",
                   "workload.args.address=" + std::to_string(0x80000000u + bar0_offset)};
  std::ostringstream out, err;
  const int code = run_platform(opt, out, err);
  return {code, out.str(), err.str()};
}
}  // namespace

TEST(PgraphBlock, OverlapWithComputeIsReportedAndComputeKeepsItsWindow) {
  if (!gpu::gr::gf100_lists().available) GTEST_SKIP() << gpu::gr::gf100_lists().reason;
  Outcome o = mmio_on_default(0x404094);  // listed (fe_0) but inside compute's window
  const std::string all = o.out + o.err;
  EXPECT_NE(all.find("listed GF100 GR register(s) from 0x404004 on are served by gpu0.compute.bar0"), std::string::npos)
      << all;
  EXPECT_NE(all.find("compute: read of an unmapped register (offset 0x94"), std::string::npos)
      << "the access reached compute, not the register file\n"
      << all;
  EXPECT_NE(o.code, 0);
}

TEST(PgraphBlock, ListedWordOutsideOtherWindowsIsServedAndUnlistedIsRefused) {
  if (!gpu::gr::gf100_lists().available) GTEST_SKIP() << gpu::gr::gf100_lists().reason;
  Outcome ok = mmio_on_default(0x400080);  // gf100_gr_init_main_0's first word
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("mmio: read32 0x80400080 = 0x0"), std::string::npos) << ok.out;
  Outcome bad = mmio_on_default(0x400000);
  EXPECT_NE(bad.code, 0);
  EXPECT_NE((bad.out + bad.err).find("unmodelled register 0x400000 read by cpu"), std::string::npos)
      << bad.out << bad.err;
  EXPECT_NE((bad.out + bad.err).find("TLM_ADDRESS_ERROR_RESPONSE"), std::string::npos) << bad.out << bad.err;
}

// Bad input: a GR that stays busy. gf100_gr_icmd waits up to 2 s for each method; hetvp's writer
// gives up after poll_limit reads and names the method and the register.
TEST(GrNouveauInit, IcmdPollOfABusyGrEndsNamed) {
  if (!gpu::gr::gf100_lists().available) GTEST_SKIP() << gpu::gr::gf100_lists().reason;
  Outcome o = run("busy");
  EXPECT_NE(o.code, 0) << o.out << o.err;
  const auto& icmd = gpu::gr::gf100_lists().pack("icmd");
  EXPECT_NE((o.out + o.err)
                .find(format("icmd method 0x%06x: PGRAPH_STATUS 0x400700 bit 2 (busy) still set after 50 reads",
                             icmd.rows[0].inits[0].addr)),
            std::string::npos)
      << o.out << o.err;
  EXPECT_EQ((o.out + o.err).find("unmodelled"), std::string::npos) << o.err;
}

// Bad input: another chip's lists on a chip (gpu0.pgraph.lists: gf100 on gk104) is a located config error.
TEST(PgraphBlock, AnotherChipsListsAreALocatedConfigError) {
  RunOptions opt;
  opt.config = test::config("gk104_nouveau.yaml");
  opt.workload = "boot";
  opt.overrides = {"gpu0.pgraph.lists=gf100"};
  std::ostringstream out, err;
  const int code = run_platform(opt, out, err);
  EXPECT_EQ(code, 2) << out.str() << err.str();
  EXPECT_NE(err.str().find("gpu0.pgraph.lists"), std::string::npos) << err.str();
  EXPECT_NE(err.str().find("gf100's register lists on chip gk104 (" + test::config("gk104_nouveau.yaml")),
            std::string::npos)
      << err.str();
}
