// hetvp — what `hetvp debug` does to one microcontroller, the same way on RV32 and Falcon cores: run
// control, breakpoints, a watch, registers, memories and disassembly through the window's debug port
// (models/mcu/debug_port.h), with the names of the core's symbols (debug_symbols.h). Runs on the host
// CPU model; touches the GPU only through McuDriver's register accesses (BAR0 MMIO).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sw/driver/mcu_driver.h"
#include "sw/mcu/debug_symbols.h"

namespace hetvp::sw {

class McuDebugger {
 public:
  // Probes the core type (Falcon or RV32) of the GPU's microcontrollers.
  McuDebugger(McuDriver& mcu, GpuDriver& gpu);
  bool falcon() const { return falcon_; }
  const char* isa() const { return falcon_ ? (version_ >= 5 ? "Falcon v5" : "Falcon v3") : "RV32"; }

  // "running", "sleeping (in wfi at pc 0x... main+0x4)", "stopped at pc 0x... (breakpoint)", ...
  std::string state(const McuId& m);
  bool asleep(const McuId& m);  // the core sits in its sleep instruction (wfi / Falcon sleep)
  bool stopped(const McuId& m);
  uint32_t pc(const McuId& m);
  std::string where(const McuId& m, uint32_t pc) const;  // "0x0000056a (main)"

  void stop(const McuId& m);
  void cont(const McuId& m);
  // n instructions of a stopped core; McuError (saying why) when it is not stopped or sleeps.
  void step(const McuId& m, uint64_t n);

  // An address or a symbol of the core's code (0x56a, main); McuError naming the symbols' source.
  uint32_t code_address(const McuId& m, const std::string& word) const;
  void break_at(const McuId& m, uint32_t addr);
  void clear_break(const McuId& m, uint32_t addr);
  void clear_breaks(const McuId& m);
  // A watch on register `off` of the core's own window: kinds 1 read, 2 write, 3 both.
  void watch(const McuId& m, uint32_t off, uint32_t kinds);
  void unwatch(const McuId& m);
  // "hub wrote 0x00000004 to register 0x800 at pc ..." after a watch stop, else "".
  std::string watch_hit(const McuId& m);

  // The window has a register at `off` (this slot's, this chip's; the debug port's DBG_HAS).
  bool has_register(const McuId& m, uint32_t off);
  // The core's registers by the debugger's names (RV32 x0..x31 and pc; Falcon $r0..$r15 and the special
  // registers).
  std::vector<std::pair<std::string, uint32_t>> registers(const McuId& m);
  // Bytes of the code or data memory (offsets from the memory's start).
  std::vector<uint8_t> memory(const McuId& m, bool code, uint32_t off, uint32_t len);
  // `count` instructions from `addr` (a line each: "=> 0x056a <main>:  bset $flags p0" for the pc).
  std::vector<std::string> disassemble(const McuId& m, uint32_t addr, unsigned count);
  // Where to start decoding to list "around pc": the enclosing symbol when it is at most 0x40 bytes
  // before (variable-length code cannot be decoded backwards), else pc itself.
  uint32_t listing_start(const McuId& m, uint32_t pc) const;

  // Symbols of a target (the GPC ones are every GPC's).
  void set_symbols(const std::string& target, DebugSymbols s) { symbols_[target] = std::move(s); }
  const DebugSymbols& symbols(const McuId& m) const;
  // nouveau's labels for the GPU's chip (Falcon); RV32: the ELF images (hub_elf, gpc_elf) when readable.
  void default_symbols(GpuDriver& gpu, const std::string& hub_elf, const std::string& gpc_elf);

 private:
  uint32_t port(const McuId& m, uint32_t off);
  void port(const McuId& m, uint32_t off, uint32_t v);
  void command(const McuId& m, uint32_t cmd, uint32_t addr = 0, uint32_t arg = 0);
  McuDriver& mcu_;
  bool falcon_ = false;
  unsigned version_ = 3;
  std::map<std::string, DebugSymbols> symbols_;  // "hub", "gpc"
  DebugSymbols none_;
};

}  // namespace hetvp::sw
