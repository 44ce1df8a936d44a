// hetvp — the debug port of a microcontroller window (debug_port.h), served by the core host for
// both cores: what `hetvp debug` uses for run control, breakpoints, a watch, registers and memories.
#include <algorithm>
#include <cstring>

#include "models/mcu/core_host.h"
#include "platform/payload.h"

namespace hetvp::mcu {

bool CoreHost::debug_port(tlm::tlm_generic_payload& gp, const sc_core::sc_time& delay) {
  const uint32_t off = static_cast<uint32_t>(gp.get_address()) & 0xfff;
  if (off < DBG_PORT_BASE || off >= DBG_PORT_END) return false;
  if (gp.get_data_length() != 4 || (off & 3) || gp.get_byte_enable_ptr()) {
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return true;
  }
  uint32_t v = 0;
  if (gp.is_write()) std::memcpy(&v, gp.get_data_ptr(), 4);
  const bool ok = debug_port(gp.get_command(), off, v, delay);
  if (ok && gp.is_read()) std::memcpy(gp.get_data_ptr(), &v, 4);
  gp.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
  return true;
}

bool CoreHost::debug_port(tlm::tlm_command cmd, uint32_t off, uint32_t& v, const sc_core::sc_time& delay) {
  if (off < DBG_PORT_BASE || off >= DBG_PORT_END) return false;
  const bool wr = cmd == tlm::TLM_WRITE_COMMAND;
  auto rw = [&](uint32_t& reg) {
    if (wr)
      reg = v;
    else
      v = reg;
  };
  switch (off) {
    case DBG_CTRL:
      if (wr) debug_command(v, delay);
      else v = 0;
      break;
    case DBG_ADDR: rw(dbg_addr_); break;
    case DBG_ARG: rw(dbg_arg_); break;
    case DBG_REG_INDEX: rw(dbg_reg_index_); break;
    case DBG_MEM_ADDR: rw(dbg_mem_addr_); break;
    case DBG_STATUS: if (!wr) v = debug_status(); break;
    case DBG_PC: if (!wr) v = core_->read_pc(); break;
    case DBG_REG: if (!wr) v = debug_register(dbg_reg_index_); break;
    case DBG_MEM:
      if (!wr) {
        const std::vector<uint8_t>& m = memory((dbg_mem_addr_ & DBG_MEM_CODE) != 0);
        const uint32_t a = dbg_mem_addr_ & ~DBG_MEM_CODE & ~3u;
        v = 0;
        if (uint64_t(a) + 4 <= m.size()) std::memcpy(&v, &m[a], 4);
        dbg_mem_addr_ = (dbg_mem_addr_ & DBG_MEM_CODE) | ((a + 4) & ~DBG_MEM_CODE);
      }
      break;
    case DBG_HIT: if (!wr) v = hit_; break;
    case DBG_HIT_VALUE: if (!wr) v = hit_value_; break;
    case DBG_HIT_PC: if (!wr) v = hit_pc_; break;
    case DBG_HAS: if (!wr) v = bank().has(dbg_addr_ & 0xffc) || forwarded(dbg_addr_ & 0xffc); break;
    case DBG_CYCLES_LO: if (!wr) v = static_cast<uint32_t>(core_->cycles()); break;
    case DBG_CYCLES_HI: if (!wr) v = static_cast<uint32_t>(core_->cycles() >> 32); break;
    case DBG_CLOCK_KHZ: if (!wr) v = static_cast<uint32_t>(clock_hz_ / 1e3 + 0.5); break;
    default: return false;  // a hole in the port: refused like any unmapped offset
  }
  return true;
}

void CoreHost::debug_command(uint32_t cmd, const sc_core::sc_time& delay) {
  switch (static_cast<DbgCmd>(cmd)) {
    case DbgCmd::stop:
      if (mode_ == RunMode::running || mode_ == RunMode::sleeping) cause_ = DbgCause::stop;
      stop_run(delay);
      break;
    case DbgCmd::cont:
      resume_run(delay);
      break;
    case DbgCmd::step:
      if (mode_ == RunMode::stopped) cause_ = DbgCause::step;
      step_once();
      break;
    case DbgCmd::break_set:
      core_->set_breakpoint(dbg_addr_);
      ++breakpoints_;
      break;
    case DbgCmd::break_clear:
      core_->clear_breakpoint(dbg_addr_);
      if (breakpoints_) --breakpoints_;
      break;
    case DbgCmd::break_clear_all:
      core_->clear_breakpoints();
      breakpoints_ = 0;
      break;
    case DbgCmd::watch_set:
      watch_on_ = (dbg_arg_ & 3) != 0;
      watch_off_ = dbg_addr_ & 0xffc;
      watch_kinds_ = dbg_arg_ & 3;
      break;
    case DbgCmd::watch_clear:
      watch_on_ = false;
      break;
    default:
      break;  // an unknown command does nothing (the host tool sends only these)
  }
}

uint32_t CoreHost::debug_status() const {
  uint32_t s = static_cast<uint32_t>(mode_) | (static_cast<uint32_t>(cause_) << DBG_STATUS_CAUSE_SHIFT);
  if (core_->state() == CoreState::sleeping) s |= DBG_STATUS_ASLEEP;
  return s | (std::min(breakpoints_, 255u) << DBG_STATUS_BREAKS_SHIFT);
}

uint32_t CoreHost::debug_register(uint32_t index) const {
  uint32_t v = 0;
  if (const RegisterView* rv = core_->register_view()) return rv->debug_register(index, v) ? v : 0;
  if (index < 32) return core_->read_gpr(index);
  return index == 32 ? core_->read_pc() : 0;
}

void CoreHost::watch_access(bool write, uint32_t value) {
  if (!(watch_kinds_ & (write ? 2u : 1u))) return;
  hit_ = watch_off_ | (write ? DBG_HIT_WRITE : 0u);
  hit_value_ = value;
  hit_pc_ = core_->read_pc();
  watch_stop_ = true;
  core_->request_stop();
}

}  // namespace hetvp::mcu
