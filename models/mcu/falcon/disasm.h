// hetvp — Falcon v3 disassembler (debug tool, --trace), in envydis's syntax ("add b32 $r1 0x4",
// "ld b32 $r9 D[$r13+0x4]", "iowr I[$r0] $r12", "bra ne 0x1c"), so listings compare with envydis.
#pragma once

#include <cstdint>
#include <string>

namespace hetvp::mcu::falcon {

// Disassembles the instruction at bytes b[0..7] (FalconCore::kInsnBytes) located at pc, as Falcon
// `version` (3 or 5). len receives its length (1 for an invalid opcode, whose text is "???").
std::string disassemble(const uint8_t* b, uint32_t pc, unsigned& len, unsigned version = 3);

}  // namespace hetvp::mcu::falcon
