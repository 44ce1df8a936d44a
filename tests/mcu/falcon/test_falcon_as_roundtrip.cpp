// The disassembler and the assembler share one table of instruction forms (models/mcu/falcon/asm/
// isa_forms.h): every instruction of nouveau's twelve GR images, disassembled and assembled again at
// its own address, gives back its bytes — or, where envydis' syntax prints two encodings alike
// (`movw $r 0` and `mov $r 0`; v5's `st D[$r+0]` and `st D[$r]`), the shorter one, which disassembles to
// the same text.
#include "models/mcu/falcon/asm/assembler.h"
#include "models/mcu/falcon/asm/isa_forms.h"
#include "models/mcu/falcon/disasm.h"
#include "models/mcu/falcon/nouveau_fw.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

using namespace hetvp::mcu::falcon;

TEST(FalconAsRoundTrip, EveryInstructionOfNouveausImagesDisassemblesAndAssemblesBack) {
  size_t checked = 0, alike = 0;
  for (const std::string& chip : nouveau_firmware_chips()) {
    const NouveauFirmware& fw = nouveau_firmware(chip);
    if (!fw.available) GTEST_SKIP() << fw.reason;
    for (const NouveauImage* im : {&fw.hub, &fw.gpc}) {
      std::vector<uint8_t> code(im->code_words * 4 + 8, 0);
      for (size_t k = 0; k < im->code_words; ++k)
        for (int j = 0; j < 4; ++j) code[k * 4 + j] = static_cast<uint8_t>(im->code[k] >> (8 * j));
      as::Options o;
      o.version = fw.fuc >= 5 ? isa::V5 : isa::V3;
      for (uint32_t pc = 0; pc < im->code_words * 4;) {
        unsigned len = 1;
        const std::string text = disassemble(code.data() + pc, pc, len, fw.fuc);
        ASSERT_NE(text, "???") << chip << " at " << pc;
        char section[48];
        std::snprintf(section, sizeof section, ".section #t 0x%x\n", pc);
        const as::Program p = as::assemble(section + text + "\n", chip, o);
        ASSERT_EQ(p.sections.size(), 1u);
        const std::vector<uint8_t> want(code.begin() + pc, code.begin() + pc + len);
        const std::vector<uint8_t>& got = p.sections[0].bytes;
        if (got != want) {
          // the two spellings envydis' syntax shares: f1 sub-opcode 7 (movw) printed as mov; v5 35 (st
          // with an 8-bit offset) with offset 0 printed as v5 20 (st D[$r])
          const bool movw = want[0] == 0xf1 && (want[1] & 0xf) == 7;
          const bool st0 = fw.fuc >= 5 && (want[0] & 0x3f) == 0x35 && want[2] == 0;
          EXPECT_TRUE(movw || st0) << chip << " at 0x" << std::hex << pc << ": " << text;
          std::vector<uint8_t> again = got;
          again.resize(again.size() + 8, 0);
          unsigned len2 = 0;
          EXPECT_EQ(disassemble(again.data(), pc, len2, fw.fuc), text) << chip << " at 0x" << std::hex << pc;
          EXPECT_EQ(len2, got.size());
          ++alike;
        }
        pc += len;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 9000u);
  EXPECT_LT(alike, 100u);  // 36 in linux-source-6.1's images
  std::printf("%zu instructions round-tripped, %zu to the shorter of two encodings printed alike\n", checked, alike);
}
