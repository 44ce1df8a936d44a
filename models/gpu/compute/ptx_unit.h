// A compute unit running PTX (models/gpu/compute/ptx: the SIMT executor) inside the compute block:
// the executor's environment (PtxUnit: instruction cache, issue costs, memory, atomics, shared-memory
// replays) and the module images the units read from VRAM (ModuleCache). docs/gpu_kernels.md.
//
// Time: a unit has a cursor (when its next instruction issues). Each warp instruction adds its
// class's issue cycles on the chip (ptx::issue_cycles: the CUDA C Programming Guide's throughput
// table, SPEC §12 C); global/local memory instructions cost what the compute block's memory path
// returns (issue + replays + the caches' and memory's latency); a shared-memory access with an
// n-way bank conflict replays n-1 times; an instruction-cache miss waits for its line from memory.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <systemc>

#include "models/cache/cache.h"
#include "models/gpu/compute/ptx/exec.h"

namespace hetvp::gpu {

// What the compute block gives its units (the memory path of compute.cpp).
class UnitPort {
 public:
  virtual ~UnitPort() = default;
  // A warp memory instruction of unit `cu` through the coalescer, its TCP, the TCC and the GPU MMU,
  // issued at `cursor` (advanced to its end). False: it faulted (the block holds the error).
  virtual bool warp_mem(unsigned cu, sc_core::sc_time& cursor, bool store, bool local,
                        const ptx::LaneArray<uint64_t>& addr, uint32_t mask, unsigned size, uint8_t* data) = 0;
  // One uncached access at system scope (ld.cv / st.wt: another agent's registers), past every
  // cache, issued at `cursor` (advanced to its end; the simulation catches up with it, so that a
  // polling kernel sees the other agent progress). False: it faulted.
  virtual bool system_access(unsigned cu, sc_core::sc_time& cursor, bool store, uint64_t va, uint8_t* data,
                             unsigned len) = 0;
  // One access of `len` bytes inside one 128-byte line, past the TCP to the TCC (atomics). False: it faulted.
  virtual bool l2_access(unsigned cu, sc_core::sc_time& cursor, bool store, uint64_t va, uint8_t* data,
                         unsigned len) = 0;
  // A read of `len` bytes inside one 128-byte line on the instruction path (instruction-cache fills,
  // module images): through the GPU MMU to memory, past the data caches (hetvp models no L1.5/L2
  // instruction path, so the data caches' statistics are the data's). False: it faulted.
  virtual bool code_read(sc_core::sc_time& cursor, uint64_t va, uint8_t* data, unsigned len) = 0;
};

// Thrown through the executor when an access faulted: the block already holds the error.
struct UnitFault {};

struct UnitTiming {
  ptx::Arch arch = ptx::Arch::Sm20;
  sc_core::sc_time cycle;
  double replay_cycles = 2;        // per shared-memory replay (gpu.compute.replay_cycles)
  uint64_t icache_bytes = 8192;    // per-unit instruction cache (gpu.compute.icache)
  unsigned icache_ways = 4, icache_line = 128;
};

class PtxUnit : public ptx::Env {
 public:
  PtxUnit(UnitPort& port, unsigned cu, const UnitTiming& t);

  sc_core::sc_time cursor;  // when this unit's next instruction issues (flush() first)
  // The issue cycles counted since the last flush, into the cursor.
  void flush();
  void invalidate_icache() { icache_.invalidate_all(); }

  void fetch(uint64_t address) override;
  void issue(ptx::InstrClass c, unsigned active_lanes) override;
  void fetch_issue(uint64_t address, ptx::InstrClass c, unsigned active_lanes) override;
  void fetch_issue_run(uint64_t address, const ptx::InstrClass* cls, unsigned n, unsigned active_lanes,
                       unsigned& done) override;
  void mem(bool store, ptx::EnvSpace space, const ptx::LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
           uint8_t* data) override;
  void atom(ptx::AtomOp op, ptx::AtomType type, const ptx::LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
            const ptx::LaneArray<uint64_t>& b, const ptx::LaneArray<uint64_t>& c, ptx::LaneArray<uint64_t>& old,
            bool want_old) override;
  void shared_access(bool store, unsigned conflict_degree) override;
  uint64_t clock() override;

  struct Counters {
    uint64_t icache_hits = 0, icache_misses = 0, shared_accesses = 0, shared_replays = 0, atomic_lanes = 0;
    std::array<uint64_t, size_t(ptx::InstrClass::kCount)> by_class{};
  };
  Counters counters;

 private:
  UnitPort& port_;
  unsigned cu_;
  UnitTiming t_;
  std::array<double, size_t(ptx::InstrClass::kCount)> cost_{};  // issue cycles per class (memory: 0)
  cache::CacheArray icache_;
  uint64_t last_line_ = ~uint64_t(0);  // the line of the last fetch (a hit without a lookup)
  unsigned line_shift_ = 0;            // log2(icache_line) when a power of two (else 0: a division)
  uint64_t line_of(uint64_t address) const {
    return line_shift_ ? address >> line_shift_ : address / t_.icache_line;
  }
  void fetch_miss(uint64_t line);
  double pending_ = 0;                 // issue cycles not yet in the cursor
};

// A module image as the units read it (firmware/include/hetvp/compute.h CMP_IMG_*).
struct UnitModule {
  std::unique_ptr<ptx::Module> module;
  uint64_t va = 0, code_va = 0, lmem = 0;
  uint32_t lmem_slot = 0, lmem_slots = 0;
  std::vector<uint8_t> bank0;
  std::vector<uint64_t> vars;
};

// The module images the units have read, by (address space, VA, content hash): a module is read
// and decoded once per address space; a launch reads its header again (the hash) and nothing else.
class ModuleCache {
 public:
  // The module at `va` read on the instruction path from `cursor`; nullptr with *error when the
  // image is malformed (a fault: nullptr, *error empty, the block holds the error).
  const UnitModule* get(UnitPort& port, sc_core::sc_time& cursor, uint64_t space, uint64_t va, std::string* error);

 private:
  std::map<std::tuple<uint64_t, uint64_t, uint64_t>, std::unique_ptr<UnitModule>> modules_;
};

}  // namespace hetvp::gpu
