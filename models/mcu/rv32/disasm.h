// hetvp — a small RV32IMC + Zicsr disassembler for `hetvp debug` (disassembly around pc), in
// objdump's style: ABI register names, compressed instructions shown as the base instruction they
// expand to ("addi sp,sp,-16"), branch and jump targets as absolute addresses.
#pragma once

#include <cstdint>
#include <string>

namespace hetvp::mcu::rv32 {

// The instruction whose first 16-bit parcel is the low half of `insn` (the high half is the next
// parcel), at `pc`. len receives 2 or 4. An encoding it does not know is ".word 0x...".
std::string disassemble(uint32_t insn, uint32_t pc, unsigned& len);

}  // namespace hetvp::mcu::rv32
