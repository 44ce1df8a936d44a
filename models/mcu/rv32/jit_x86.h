// hetvp — RV32 ISS: translation of a pre-decoded Block (core.h) into x86-64 machine code.
//
// The translated block is a function `int fn(uint32_t* x, JitCtx* c)`: x is the register file
// (x[0] reads 0, x[32] is the sink for writes to x0). Up to ten of the block's most used guest
// registers live in host registers while it runs ("register caching"); they are loaded at entry and
// the written ones stored back at every exit. Loads and stores use the core's last-hit region
// caches in JitCtx and leave the block on any miss. Return value:
//   k >= 0  stop before op k (a load/store miss or a misaligned jump): the caller runs op k on the
//           interpreter with pc = ops[k].pc, cycles = c->cyc + ops[k].pcost, instret = c->ins + ops[k].idx;
//   -1      the block ended (fall-through, not-taken branch, jump): pc = c->next_pc, add cost and n;
//   -2      it ended with a taken branch: as -1, plus the branch's tdelta;
//   -3      a self-loop stopped at its back edge: pc = c->next_pc, counters already in c->cyc/c->ins.
// A block whose last op branches back to its own start loops inside the translated code as long as
// c->cyc + cost_before_last < c->limit (the interpreter's per-instruction budget rule).
#pragma once

#include <cstddef>
#include <cstdint>

namespace hetvp::mcu::rv32 {

struct Block;

struct JitCtx {
  uint64_t cyc = 0, ins = 0, limit = 0;
  uint32_t next_pc = 0;
  uint32_t lbase = 0;
  int64_t llim1 = -1, llim2 = -1, llim4 = -1;
  uint8_t* lhost = nullptr;
  uint32_t sbase = 0;
  int64_t slim1 = -1, slim2 = -1, slim4 = -1;
  uint8_t* shost = nullptr;
};

using JitFn = int (*)(uint32_t* x, JitCtx* c);

// Executable code memory of one core (mmap'ed on first use, freed with the core).
class JitBuffer {
 public:
  JitBuffer() = default;
  JitBuffer(const JitBuffer&) = delete;
  JitBuffer& operator=(const JitBuffer&) = delete;
  ~JitBuffer();
  // false when executable memory cannot be had (the caller keeps the threaded blocks)
  bool ensure();
  size_t room() const { return cap_ - used_; }
  uint8_t* cursor() { return mem_ + used_; }
  void commit(size_t n) { used_ += n; }
  // Code starts 16 bytes into the buffer and every block is 16-byte aligned with int3 padding, so
  // nothing reads outside the mapping in front of a block (e.g. a sanitizer's function-type check).
  void clear() { used_ = kHeadroom; }
  static constexpr size_t kHeadroom = 16;
  bool failed() const { return failed_; }

 private:
  uint8_t* mem_ = nullptr;
  size_t cap_ = 0, used_ = 0;
  bool failed_ = false;
};

// Translates b (ops, n, cost) into buf; returns null (and uses no space) when the block holds an op
// the translator does not handle (div/rem) or buf has no room. mmask: 2 without C, else 0.
JitFn jit_translate(const Block& b, uint32_t mmask, JitBuffer& buf);

// Whether this build can translate (x86-64 only; elsewhere the threaded blocks run).
bool jit_supported();

}  // namespace hetvp::mcu::rv32
