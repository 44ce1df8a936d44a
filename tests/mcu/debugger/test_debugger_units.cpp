// The debug tool's parts without a platform: the RV32 disassembler (models/mcu/rv32/disasm.h) and the
// symbol tables (sw/mcu/debug_symbols.h): symbols files, envyas-style headers, nouveau's labels.
#include <gtest/gtest.h>

#include <functional>

#include "models/mcu/falcon/nouveau_fw.h"
#include "models/mcu/rv32/disasm.h"
#include "sw/driver/mcu_driver.h"
#include "sw/mcu/debug_symbols.h"

using hetvp::sw::DebugSymbols;
using hetvp::sw::McuError;

namespace {
std::string dis(uint32_t insn, uint32_t pc, unsigned want_len) {
  unsigned len = 0;
  std::string s = hetvp::mcu::rv32::disassemble(insn, pc, len);
  EXPECT_EQ(len, want_len) << s;
  return s;
}
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const McuError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

// Encodings checked by hand against the RISC-V specification's tables (and riscv64-unknown-elf-objdump).
TEST(Rv32Disasm, BaseAndMAndSystem) {
  EXPECT_EQ(dis(0x00000013, 0, 4), "nop");
  EXPECT_EQ(dis(0xff010113, 0, 4), "addi sp,sp,-16");
  EXPECT_EQ(dis(0x00112623, 0, 4), "sw ra,12(sp)");
  EXPECT_EQ(dis(0x00008067, 0, 4), "ret");
  EXPECT_EQ(dis(0x0000006f, 0x100, 4), "j 0x100");
  EXPECT_EQ(dis(0x02b50533, 0, 4), "mul a0,a0,a1");
  EXPECT_EQ(dis(0x30200073, 0, 4), "mret");
  EXPECT_EQ(dis(0x10500073, 0, 4), "wfi");
  EXPECT_EQ(dis(0x34202573, 0, 4), "csrr a0,mcause");
  EXPECT_EQ(dis(0xfe0718e3, 0x40, 4), "bne a4,zero,0x30");
  EXPECT_EQ(dis(0xffffffff, 0, 4), ".word 0xffffffff");
}

TEST(Rv32Disasm, CompressedShowTheirExpansion) {
  EXPECT_EQ(dis(0x1141, 0, 2), "addi sp,sp,-16");
  EXPECT_EQ(dis(0x8082, 0, 2), "ret");
  EXPECT_EQ(dis(0xc606, 0, 2), "sw ra,12(sp)");
  EXPECT_EQ(dis(0x4501, 0, 2), "li a0,0");
  EXPECT_EQ(dis(0xa001, 0x200, 2), "j 0x200");
  EXPECT_EQ(dis(0x0000, 0, 2), ".half 0x0000");  // the all-zero parcel is illegal
}

TEST(DebugSymbolsFile, FalconAsFormatWithComments) {
  const DebugSymbols s = DebugSymbols::from_symbols_text(
      "# falcon-as --symbols\n0x00000000 my_data counter\n0x0000056a my_code main\n\n0x00000570 my_code loop\n",
      "my.sym");
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.find("main"), 0x56au);
  EXPECT_FALSE(s.find("counter"));  // a data label is not a code address
  EXPECT_EQ(s.describe(0x56a), "main");
  EXPECT_EQ(s.describe(0x574), "loop+0x4");
  EXPECT_EQ(s.at(0x570), "loop");
}

TEST(DebugSymbolsFile, BadLinesAreLocated) {
  EXPECT_EQ(error_of([] { DebugSymbols::from_symbols_text("0x10 code a\nmain 0x56a\n", "x.sym"); }),
            "x.sym:2: expected '0xADDRESS SECTION LABEL' (hetvp falcon-as --symbols format), got 'main 0x56a'");
  EXPECT_EQ(error_of([] { DebugSymbols::from_symbols_text("0x5g6 code main\n", "x.sym"); }),
            "x.sym:1: not a 32-bit hexadecimal address: '0x5g6'");
  EXPECT_EQ(error_of([] { DebugSymbols::from_symbols_text("0x10 code a b c\n", "x.sym"); }),
            "x.sym:1: expected '0xADDRESS SECTION LABEL' (hetvp falcon-as --symbols format), got '0x10 code a b c'");
  EXPECT_EQ(error_of([] { DebugSymbols::from_header_text("static uint32_t x_code[] = {\n0x1,\n};\n", "x.h"); }),
            "x.h: no `/* 0xADDR: label */` lines (an envyas-style header has them)");
}

TEST(DebugSymbolsFile, EnvyasHeaderLabelsBySection) {
  const DebugSymbols s = DebugSymbols::from_header_text(
      "static uint32_t g_data[] = {\n/* 0x0000: queue */\n\t0x0,\n};\nstatic uint32_t g_code[] = {\n"
      "/* 0x0000: init */\n\t0x1,\n/* 0x0010: main */\n\t0x2,\n};\n",
      "g.h");
  EXPECT_EQ(s.find("main"), 0x10u);
  EXPECT_EQ(s.find("init"), 0x0u);
  EXPECT_FALSE(s.find("queue"));
}

// nouveau's own labels are built in (cmake/NouveauSymbols.cmake): the HUB's main loop has its name.
TEST(DebugSymbolsFile, NouveauHubMainLoopHasItsName) {
  if (!hetvp::mcu::falcon::nouveau_gf100().available) GTEST_SKIP() << hetvp::mcu::falcon::nouveau_gf100().reason;
  const DebugSymbols hub = DebugSymbols::nouveau("gf100", "hub");
  EXPECT_EQ(hub.find("main"), 0x56au) << hub.source();  // hubgf100.fuc3.h: "/* 0x056a: main */"
  EXPECT_TRUE(hub.find("ih"));
  EXPECT_FALSE(hub.find("cmd_queue"));  // data
  EXPECT_TRUE(DebugSymbols::nouveau("gk208", "gpc").find("main"));
  EXPECT_TRUE(DebugSymbols::nouveau("gt200", "hub").empty());
}
