// hetvp — RV32 ISS: translation of a pre-decoded Block (core.h) into x86-64 machine code.
//
// The translated block is a function `int fn(uint32_t* x, JitCtx* c)`: x is the register file
// (x[0] reads 0, x[32] is the sink for writes to x0). Up to ten of the block's most used guest
// registers live in host registers while it runs ("register caching"); they are loaded at entry and
// the written ones stored back at every exit. Loads and stores use the core's last-hit region
// caches in JitCtx and leave the block on any miss. The caller sets c->cyc/c->ins to the counters
// before the block; the code keeps them (they hold the counters at the start of the block that is
// running, c->cur). Return value:
//   k >= 0  stop before op k of block c->cur (a load/store miss or a misaligned jump): the caller
//           runs that op on the interpreter with pc = ops[k].pc, cycles = c->cyc + ops[k].pcost,
//           instret = c->ins + ops[k].idx;
//   -1      the block (chain) ended: pc = c->next_pc, counters in c->cyc/c->ins.
// Chaining: at an exit to a static target (branch either way, jal, fall-through) in the same
// region the code looks up the target's translated code in the region's entry table (`slots`, one
// per halfword, null when there is none — dropping a block clears its slot, so no code needs
// patching) and, if the target may start (c->cyc + its cost_before_last < c->limit: the
// interpreter's per-instruction budget rule), tail-jumps to it. A block whose last op branches back
// to its own start loops to its top without reloading its cached registers.
#pragma once

#include <cstddef>
#include <cstdint>

namespace hetvp::mcu::rv32 {

struct Block;

struct JitCtx {
  uint64_t cyc = 0, ins = 0, limit = 0;
  const Block* cur = nullptr;  // the block running (set by each block's entry)
  uint32_t next_pc = 0;
  uint32_t lbase = 0;
  int64_t llim1 = -1, llim2 = -1, llim4 = -1;
  uint8_t* lhost = nullptr;
  uint32_t sbase = 0;
  int64_t slim1 = -1, slim2 = -1, slim4 = -1;
  uint8_t* shost = nullptr;
};

using JitFn = int (*)(uint32_t* x, JitCtx* c);

// Executable code memory of one core (mapped on first use, freed with the core), kept W^X: a guest
// program is untrusted input, so no page is ever writable and executable at once. The code is
// written through one mapping (read-write) and run through another (read-execute) of the same
// memory file (memfd): cursor() is in the first, to_exec() turns such an address into the second.
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
  // The executable alias of a written address (a returned block's entry).
  const uint8_t* to_exec(const uint8_t* written) const { return exec_ + (written - mem_); }
  // Every block starts 16-byte aligned after a 16-byte header (int3 bytes, then its
  // cost_before_last), so nothing reads outside the mapping in front of a block.
  void clear() { used_ = 0; }
  bool failed() const { return failed_; }

 private:
  uint8_t* mem_ = nullptr;         // read-write view
  const uint8_t* exec_ = nullptr;  // read-execute view of the same pages
  size_t cap_ = 0, used_ = 0;
  bool failed_ = false;
};

// Where translated blocks of one region are found by start pc: slots[(pc - base) / 2].
struct JitSlots {
  JitFn* slots = nullptr;
  uint32_t base = 0, size = 0;
};

// Translates b (ops, n, cost) into buf; returns null (and uses no space) when the block holds an op
// the translator does not handle (div/rem) or buf has no room. mmask: 2 without C, else 0. The
// block's cost_before_last is stored in the 8 bytes before the returned entry (for chaining).
JitFn jit_translate(const Block& b, uint32_t mmask, const JitSlots& slots, JitBuffer& buf);

// Whether this build can translate (x86-64 only; elsewhere the threaded blocks run).
bool jit_supported();

}  // namespace hetvp::mcu::rv32
