// hetvp — the debug port of every microcontroller window (RV32 and Falcon alike): run control,
// breakpoints, a watch on one of the window's own registers, the core's registers by index, its
// code/data memories and its cycle counter, at window offsets 0xF00-0xF3C, which neither register block uses
// (firmware/include/hetvp/mcu_regs.h, falcon_ctxctl_regs.h). hetvp's own design (an assumption: real
// Falcon v3 controllers have no such port; v4+ have an in-circuit debugger with other registers), served
// by the core host (CoreHost::debug_port) for `hetvp debug` (sw/mcu/mcu_workloads.cpp), docs/firmware.md.
#pragma once

#include <cstdint>

#include "firmware/include/hetvp/mcu_debug_port.h"

namespace hetvp::mcu {

constexpr uint32_t DBG_PORT_BASE = 0xF00, DBG_PORT_END = 0xF40;
constexpr uint32_t DBG_CTRL = 0xF00;       // write: a DbgCmd (arguments in DBG_ADDR / DBG_ARG)
constexpr uint32_t DBG_ADDR = 0xF04;       // breakpoint pc, or the watched register's window offset
constexpr uint32_t DBG_ARG = 0xF08;        // watch: bit 0 reads, bit 1 writes
constexpr uint32_t DBG_STATUS = 0xF0C;     // read: DBG_STATUS_* fields
constexpr uint32_t DBG_PC = 0xF10;         // read: the core's pc
constexpr uint32_t DBG_REG_INDEX = 0xF14;  // RV32: 0..31 = x0..x31, 32 = pc; Falcon: falcon/debug_regs.h
constexpr uint32_t DBG_REG = 0xF18;        // read: that register (0 for an index the core has not)
constexpr uint32_t DBG_MEM_ADDR = 0xF1C;   // byte offset in a memory; bit 31 = code memory, else data
constexpr uint32_t DBG_MEM = 0xF20;        // read: the word there (0 outside); DBG_MEM_ADDR += 4
constexpr uint32_t DBG_HIT = 0xF24;        // the last watch hit: window offset, bit 31 = a write
constexpr uint32_t DBG_HIT_VALUE = 0xF28;  // the value it read or wrote
constexpr uint32_t DBG_HIT_PC = 0xF2C;     // the pc of the instruction that made the access
constexpr uint32_t DBG_HAS = 0xF30;        // read: 1 when the window has a register at DBG_ADDR (this slot, chip)
// The cycles the core has executed since its start (not while asleep), the same count for both cores
// (CoreIf::cycles(); on RV32 also UC_CYCLES): a host that reads it around a piece of work gets the
// firmware's busy cycles for it, measured one way on RV32 and Falcon (bench/fujii2013). Two words
// of a running count: read HI, LO, HI and again when HI changed.
constexpr uint32_t DBG_CYCLES_LO = MCU_DBG_CYCLES_LO;  // firmware reads it too
constexpr uint32_t DBG_CYCLES_HI = 0xF38;
constexpr uint32_t DBG_CLOCK_KHZ = 0xF3C;  // read: the core's clock in kHz (its clock parameter)

enum class DbgCmd : uint32_t {
  stop = 1,             // running/sleeping -> stopped
  cont = 2,             // stopped -> running
  step = 3,             // stopped: one instruction (nothing while the core sleeps in wfi/sleep)
  break_set = 4,        // breakpoint at pc DBG_ADDR
  break_clear = 5,      // remove the one at DBG_ADDR
  break_clear_all = 6,  // remove every breakpoint
  watch_set = 7,        // stop after the core's access of register DBG_ADDR (DBG_ARG: 1 read, 2 write, 3 both)
  watch_clear = 8,
};

// DBG_STATUS: the host's run state (MCU_STATE_* values), why it last stopped, whether the core sleeps.
constexpr uint32_t DBG_STATUS_MODE_MASK = 0xf;
constexpr uint32_t DBG_STATUS_CAUSE_SHIFT = 4, DBG_STATUS_CAUSE_MASK = 0xf0;
constexpr uint32_t DBG_STATUS_ASLEEP = 0x100;  // the core is in its sleep instruction (wfi / Falcon sleep)
constexpr uint32_t DBG_STATUS_BREAKS_SHIFT = 16;  // bits 16-23: breakpoints set
enum class DbgCause : uint32_t { none = 0, stop = 1, step = 2, breakpoint = 3, watch = 4 };
constexpr uint32_t DBG_MEM_CODE = 0x80000000u;
constexpr uint32_t DBG_HIT_WRITE = 0x80000000u;

}  // namespace hetvp::mcu
