// Debug categories (gem5's --debug-flags): per-model messages about transactions and state
// changes, for finding out why a run does what it does. All off by default; a model guards each
// message with debug_on(flag), one load and one branch when nothing is on, so nothing is formatted.
//
//   hetvp run CONFIG --debug-flags PCIe,Dma      these categories, every instance
//   hetvp run CONFIG --set gpu0.log=debug         every category, instance gpu0 only
//   hetvp run CONFIG -vv                          every category, every instance (a lot of output)
//   hetvp list debug-flags                        the categories and what each one prints
//
// A message is one line on stderr: "debug: INSTANCE.MODEL: Flag: text [simulated time]".
// Each run has its own settings (RunContext::debug); a model calls HETVP_DEBUG(Flag, fmt, ...)
// from a member function of a RunMember (every Component is one).
#pragma once

#include <cstdint>
#include <ostream>
#include <map>
#include <string>
#include <vector>

namespace sc_core {
class sc_object;
}

namespace hetvp {

// Every category: its name and what turns up under it. The one place they are listed.
#define HETVP_DEBUG_FLAG_TABLE(X)                                                                              \
  X(PCIe, "PCIe links (every TLP: kind, address, bytes, queueing) and root complexes (configuration, MMIO, "   \
          "DMA accesses, MSIs)")                                                                              \
  X(Dma, "copy engines: each copy (addresses, bytes, time, result) and their register writes")                \
  X(Cpu, "host CPU: the workload's start and end, interrupts taken, sleeps")                                  \
  X(Memory, "memories: each access (address, bytes, latency)")                                               \
  X(Cache, "caches: misses, write-backs, snoops and flushes")                                                 \
  X(Coherence, "coherence directory: probes, history requests, translations and invalidations")              \
  X(Mcu, "microcontrollers: commands, state changes (start, halt, sleep, wake), transfers")                  \
  X(Rtl, "RTL register/bus bridges: each access to and from a Verilated block")                            \
  X(Fifo, "GPU FIFO: doorbells, GP entries fetched, methods decoded (subchannel, method, value), semaphores, "   \
          "runlist choices, GR context switches requested and acknowledged")                                  \
  X(Gr, "GR context-switch units: CHSW raised and acknowledged, MMCTX transfers, strand save/load, LOAD_CHAN")  \
  X(Mmu, "GPU MMU: TLB misses and their page-table walks (with the channel), translation faults")

enum class DebugFlag : unsigned {
#define HETVP_DEBUG_ENUM(name, doc) name,
  HETVP_DEBUG_FLAG_TABLE(HETVP_DEBUG_ENUM)
#undef HETVP_DEBUG_ENUM
      kCount
};

class DebugLog {
 public:
  static const char* name(DebugFlag f);
  static const char* doc(DebugFlag f);
  static std::vector<DebugFlag> all();
  // "PCIe,Dma" (case-insensitive names; "all" for every one). Throws std::invalid_argument naming
  // an unknown category and listing the known ones.
  void enable(const std::string& comma_separated);
  void enable(DebugFlag f) {
    mask_ |= bit(f);
    any_ = true;
  }
  void enable_all() { enable("all"); }
  // X.log: debug turns every category of instance X on, a lower level turns them off (over
  // --debug-flags and -vv).
  void set_instance(const std::string& instance, bool on) {
    instances_[instance] = on;
    any_ |= on;
  }

  bool any() const { return any_; }
  // Whether `who` (a module of the run) prints `f`'s messages.
  bool on(DebugFlag f, const sc_core::sc_object* who) const;
  void print(DebugFlag f, const sc_core::sc_object* who, const std::string& text) const;
  void set_stream(std::ostream* out) { out_ = out; }
  uint64_t lines() const { return lines_; }

 private:
  static uint32_t bit(DebugFlag f) { return 1u << static_cast<unsigned>(f); }
  bool any_ = false;
  uint32_t mask_ = 0;
  std::map<std::string, bool> instances_;
  std::ostream* out_ = nullptr;  // nullptr: std::cerr
  mutable uint64_t lines_ = 0;
};

}  // namespace hetvp
