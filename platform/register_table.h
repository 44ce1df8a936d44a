// A register block's table (firmware/include/hetvp/<block>.h, see regdef.h there) as C++ data:
// the model's RegisterBank adds it with add_table(), then binds behaviour to register names
// (bank.named("LAUNCH").write(...)); `hetvp registers` prints every table as docs/registers.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/register_bank.h"

namespace hetvp {

struct RegSpec {
  const char* block;  // e.g. "COPY"
  const char* name;   // e.g. "LAUNCH" (an array: "ARG", expanded to ARG0..)
  uint32_t offset;
  unsigned count;  // > 1: an array of consecutive 32-bit registers
  RegAccess access;
  uint32_t reset;
  const char* doc;
};

// One X(...) row of a block table as a RegSpec initialiser.
#define HETVP_REG_SPEC(block, name, off, count, acc, reset, doc) \
  ::hetvp::RegSpec{#block, #name, (off), (count), ::hetvp::RegAccess::acc, (reset), (doc)},
// The whole table: static const RegSpec kTable[] = { HETVP_REG_TABLE(HETVP_COPY_REGS) };
#define HETVP_REG_TABLE(TABLE) TABLE(HETVP_REG_SPEC)

// Adds every register of a table to `bank` (arrays as NAME0..NAME<count-1>).
template <size_t N>
void add_table(RegisterBank& bank, const RegSpec (&table)[N]) {
  for (const RegSpec& r : table) {
    if (r.count <= 1) {
      bank.add(r.name, r.offset, r.access, r.reset);
      continue;
    }
    for (unsigned i = 0; i < r.count; ++i) bank.add(r.name + std::to_string(i), r.offset + 4 * i, r.access, r.reset);
  }
}

// A documented block: what `hetvp registers` prints.
struct RegBlockDoc {
  const char* title;  // e.g. "copy engine n"
  const char* where;  // e.g. "BAR0 0x104000 + n·0x1000"
  const RegSpec* regs;
  size_t count;
};
// Every block whose registers are declared in firmware/include/hetvp (register_docs.cpp).
const std::vector<RegBlockDoc>& register_blocks();
// docs/registers.md's register tables, generated from register_blocks().
std::string registers_markdown();

}  // namespace hetvp
