// nouveau's GF100 firmware switching GR contexts on the Falcon controllers (issue #24), through the
// `hetvp` program: gpu_bench on configs/gf100_nouveau.yaml against configs/default.yaml (hetvp's RV32
// firmware), the same hardware (the gr block's units) under both; the bad inputs of the switch path.
#include "common/run_hetvp.h"
#include "common/stats_json.h"
#include "models/mcu/falcon/nouveau_fw.h"

#include <gtest/gtest.h>

#include <regex>

using namespace hetvp::test;

namespace {

std::string bench(const std::string& cfg, const std::string& extra) {
  return "run " + config(cfg) + " --workload gpu_bench " + extra;
}

#define NEED_NOUVEAU()                                               \
  do {                                                               \
    const auto& fw = hetvp::mcu::falcon::nouveau_gf100();            \
    if (!fw.available) GTEST_SKIP() << fw.reason;                    \
  } while (0)

}  // namespace

// The command: switches done by nouveau's firmware (the HUB Falcon took every CHSW
// interrupt and acknowledged it), and the bytes its engines and xfers moved are the context's layout.
TEST(FalconCtxsw, Madd4ContextsAreSwitchedByNouveausFirmware) {
  NEED_NOUVEAU();
  const std::string stats = scratch() + "/nv_madd4.json";
  auto r = run_hetvp(
      bench("gf100_nouveau.yaml", "--set workload.args.program=madd --set workload.args.contexts=4 --stats " + stats),
      120);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("every result correct"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
  const std::string s = read_file(stats);
  const double switches = stats_number(s, {"gr", "switches"});
  EXPECT_GT(switches, 0) << s;
  // Each switch reached the HUB Falcon as its CHSW interrupt (line 8), and the golden save was the
  // host's forced unload (ctxgf100.c): one ACK with no switch pending.
  EXPECT_EQ(stats_number(s, {"microcontrollers", "hub", "chsw_irqs"}), switches);
  EXPECT_EQ(stats_number(s, {"hub_ctxsw", "forced_unloads"}), 1);
  // The HUB's cycles per switch (measured by the controller, CHSW interrupt to ACK) reach the unit's
  // statistics for the switches only, not for the golden unload.
  EXPECT_EQ(stats_number(s, {"hub_ctxsw", "fw_cycles_total"}),
            stats_number(s, {"microcontrollers", "hub", "chsw_cycles"}));
  EXPECT_GT(stats_number(s, {"hub_ctxsw", "fw_cycles_min"}), 1000);
  // Switches alike (the same lists, the same channel layout) take alike cycle counts: GF100's lists
  // make each about 10-15 thousand HUB cycles; none is an outlier of several times the shortest.
  EXPECT_LT(stats_number(s, {"hub_ctxsw", "fw_cycles_max"}), 2 * stats_number(s, {"hub_ctxsw", "fw_cycles_min"}));
  EXPECT_EQ(stats_number(s, {"hub_ctxsw", "errors"}), 0);
  // Every load (the switches, and the golden set-channel) fetched inst + 0x210 (16 bytes, VRAM) and the
  // 256-byte header (VM) with xdld.
  const double loads = stats_number(s, {"hub_ctxsw", "chan_loads"});
  EXPECT_EQ(loads, switches + 1);
  EXPECT_EQ(stats_number(s, {"microcontrollers", "hub", "xfer_bytes"}), loads * (16 + 256));
  // One strand command per save or load on the HUB; saves = those minus the switches' loads.
  const double saves = stats_number(s, {"hub_ctxsw", "strand_commands"}) - switches;
  ASSERT_GT(saves, 0);
  const double hub = stats_number(s, {"hub_ctxsw", "mmctx_save_bytes"}) / saves;
  const double gpc_mmctx = stats_number(s, {"gpc0_ctxsw", "mmctx_save_bytes"}) / saves;
  const double gpc_strand = stats_number(s, {"gpc0_ctxsw", "strand_save_bytes"}) / saves;
  EXPECT_EQ(stats_number(s, {"hub_ctxsw", "mmctx_load_bytes"}),
            stats_number(s, {"hub_ctxsw", "mmctx_save_bytes"}) / saves * switches);
  // The layout the firmware computed at init (hub.fuc/gpc.fuc, 256-byte units): the reserved header,
  // the HUB's list, its (empty) strand, then per GPC its lists and its strand.
  auto units = [](double bytes) { return (uint64_t(bytes) / 256 + 1) * 256; };
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("context size ([0-9]+) bytes")));
  EXPECT_EQ(units(256 + hub) + 256 + 4 * (units(gpc_mmctx) + units(gpc_strand)), std::stoull(m[1])) << s;
  EXPECT_GE(hub, 23 * 4) << "at least the compute front end's 23 context words (falcon_ctx_lists.cpp)";
  EXPECT_EQ(gpc_strand, 3 * 4) << "CB_LO/HI/SIZE";
}

// Both firmwares, every program of the issue, one and four contexts: every result right, and the
// same GR switches (the FIFO's schedule does not depend on which firmware switches).
TEST(FalconCtxsw, EveryProgramPassesItsSelfCheckUnderBothFirmwares) {
  NEED_NOUVEAU();
  for (const char* prog : {"madd", "fmadd", "mmul", "memcpy"})
    for (const char* contexts : {"1", "4"}) {
      std::string switches[2];
      int i = 0;
      for (const char* cfg : {"default.yaml", "gf100_nouveau.yaml"}) {
        auto r = run_hetvp(bench(cfg, std::string("--set workload.args.program=") + prog +
                                          " --set workload.args.contexts=" + contexts),
                           120);
        EXPECT_EQ(r.status, 0) << cfg << " " << prog << " " << contexts << r.out << r.err;
        EXPECT_NE(r.out.find("every result correct"), std::string::npos) << cfg << " " << prog << r.out;
        std::smatch m;
        ASSERT_TRUE(std::regex_search(r.out, m, std::regex("([0-9]+) GR context switches"))) << r.out;
        switches[i++] = m[1];
      }
      EXPECT_GT(std::stoi(switches[0]), 0) << prog << " " << contexts;
      EXPECT_EQ(switches[0], switches[1]) << prog << " " << contexts;
    }
}

// Switch-heavy: 8 contexts with 2 us time slices; the same switch count under both firmwares.
TEST(FalconCtxsw, SwitchHeavyRunPassesUnderBothFirmwares) {
  NEED_NOUVEAU();
  for (const char* cfg : {"default.yaml", "gf100_nouveau.yaml"}) {
    auto r = run_hetvp(bench(cfg, "--set workload.args.program=loop --set workload.args.contexts=8 "
                                  "--set workload.args.runs=2 --set gpu0.fifo.timeslice=2us"),
                       120);
    ASSERT_EQ(r.status, 0) << cfg << r.out << r.err;
    EXPECT_NE(r.out.find("every result correct"), std::string::npos) << cfg << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("([0-9]+) GR context switches"))) << r.out;
    EXPECT_GT(std::stoi(m[1]), 16) << cfg << ": time slices force switches beyond one per context and run";
  }
}

// The test-only fault that skips one register's restore is caught by the self-check under nouveau's
// firmware too: the MMCTX engine is the same.
TEST(FalconCtxsw, SkippedRestoreIsCaughtUnderNouveausFirmware) {
  NEED_NOUVEAU();
  auto r = run_hetvp(bench("gf100_nouveau.yaml", "--set workload.args.program=loop --set workload.args.contexts=2 "
                                                 "--set gpu0.gr.test_skip_restore=ARG2"),
                     120);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("gpu_bench: 1 of 1 run(s) failed the self-check; first: run 0: context 0: loop element 0"),
            std::string::npos)
      << r.out << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << "nothing else failed: " << r.err;
}

// A GPC whose strand engine never finishes: the HUB's wait for its done (DONE_BAR) is the poll
// watchdog's, naming the GPC, within a bounded simulated time; the driver's wait ends with it.
TEST(FalconCtxsw, StuckGpcIsNamedByTheHubsWatchdog) {
  NEED_NOUVEAU();
  auto r = run_hetvp(bench("gf100_nouveau.yaml", "--set workload.args.contexts=2 --set gpu0.gr.test_stuck_gpc=2"), 120);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("gpu0.hub at pc 0x0134 polled SIGNAL waiting for DONE_BAR: no done from GPC 2 (BAR 0xb, "
                     "BAR_MASK0 0xf) 100000 times without progress"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("nouveau firmware: save (a CHSW with no next channel): the HUB Falcon stopped"), std::string::npos)
      << all;
  // Bounded: the watchdog, not the FIFO's 10 ms chsw_timeout, ends it (the golden context's save is
  // the first transfer, about 1.3 ms into the run with GF100's lists).
  std::smatch m;
  ASSERT_TRUE(std::regex_search(all, m, std::regex("simulated ([0-9.]+) (us|ms)"))) << all;
  const double us = std::stod(m[1]) * (m[2] == "ms" ? 1000.0 : 1.0);
  EXPECT_LT(us, 10000.0) << all;
  EXPECT_EQ(std::regex_search(all, std::regex("warning: (?!gpu0.hub at pc 0x0134)")), false) << all;
}

// A context buffer the firmware cannot reach (an instance block naming an unmapped virtual address):
// the xdld of its header faults in the MMU, the HUB stops naming the transfer, and the unit fails the
// switch at once naming the channel, without the FIFO's 10 ms timeout. Under hetvp's firmware the same
// pointer is not a VRAM address: the firmware reports it.
TEST(FalconCtxsw, UnreachableContextBufferIsANamedError) {
  NEED_NOUVEAU();
  const std::string args = "--set workload.args.contexts=2 --set workload.args.gdev.test_unmapped_context=true";
  // Channel 1's instance block sits after channel 0's and its module image (gpu_bench loads the
  // kernels' module into each context before the switch).
  auto r = run_hetvp(bench("gf100_nouveau.yaml", args), 120);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("FAILED: gpu0.gr_hub: context switch to channel 1 (instance block at VRAM 0x100b000, CHAN_NEXT "
                     "0x8000100b) failed: the HUB firmware reports the HUB controller stopped during the switch (code "
                     "9); last engine error: gpu0.gr_hub: xfer of 256 bytes at virtual address 0xf000000000 in the "
                     "space of the channel at instance block 0x100b000 failed (unmapped: MMU fault)"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("gpu0.hub: xdld at pc 0x09ab"), std::string::npos) << all;
  EXPECT_EQ(all.find("chsw_timeout"), std::string::npos) << all;
  // Nothing else failed: the four warnings are the chain (MMU fault, the unit's xfer, the HUB's stop,
  // the failed switch).
  size_t warnings = 0;
  for (size_t at = all.find("warning: "); at != std::string::npos; at = all.find("warning: ", at + 1)) ++warnings;
  EXPECT_EQ(warnings, 4u) << all;
  EXPECT_NE(all.find("warning: gpu0.mmu: read at GPU virtual address 0xf000000000 by gpu0.gr_hub: no page directory "
                     "entry (in the address space of channel 1 (instance 0x100b000))"),
            std::string::npos)
      << all;
  auto h = run_hetvp(bench("default.yaml", args), 120);
  EXPECT_EQ(h.status, 1) << h.out << h.err;
  EXPECT_NE((h.out + h.err).find("failed: the HUB firmware reports context pointer not a 256-byte aligned VRAM address "
                                 "inside VRAM (code 2)"),
            std::string::npos)
      << h.out << h.err;
}

// As hetvp's firmware's (test_quantum.cpp): the run times under nouveau's firmware do not depend on
// the quantum (within 1 %; at 10 ns, 1 us and 10 us they are identical to the ns, at 100 us the
// first run moves by 1 us), nor do the switch count and the results.
TEST(FalconCtxsw, RunTimesDoNotDependOnTheQuantum) {
  NEED_NOUVEAU();
  double first0 = 0, median0 = 0;
  std::string switches0;
  for (const char* q : {"10ns", "1us", "10us"}) {
    auto r = run_hetvp(bench("gf100_nouveau.yaml", std::string("--set workload.args.program=madd --set "
                                                               "workload.args.contexts=4 --set workload.args.runs=3 "
                                                               "--set simulation.quantum=") +
                                                       q),
                       120);
    ASSERT_EQ(r.status, 0) << q << r.out << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(
        r.out, m, std::regex("first run ([0-9.]+) us, median of the others ([0-9.]+) us, ([0-9]+) GR context switches")))
        << r.out;
    if (switches0.empty()) {
      first0 = std::stod(m[1]);
      median0 = std::stod(m[2]);
      switches0 = m[3];
      continue;
    }
    EXPECT_NEAR(std::stod(m[1]), first0, first0 * 0.01) << q;
    EXPECT_NEAR(std::stod(m[2]), median0, median0 * 0.01) << q;
    EXPECT_EQ(m[3], switches0) << q;
    EXPECT_NE(r.out.find("every result correct"), std::string::npos) << q << r.out;
  }
}

// The other chips' images switch contexts too: their configurations build the FIFO, the gr block and the
// compute front end (moved as in gf100_nouveau.yaml); GK208's is Falcon v5 code. Their lists are the
// chip's own (the pgraph block serves them, PPC words included).
TEST(FalconCtxsw, EveryChipsImagesSwitchContexts) {
  NEED_NOUVEAU();
  for (const char* chip : {"gf117", "gk104", "gk110", "gk208"}) {
    auto r = run_hetvp(bench(std::string(chip) + "_nouveau.yaml",
                             "--set workload.args.contexts=4"),
                       120);
    ASSERT_EQ(r.status, 0) << chip << r.out << r.err;
    // Gdev's sequence with 4 contexts: each takes GR at cuCtxCreate, at its parameters and at its
    // launch, the first of them a load only: 3 x 4 - 1 (docs/contexts.md, "gpu_bench").
    EXPECT_NE(r.out.find("11 GR context switches"), std::string::npos) << chip << r.out;
    EXPECT_NE(r.out.find("every result correct"), std::string::npos) << chip << r.out;
    EXPECT_EQ(r.err.find("warning"), std::string::npos) << chip << r.err;
  }
}

// A per-channel mmio list (gdev.gr_mmio): nouveau's firmware fetches it (xdld, in the channel's VM) and
// writes its entries through the MMIO bridge at each channel's first load only, then disables it by
// storing the context header back with a count of 0 (xdst): per channel one extra xdld and one xdst
// of 256 bytes and one bridge write per entry, whatever the number of switches. hetvp's firmware has
// no such list: the runtime refuses it, named.
TEST(FalconCtxsw, PerChannelMmioListRunsOnceAtEachChannelsFirstLoad) {
  NEED_NOUVEAU();
  auto hub_stat = [](const std::string& s, const char* key) {
    return stats_number(s, {"microcontrollers", "hub", key});
  };
  const std::string plain = scratch() + "/mmio0.json", with = scratch() + "/mmio2.json";
  auto a = run_hetvp(bench("gf100_nouveau.yaml", "--set workload.args.contexts=4 --set workload.args.runs=2 --stats " + plain), 120);
  auto b = run_hetvp(bench("gf100_nouveau.yaml", "--set workload.args.contexts=4 --set workload.args.runs=2 --set "
                                                 "'workload.args.gdev.gr_mmio=[[0x408a14, 0x77], [0x17e920, 5]]' --stats " +
                                                     with),
                     120);
  ASSERT_EQ(a.status, 0) << a.out << a.err;
  ASSERT_EQ(b.status, 0) << b.out << b.err;
  EXPECT_TRUE(std::regex_search(b.out, std::regex("22 GR context switches, golden context [0-9.]+ us, every result correct")))
      << b.out;
  const std::string sa = read_file(plain), sb = read_file(with);
  const double channels = 8;  // 4 contexts x 2 runs, each a new channel
  EXPECT_EQ(hub_stat(sb, "xfers") - hub_stat(sa, "xfers"), 2 * channels);
  EXPECT_EQ(hub_stat(sb, "xfer_bytes") - hub_stat(sa, "xfer_bytes"), 2 * 256 * channels);
  EXPECT_EQ(hub_stat(sb, "bridge_writes") - hub_stat(sa, "bridge_writes"), 2 * channels);
  auto h = run_hetvp(bench("default.yaml", "--set workload.args.contexts=2 --set 'workload.args.gdev.gr_mmio=[[0x408a14, 1]]'"), 120);
  EXPECT_EQ(h.status, 1) << h.out << h.err;
  EXPECT_NE((h.out + h.err).find("ctx_create: gdev.gr_mmio needs a firmware with a per-channel mmio list (nouveau's); "
                                 "hetvp firmware here"),
            std::string::npos)
      << h.out << h.err;
  // Malformed lists: located errors naming the key.
  for (auto [value, msg] : {std::pair<const char*, const char*>{"[[0x408a16, 1]]", "address 0x408a16 is not 4-byte aligned"},
                            {"[0x408a14]", "each entry is [BAR0 address, value]"},
                            {nullptr, "513 entries, more than a channel's mmio list holds (512: one 4 KiB page"}}) {
    std::string list = value ? value : "";
    if (!value) {  // one entry beyond nouveau's per-channel list
      list = "[";
      for (int k = 0; k < 513; ++k) list += std::string(k ? "," : "") + "[0x408a14," + std::to_string(k) + "]";
      list += "]";
    }
    auto e = run_hetvp(bench("gf100_nouveau.yaml", "--set 'workload.args.gdev.gr_mmio=" + list + "'"), 120);
    EXPECT_NE(e.status, 0) << list;
    EXPECT_NE((e.out + e.err).find(std::string("(--set workload.args.gdev.gr_mmio): ") + msg), std::string::npos)
        << e.out << e.err;
  }
}
