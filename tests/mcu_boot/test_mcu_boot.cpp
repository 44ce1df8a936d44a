// HUB + GPC microcontrollers inside the platform, driven through `hetvp run/debug/iss`.
#include <gtest/gtest.h>

#include <cstring>
#include <iterator>
#include <vector>
#include <regex>

#include "common/run_hetvp.h"
#include "common/text_match.h"
#include "models/mcu/rv32/standalone.h"
#include "platform/elf_image.h"

using namespace hetvp::test;

namespace {
std::string cfg() { return config("default.yaml"); }
std::string fw(const std::string& n) { return binary_dir() + "/firmware/" + n; }
using hetvp::test::has;
// Extracts a number following `key":` in the stats JSON of the named microcontroller.
double mcu_stat(const std::string& json, const std::string& mcu, const std::string& key) {
  size_t m = json.find("\"microcontrollers\"");
  if (m == std::string::npos) return -1;
  size_t o = json.find("\"" + mcu + "\"", m);
  if (o == std::string::npos) return -1;
  size_t k = json.find("\"" + key + "\":", o);
  if (k == std::string::npos) return -1;
  return std::stod(json.substr(k + key.size() + 3));
}
}  // namespace

TEST(McuBoot, DefaultConfigBootsHubAndFourGpcsWithTimes) {
  auto r = run_hetvp("run " + cfg() + " --workload mcu_boot --stats " + scratch() + "/boot.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(
      std::regex_search(r.out, std::regex(R"(HUB \+ 4 GPCs booted: upload [0-9.]+ us .* init-done at [0-9.]+ us)")))
      << r.out;
  EXPECT_TRUE(has(r.out, "echo answered by HUB + 4 GPCs")) << r.out;
  const std::string j = read_file(scratch() + "/boot.json");
  EXPECT_GT(mcu_stat(j, "hub", "instructions"), 100);
  EXPECT_GE(mcu_stat(j, "gpc3", "wakeups"), 1);  // woke from wfi on the method interrupt
  EXPECT_GE(mcu_stat(j, "gpc3", "commands"), 1);
  EXPECT_GT(mcu_stat(j, "gpc3", "sleep_ns"), 0);
  EXPECT_GT(mcu_stat(j, "hub", "bar0_accesses"), 4);  // PTOP + every GPC's status scratch
}

class McuBootGpcs : public ::testing::TestWithParam<int> {};
TEST_P(McuBootGpcs, BootsWithThisManyGpcs) {
  const int n = GetParam();
  auto r = run_hetvp("run " + cfg() + " --workload mcu_boot --set gpu0.gpcs=" + std::to_string(n));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "HUB + " + std::to_string(n) + " GPCs booted")) << r.out;
  EXPECT_TRUE(has(r.out, "echo answered by HUB + " + std::to_string(n) + " GPCs")) << r.out;
}
INSTANTIATE_TEST_SUITE_P(Counts, McuBootGpcs, ::testing::Values(1, 8, 16));

// The driver sizes firmware against UC_CAPS (256-byte units; data in 8 bits): the largest sizes
// the schema allows must be reported exactly, and larger ones refused before the simulation.
TEST(McuBoot, LargestMemoriesAreReportedAndBoot) {
  auto r = run_hetvp("run " + cfg() +
                     " --workload mcu_boot --set gpu0.microcontrollers.hub.data_size=65280 "
                     "--set gpu0.microcontrollers.hub.code_size=64KiB --set gpu0.microcontrollers.gpc.data_size=65280 "
                     "--set gpu0.microcontrollers.gpc.code_size=64KiB");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "echo answered by HUB + 4 GPCs")) << r.out;
  // UC_CAPS = code >> 8 (bits 0-8) | data >> 8 (bits 9-16): HUB 16 KiB / 65,280 B, GPC 64 KiB / 2 KiB.
  auto caps = run_hetvp("debug " + cfg() +
                        " --set gpu0.microcontrollers.hub.data_size=65280 "
                        "--set gpu0.microcontrollers.gpc.code_size=64KiB --commands 'read hub 0x108; read gpc0 0x108'");
  ASSERT_EQ(caps.status, 0) << caps.out << caps.err;
  EXPECT_TRUE(has(caps.out, "hub[0x00000108] = 0x0001fe40")) << caps.out;
  EXPECT_TRUE(has(caps.out, "gpc0[0x00000108] = 0x00001100")) << caps.out;
  for (std::string bad : {"hub.data_size=64KiB", "gpc.code_size=65KiB"}) {
    auto e = run_hetvp("check " + cfg() + " --set gpu0.microcontrollers." + bad);
    EXPECT_EQ(e.status, 2) << bad;
    EXPECT_TRUE(has(e.err, "out of range")) << bad << ": " << e.err;
  }
}

// XFER_EXT_HI holds address bits 39:32: a transfer started with more bits set must fault (code
// 4, bus) instead of aliasing to a low address.
TEST(McuXfer, ExternalAddressBeyond40BitsFaults) {
  auto r = run_hetvp("debug " + cfg() +
                     " --commands 'write hub 0x204 0x100; write hub 0x200 0; write hub 0x208 0; write hub 0x20c 3; "
                     "read hub 0x210; read hub 0x218'");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "hub[0x00000210] = 0x00000402")) << "XFER_STATUS: fault, code 4\n" << r.out;
  EXPECT_TRUE(has(r.out, "hub[0x00000218] = 0x00000001")) << "XFER_FAULTS\n" << r.out;
  EXPECT_FALSE(has(r.err, "gpu0.mmu")) << "nothing reached the MMU: " << r.err;
}

TEST(McuBoot, StatsAreDeterministic) {
  auto a = run_hetvp("run " + cfg() + " --workload mcu_boot -q --stats " + scratch() + "/d1.json");
  auto b = run_hetvp("run " + cfg() + " --workload mcu_boot -q --stats " + scratch() + "/d2.json");
  ASSERT_EQ(a.status, 0);
  ASSERT_EQ(b.status, 0);
  EXPECT_EQ(hetvp::test::without_host_time(read_file(scratch() + "/d1.json")),
            hetvp::test::without_host_time(read_file(scratch() + "/d2.json")));
}

TEST(McuContext, SavedContextLoadsBitIdenticalIntoAnotherGpc) {
  auto r = run_hetvp("run " + cfg() + " --workload mcu_context --stats " + scratch() + "/ctx.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "context gpc0 -> gpc1 via VRAM")) << r.out;
  EXPECT_TRUE(has(r.out, "context gpc0 -> gpc2 via host memory (PCIe)")) << r.out;
  // The workload logs one line per pass (gpc0 -> gpc1 via VRAM, gpc0 -> gpc2 via host memory);
  // each must report the 512 B image saved, the loading GPC's hash equal to the filled one, and
  // both comparisons identical. Exactly these two lines, in this order.
  const std::regex line(
      R"(context gpc0 -> (gpc[0-9]+) via (VRAM|host memory \(PCIe\)): save ([0-9]+) B in [0-9.]+ us, )"
      R"(load [0-9.]+ us, hash (0x[0-9a-f]+) vs (0x[0-9a-f]+), data memory (\w+), context registers (\w+): (\w+))");
  std::vector<std::smatch> passes(std::sregex_iterator(r.out.begin(), r.out.end(), line), std::sregex_iterator());
  ASSERT_EQ(passes.size(), 2u) << r.out;
  const char* want_dst[2] = {"gpc1", "gpc2"};
  const char* want_via[2] = {"VRAM", "host memory (PCIe)"};
  for (size_t i = 0; i < 2; ++i) {
    const std::smatch& m = passes[i];
    EXPECT_EQ(m[1].str(), want_dst[i]) << m[0];
    EXPECT_EQ(m[2].str(), want_via[i]) << m[0];
    EXPECT_EQ(m[3].str(), "512") << "256 B header + 256 B context area: " << m[0];
    EXPECT_EQ(m[4].str(), m[5].str()) << "hash after the load must equal the filled context's: " << m[0];
    EXPECT_EQ(m[6].str(), "identical") << m[0];
    EXPECT_EQ(m[7].str(), "identical") << m[0];
    EXPECT_EQ(m[8].str(), "OK") << m[0];
  }
  EXPECT_EQ(passes[0][4].str(), passes[1][4].str()) << "the same saved context both times";
  EXPECT_FALSE(has(r.out, "DIFFERENT"));
  const std::string j = read_file(scratch() + "/ctx.json");
  // 512-byte image (256 header + 256 area) = 2 transfers of 256 B, saved twice by gpc0.
  EXPECT_EQ(mcu_stat(j, "gpc0", "xfers"), 4);
  EXPECT_EQ(mcu_stat(j, "gpc0", "xfer_bytes"), 1024);
  EXPECT_EQ(mcu_stat(j, "gpc1", "xfer_bytes"), 512);
  EXPECT_EQ(mcu_stat(j, "gpc2", "xfer_bytes"), 512);
  EXPECT_EQ(mcu_stat(j, "gpc0", "xfer_faults"), 0);
}

TEST(McuFirmware, ImagesFitTheirMemories) {
  auto hub = hetvp::ElfImage::from_file(fw("hub.elf"));
  auto gpc = hetvp::ElfImage::from_file(fw("gpc.elf"));
  for (auto* img : {&hub, &gpc}) {
    const bool is_hub = img == &hub;
    for (auto& s : img->segments()) {
      if (s.executable())
        EXPECT_LE(s.vaddr + s.memsz, is_hub ? 16384u : 8192u) << img->name();
      else
        EXPECT_LE(s.vaddr - 0x10000 + s.memsz, is_hub ? 4096u : 2048u) << img->name();
    }
    EXPECT_TRUE(img->symbol("ihbody")) << "the interrupt handler";
    EXPECT_TRUE(img->symbol("fw_main"));
  }
}

// ---- bad inputs ------------------------------------------------------------------------------
TEST(McuBadInput, ImageTooLargeForCodeMemoryIsRefusedAtLoad) {
  auto r = run_hetvp("run " + cfg() + " --workload mcu_boot --set gpu0.microcontrollers.gpc.code_size=1KiB");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(std::regex_search(
      r.err + r.out,
      std::regex(
          R"(gpc\.elf: code segment at 0x0 of [0-9]+ bytes does not fit the GPCs' code memory \(IMEM, 1024 bytes)")))
      << r.out << r.err;
}

TEST(McuBadInput, ImageTooLargeForDataMemoryIsRefusedAtLoad) {
  auto r = run_hetvp("run " + cfg() + " --workload mcu_boot --set gpu0.microcontrollers.hub.data_size=1KiB");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(std::regex_search(
      r.err + r.out, std::regex(R"(hub\.elf: data segment .* does not fit the HUB's data memory \(DMEM, 1024 bytes)")))
      << r.out << r.err;
}

TEST(McuBadInput, CorruptElfIsRefused) {
  std::string bad = write_file("corrupt.elf", std::string("\x7f"
                                                          "ELF\x01\x01\x01",
                                                          7) +
                                                  std::string(40, '\xff'));
  auto r = run_hetvp("run " + cfg() + " --workload mcu_boot --set workload.args.gpc_firmware=" + bad);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err + r.out, "firmware image rejected: " + bad)) << r.out << r.err;
}

TEST(McuBadInput, UploadPortWriteWhileRunningIsRefused) {
  auto r = run_hetvp("debug " + cfg() +
                     " --commands 'boot; write gpc1 0x184 0x1234; write hub 0x1c4 1; cmd gpc1 ping 9; expect 9'");
  EXPECT_EQ(r.status, 1);  // the two refused writes count as errors of the script
  EXPECT_TRUE(has(r.err, "gpu0.gpc1: CODE upload port used while the core runs")) << r.err;
  EXPECT_TRUE(has(r.err, "gpu0.hub: DATA upload port used while the core runs")) << r.err;
  EXPECT_TRUE(has(r.out, "debug:2: error: uncached store of 4 bytes")) << r.out;
  EXPECT_TRUE(has(r.out, "expect 0x00000009: ok")) << r.out;  // firmware unharmed
  EXPECT_TRUE(has(r.out, "2 error(s)")) << r.out;
}

TEST(McuBadInput, IllegalInstructionTrapIsVisibleAndTheSimulatorCarriesOn) {
  auto r = run_hetvp(
      "debug " + cfg() +
      " --commands 'boot; cmd gpc2 trap; state gpc2; read gpc2 0x100; read gpc2 0x114; cmd gpc3 ping 7; expect 7'");
  EXPECT_EQ(r.status, 1);  // the trap command never completes: one script error
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(gpc2 is trapped \(mcause 2 at pc 0x[0-9a-f]{8})"))) << r.out;
  EXPECT_TRUE(has(r.out, "gpc2[0x00000100] = 0x00000214")) << r.out;  // TRAPPED, started, cause 2
  EXPECT_TRUE(has(r.out, "gpc2[0x00000114] = 0x00000002")) << r.out;
  EXPECT_TRUE(has(r.out, "expect 0x00000007: ok")) << r.out;
  EXPECT_TRUE(has(r.err, "gpu0.gpc2: core trapped and stopped")) << r.err;
}

TEST(McuBadInput, IllegalXferSizeAlignmentAddressFault) {
  auto r =
      run_hetvp("debug " + cfg() +
                " --commands 'boot; cmd gpc0 xfer 1 0 0 0; expect 0x102; cmd gpc0 xfer 9 0 0 0; expect 0x102; "
                "cmd gpc0 xfer 8 0x10 0 0; expect 0x202; cmd gpc0 xfer 3 0 0 0x800; expect 0x302; "
                "cmd gpc0 xfer 8 0 0xff 0; expect 0x402; read gpc0 0x210; expect 0x402; read gpc0 0x218; expect 5; "
                "alloc buf 4096; cmd gpc0 xfer 0x18 $buf.lo $buf.hi 0; expect 0; read gpc0 0x214; expect 1'");
  // the five faulting commands report FW_ERR_XFER (script errors), everything else passes
  EXPECT_TRUE(has(r.out, "5 error(s)")) << r.out;
  // Every one of the script's 9 expects passes (its 5 cmd lines fail, the expects after them see
  // the right XFER_STATUS); no expect may be missing or fail.
  auto count = [&](const std::regex& re) {
    return std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), re), std::sregex_iterator());
  };
  EXPECT_EQ(count(std::regex(R"(expect 0x[0-9a-f]{8}: ok)")), 9) << r.out;
  EXPECT_EQ(count(std::regex(R"(expect 0x[0-9a-f]{8}: )")), 9) << r.out;
  // the five faulting xfers each answer FW_ERR_XFER (2) with XFER_STATUS as the result, the legal one 0
  EXPECT_EQ(count(std::regex(R"(gpc0 xfer\(0x[0-9a-f]{8}\): result 0x00000[1-4]02 error 2 )")), 5) << r.out;
  EXPECT_EQ(count(std::regex(R"(gpc0 xfer\(0x00000018\): result 0x00000000 error 0 )")), 1) << r.out;
  for (const char* e :
       {"expect 0x00000102: ok", "expect 0x00000202: ok", "expect 0x00000302: ok", "expect 0x00000402: ok",
        "expect 0x00000005: ok", "expect 0x00000000: ok", "expect 0x00000001: ok"})
    EXPECT_TRUE(has(r.out, e)) << e << "\n" << r.out;
  EXPECT_FALSE(has(r.out, "expected")) << r.out;
}

TEST(McuBadInput, GpcThatNeverReportsInitTimesOutNamingIt) {
  auto r =
      run_hetvp("run " + cfg() + " --workload mcu_boot --set workload.args.gpc_override=2:" + fw("gpc_noinit.elf") +
                " --set workload.args.boot_timeout=2ms");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.err + r.out,
                  "the HUB did not report init-done within 2 ms after start; GPC(s) that never reported init: gpc2 "
                  "(sleeping) (image " +
                      fw("gpc_noinit.elf") + ")"))
      << r.out << r.err;
  EXPECT_FALSE(has(r.err + r.out, "gpc1 (")) << r.out << r.err;
}

// ---- the debug tool ----------------------------------------------------------------------------
TEST(McuDebugTool, ScriptLoadsStartsCommandsAndDumps) {
  std::string script =
      write_file("dbg.txt",
                 "# load firmware by hand, start it, talk to it, look inside\n"
                 "load gpcs " +
                     fw("gpc.elf") +
                     "\n"
                     "load hub " +
                     fw("hub.elf") +
                     "\n"
                     "start gpcs\n"
                     "start hub\n"
                     "wait hub sleeping\n"
                     "sleep 200\n"  // the HUB naps between looks at the GPC init flags
                     "read hub 0x800\n"
                     "expect 0x80000004\n"
                     "cmd gpc1 ping 0x1234\n"
                     "expect 0x1234\n"
                     "cmd gpc1 ctx_fill 7\n"
                     "regs gpc1\n"
                     "dump gpc1 0x100 32\n"
                     "stop gpc1\n"
                     "step gpc1 3\n"
                     "cont gpc1\n"
                     "cmd hub reg_read 0x502800\n"  // GPC0's status scratch through the HUB's BAR0 window
                     "expect 0x80000000\n"
                     "cmd gpc1 exit 5\n"
                     "state gpc1\n");
  auto r = run_hetvp("debug " + cfg() + " --script " + script);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "loaded " + fw("gpc.elf") + " into gpcs (entry 0x00000000)")) << r.out;
  EXPECT_TRUE(has(r.out, "expect 0x80000004: ok")) << r.out;
  EXPECT_TRUE(has(r.out, "expect 0x00001234: ok")) << r.out;
  EXPECT_TRUE(has(r.out, "registers of gpc1 (sleeping)")) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(pc   [0-9a-f]{8})"))) << r.out;
  EXPECT_TRUE(has(r.out, "gpc1 dmem+0100:")) << r.out;
  EXPECT_TRUE(has(r.out, "step gpc1: pc 0x")) << r.out;
  EXPECT_TRUE(has(r.out, "expect 0x80000000: ok")) << r.out;
  EXPECT_TRUE(has(r.out, "gpc1 is halted (exit code 5)")) << r.out;
  EXPECT_TRUE(has(r.out, "0 error(s)")) << r.out;
}

TEST(McuDebugTool, UnknownCommandAndTargetAreClear) {
  auto r = run_hetvp("debug " + cfg() + " --commands 'frobnicate; read gpc9 0; cmd hub nosuch'");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(has(r.out, "unknown debug command 'frobnicate'")) << r.out;
  EXPECT_TRUE(has(r.out, "no microcontroller 'gpc9' (valid: hub, gpc0..gpc3")) << r.out;
  EXPECT_TRUE(has(r.out, "unknown firmware command 'nosuch'")) << r.out;
}

// The script docs/firmware.md shows and the README names, shipped as examples/debug/init.dbg:
// `wait hub sleeping` alone returned at the HUB's first nap, before init-done (`expected
// 0x80000004, got 0x00000000`); the script waits for the init-done bit itself (`waitreg`).
TEST(McuDebugTool, ShippedExampleScriptPasses) {
  auto r = run_hetvp("debug " + cfg() + " --script " + std::string(HETVP_SOURCE_DIR) + "/examples/debug/init.dbg");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "debug> hub[0x00000800] = 0x80000004")) << r.out;
  EXPECT_TRUE(has(r.out, "expect 0x80000004: ok")) << r.out;
  EXPECT_TRUE(has(r.out, "expect 0x00001234: ok")) << r.out;
  EXPECT_TRUE(has(r.out, "gpc1 dmem+0000:")) << r.out;
  EXPECT_TRUE(has(r.out, "0 error(s)")) << r.out;
  // waitreg's time-out names the register, the mask, the value and what it read.
  auto t = run_hetvp("debug " + cfg() + " --commands 'waitreg hub 0x800 0x80000000 0x80000000 5'");
  EXPECT_EQ(t.status, 1);
  EXPECT_TRUE(has(t.out, "debug:1: error: hub[0x00000800] & 0x80000000 did not become 0x80000000 within 5 us; it is "
                         "0x00000000"))
      << t.out;
}

// `hetvp debug CONFIG` with neither --script nor --commands: a prompt on stdin, with help and
// history; each answer is printed as it comes, the lines count like a script's.
TEST(McuDebugTool, InteractivePromptReadsStdin) {
  const std::string in = write_file("prompt.txt", "help\nload hub hub.elf\n\nstate hub\nhistory\nquit\nstate gpc0\n");
  auto r = run_hetvp("debug " + cfg() + " < " + in);
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "'help' lists the commands")) << r.out;
  EXPECT_TRUE(has(r.out, "waitreg TARGET OFF MASK [VALUE] [US]")) << r.out;
  EXPECT_TRUE(has(r.out, "debug> loaded ")) << r.out;
  EXPECT_TRUE(has(r.out, "debug> hub is idle")) << r.out;
  EXPECT_TRUE(has(r.out, "  3  state hub\n  4  history")) << r.out;
  EXPECT_TRUE(has(r.out, "debug: 2 line(s), 0 error(s)")) << r.out;  // quit ends: gpc0 never asked
  EXPECT_FALSE(has(r.out, "gpc0 is")) << r.out;
}

TEST(McuDebugTool, HelpDescribesIt) {
  auto r = run_hetvp("debug --help");
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(has(r.out, "usage: hetvp debug CONFIG")) << r.out;
}

// ---- hetvp iss -------------------------------------------------------------------------------
TEST(McuIss, StandaloneRunReturnsTheProgramsExitCode) {
  auto r = run_hetvp("iss " + fw("rv32_exit42.elf"));
  EXPECT_EQ(r.status, 42) << r.err;
  auto t = run_hetvp("iss " + fw("rv32_trap_fatal.elf"));
  EXPECT_EQ(t.status, 1) << t.err;
  EXPECT_TRUE(has(t.err, "hetvp iss: " + fw("rv32_trap_fatal.elf") + ": fatal trap: illegal instruction")) << t.err;
  auto bad = run_hetvp("iss /nonexistent.elf");
  EXPECT_EQ(bad.status, 2);
  auto to = run_hetvp("iss " + fw("mcu_spin.elf") + " --max-instructions 1000");
  EXPECT_EQ(to.status, 1) << to.err;
}

// A process status is 8 bits: code 256 % 256 = 0 would read as a pass, and codes 1 and 2 are
// hetvp's own statuses. The mapping (models/mcu/rv32/standalone.h, docs/iss.md) keeps 3..119 and
// makes every other non-zero code 120; --exit-code-file has the full code.
TEST(McuIss, ExitCodeThatIsAMultipleOf256IsNotAPass) {
  const std::string code_file = scratch() + "/exit256.code";
  auto r = run_hetvp("iss " + fw("rv32_exit256.elf") + " --exit-code-file " + code_file);
  EXPECT_EQ(r.status, 120) << r.err;
  EXPECT_TRUE(has(r.err, "exit code 256 after")) << r.err;
  EXPECT_EQ(read_file(code_file), "256\n");
  auto k = run_hetvp("iss " + fw("rv32_exit42.elf") + " --exit-code-file " + code_file);
  EXPECT_EQ(k.status, 42) << k.err;
  EXPECT_EQ(read_file(code_file), "42\n");
  auto bad = run_hetvp("iss " + fw("rv32_exit42.elf") + " --exit-code-file " + scratch() + "/no/such/dir/f");
  EXPECT_EQ(bad.status, 2) << bad.err;
  EXPECT_TRUE(has(bad.err, "--exit-code-file " + scratch() + "/no/such/dir/f: cannot write")) << bad.err;
}

TEST(McuIss, ExitStatusMappingNeverHidesAFailure) {
  using hetvp::mcu::iss_exit_status;
  EXPECT_EQ(iss_exit_status(0), 0);
  EXPECT_EQ(iss_exit_status(3), 3);
  EXPECT_EQ(iss_exit_status(119), 119);
  for (int code : {1, 2, 120, 255, 256, 512, 0x7fffffff}) EXPECT_EQ(iss_exit_status(code), 120) << code;
}

TEST(McuIss, NegativeOrZeroInstructionBudgetIsAUsageError) {
  for (const char* n : {"-5", "0", "x"}) {
    auto r = run_hetvp("iss " + fw("rv32_exit42.elf") + " --max-instructions " + n);
    EXPECT_EQ(r.status, 2) << n << ": " << r.err;
    EXPECT_TRUE(has(r.err, std::string("--max-instructions needs a number of at least 1, not '") + n + "'")) << r.err;
  }
}

TEST(McuIss, HugeSegmentIsALoadErrorNotAnAllocation) {  // found by the fuzz test: 49 s, 19 GB
  std::string img = read_file(fw("rv32_exit42.elf"));
  ASSERT_GT(img.size(), 52u);
  uint32_t phoff;
  std::memcpy(&phoff, img.data() + 28, 4);
  const uint32_t memsz = 0x7fffffff;  // program header 1 (the code PT_LOAD): p_memsz 2 GiB
  img.replace(phoff + 32 + 20, 4, reinterpret_cast<const char*>(&memsz), 4);
  auto r = run_hetvp("iss " + write_file("huge.elf", img));
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "huge.elf: its segments and stack need")) << r.err;
  EXPECT_TRUE(has(r.err, "the standalone ISS allocates at most 67108864 (64 MiB)")) << r.err;
}

// ---- idle cost and sleeping --------------------------------------------------------------------
TEST(McuIdle, OneSimulatedSecondIdleIsReported) {
  auto r = run_hetvp("run " + cfg() + " --workload mcu_boot --set workload.args.idle=1s --stats " + scratch() +
                     "/idle.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(idle 1\.000 s simulated cost [0-9.]+ ms host CPU)"))) << r.out;
  const std::string j = read_file(scratch() + "/idle.json");
  EXPECT_GT(mcu_stat(j, "gpc0", "sleep_ns"), 0.99e9);  // asleep for the whole second
  EXPECT_LT(mcu_stat(j, "gpc0", "bursts"), 20);        // and not woken to poll
}

TEST(McuTrace, TimelineHasRunSleepCommandAndXferSpans) {
  auto r = run_hetvp("run " + cfg() + " --workload mcu_context -q --trace " + scratch() + "/t.json");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const std::string t = read_file(scratch() + "/t.json");
  for (const char* s : {"\"gpu0.gpc0.cmd\"", "\"gpu0.gpc0.xfer\"", "\"cmd 4\"", "\"store 256 B\"", "\"load 256 B\"",
                        "\"sleep\"", "\"run\""})
    EXPECT_NE(t.find(s), std::string::npos) << s;
}

// Bursts that go on in local time (local_time_bursts, #31: no SystemC round trip at a quantum
// boundary, a wfi or the core's own xfer end when no other process has anything to do first) must
// change no result: every component's statistic and the simulated time are the same with the
// round trips. The jobs: offloaded copies on the HUB, one GPC and four GPCs, and four GPCs beside
// a copy-engine copy (the overlapped pair whose shared resources see both initiators).
TEST(McuLocalTime, BurstsInLocalTimeChangeNoResult) {
  const std::string job = "run " + cfg() +
                          " --set workload.args.methods=hub,gpc1,gpc4,gpc4+dma --set workload.args.max_size=64KiB -q";
  const std::string off = " --set gpu0.microcontrollers.hub.local_time_bursts=false"
                          " --set gpu0.microcontrollers.gpc.local_time_bursts=false";
  auto a = run_hetvp(job + " --stats " + scratch() + "/lt_on.json");
  auto b = run_hetvp(job + off + " --stats " + scratch() + "/lt_off.json");
  ASSERT_EQ(a.status, 0) << a.err;
  ASSERT_EQ(b.status, 0) << b.err;
  const std::string on_json = read_file(scratch() + "/lt_on.json"), off_json = read_file(scratch() + "/lt_off.json");
  EXPECT_NE(on_json.find("\"local_time_bursts\": true"), std::string::npos);
  EXPECT_NE(off_json.find("\"local_time_bursts\": false"), std::string::npos);
  // The components' statistics (everything after the run's identity, parameters and host times).
  auto components = [](const std::string& j) {
    const size_t c = j.find("\"components\"");
    return c == std::string::npos ? std::string() : j.substr(c);
  };
  ASSERT_FALSE(components(on_json).empty());
  EXPECT_EQ(components(on_json), components(off_json));
  auto simulated = [](const std::string& j) {
    const size_t k = j.find("\"simulated_ns\":");
    return k == std::string::npos ? std::string() : j.substr(k, j.find('\n', k) - k);
  };
  ASSERT_FALSE(simulated(on_json).empty());
  EXPECT_EQ(simulated(on_json), simulated(off_json));
  EXPECT_GT(mcu_stat(on_json, "gpc0", "xfers"), 100);  // the shortcut had xfers to serve
}
