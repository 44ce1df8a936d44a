#include "sw/mcu/debugger.h"

#include <cctype>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/gpu_map.h"
#include "firmware/include/hetvp/mcu_map.h"
#include "firmware/include/hetvp/pmc.h"
#include "models/mcu/debug_port.h"
#include "models/mcu/falcon/debug_regs.h"
#include "models/mcu/falcon/disasm.h"
#include "models/mcu/rv32/disasm.h"
#include "platform/format.h"
#include "sw/driver/falcon_boot.h"
#include "sw/driver/mcu_driver.h"

namespace hetvp::sw {

using namespace hetvp::mcu;

McuDebugger::McuDebugger(McuDriver& mcu, GpuDriver& gpu) : mcu_(mcu) {
  falcon_ = falcon_microcontrollers(gpu);
  if (falcon_) version_ = gpu.reg_read(GPU_HUB_BASE + FCTX_UC_CAPS2) & FCTX_UC_CAPS2_VERSION_MASK;
}

uint32_t McuDebugger::port(const McuId& m, uint32_t off) { return mcu_.read(m, off); }
void McuDebugger::port(const McuId& m, uint32_t off, uint32_t v) { mcu_.write(m, off, v); }
void McuDebugger::command(const McuId& m, uint32_t cmd, uint32_t addr, uint32_t arg) {
  port(m, DBG_ADDR, addr);
  port(m, DBG_ARG, arg);
  port(m, DBG_CTRL, cmd);
}

uint32_t McuDebugger::pc(const McuId& m) { return port(m, DBG_PC); }
bool McuDebugger::asleep(const McuId& m) { return port(m, DBG_STATUS) & DBG_STATUS_ASLEEP; }
bool McuDebugger::stopped(const McuId& m) {
  return (port(m, DBG_STATUS) & DBG_STATUS_MODE_MASK) == MCU_STATE_STOPPED;
}

std::string McuDebugger::where(const McuId& m, uint32_t at) const {
  const std::string s = symbols(m).describe(at);
  return format(falcon_ ? "0x%04x" : "0x%08x", at) + (s.empty() ? "" : " <" + s + ">");
}

std::string McuDebugger::state(const McuId& m) {
  if (m.kind == McuId::AllGpcs) return "(every GPC: name one, gpc0..)";
  const uint32_t s = port(m, DBG_STATUS);
  const unsigned mode = s & DBG_STATUS_MODE_MASK;
  const auto cause = static_cast<DbgCause>((s & DBG_STATUS_CAUSE_MASK) >> DBG_STATUS_CAUSE_SHIFT);
  const std::string at = where(m, pc(m));
  const char* sleep_insn = falcon_ ? "sleep" : "wfi";
  switch (mode) {
    case MCU_STATE_RUNNING: return "running at pc " + at;
    case MCU_STATE_SLEEPING: return std::string("asleep (in ") + sleep_insn + " at pc " + at + ", until an interrupt)";
    case MCU_STATE_STOPPED: {
      std::string why = cause == DbgCause::breakpoint ? "breakpoint"
                        : cause == DbgCause::watch    ? "watch: " + watch_hit(m)
                        : cause == DbgCause::step     ? "step"
                                                      : "stopped by the debugger";
      std::string r = "stopped at pc " + at + " (" + why + ")";
      if (s & DBG_STATUS_ASLEEP) r += std::string(", asleep in ") + sleep_insn;
      return r;
    }
    case MCU_STATE_HALTED:
    case MCU_STATE_TRAPPED:
      if (!falcon_) return mcu_.state(m);
      return std::string(mcu_state_name(mode)) + " at pc " + at + " (the simulator's warning says why)";
    default: return std::string(mcu_state_name(mode));
  }
}

void McuDebugger::stop(const McuId& m) { port(m, DBG_CTRL, uint32_t(DbgCmd::stop)); }
void McuDebugger::cont(const McuId& m) { port(m, DBG_CTRL, uint32_t(DbgCmd::cont)); }

void McuDebugger::step(const McuId& m, uint64_t n) {
  const uint32_t s = port(m, DBG_STATUS);
  const unsigned mode = s & DBG_STATUS_MODE_MASK;
  const char* sleep_insn = falcon_ ? "sleep" : "wfi";
  if (mode == MCU_STATE_SLEEPING)
    throw McuError(m.name() + " is asleep in " + sleep_insn + " at pc " + where(m, pc(m)) +
                   ": nothing to step until an interrupt wakes it (stop it first to step it when it wakes)");
  if (mode != MCU_STATE_STOPPED)
    throw McuError(m.name() + " is " + mcu_state_name(mode) + ", not stopped: 'stop " + m.name() +
                   "' or a breakpoint first");
  if (s & DBG_STATUS_ASLEEP)
    throw McuError(m.name() + " is stopped asleep in " + sleep_insn + " at pc " + where(m, pc(m)) +
                   ": a step executes nothing until an interrupt wakes it");
  for (uint64_t i = 0; i < n; ++i) port(m, DBG_CTRL, uint32_t(DbgCmd::step));
}

uint32_t McuDebugger::code_address(const McuId& m, const std::string& w) const {
  if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0]))) {
    size_t pos = 0;
    unsigned long v = 0;
    try {
      v = std::stoul(w, &pos, 0);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos != w.size() || v > 0xffffffffu) throw McuError("not an address: '" + w + "'");
    return static_cast<uint32_t>(v);
  }
  const DebugSymbols& s = symbols(m);
  if (auto a = s.find(w)) return *a;
  throw McuError("no code symbol '" + w + "' in " + m.name() + "'s symbols" +
                 (s.empty() ? " (none loaded: 'symbols " + m.name() + " FILE')" : " (" + s.source() + ")"));
}

void McuDebugger::break_at(const McuId& m, uint32_t a) { command(m, uint32_t(DbgCmd::break_set), a); }
void McuDebugger::clear_break(const McuId& m, uint32_t a) { command(m, uint32_t(DbgCmd::break_clear), a); }
void McuDebugger::clear_breaks(const McuId& m) { command(m, uint32_t(DbgCmd::break_clear_all)); }
void McuDebugger::watch(const McuId& m, uint32_t off, uint32_t kinds) {
  command(m, uint32_t(DbgCmd::watch_set), off, kinds);
}
void McuDebugger::unwatch(const McuId& m) { command(m, uint32_t(DbgCmd::watch_clear)); }

std::string McuDebugger::watch_hit(const McuId& m) {
  const uint32_t h = port(m, DBG_HIT);
  return format("%s %s register 0x%03x (value 0x%08x) at pc ", m.name().c_str(),
                (h & DBG_HIT_WRITE) ? "wrote" : "read", h & 0xfff, port(m, DBG_HIT_VALUE)) +
         where(m, port(m, DBG_HIT_PC));
}

bool McuDebugger::has_register(const McuId& m, uint32_t off) {
  port(m, DBG_ADDR, off);
  return port(m, DBG_HAS) != 0;
}

std::vector<std::pair<std::string, uint32_t>> McuDebugger::registers(const McuId& m) {
  std::vector<std::pair<std::string, uint32_t>> out;
  if (falcon_) {
    for (unsigned i = 0; i < falcon::kDebugRegisterCount; ++i) {
      port(m, DBG_REG_INDEX, i);
      out.emplace_back(falcon::kDebugRegisterNames[i], port(m, DBG_REG));
    }
    return out;
  }
  for (unsigned i = 0; i <= 32; ++i) {
    port(m, DBG_REG_INDEX, i);
    out.emplace_back(i == 32 ? "pc" : "x" + std::to_string(i), port(m, DBG_REG));
  }
  return out;
}

std::vector<uint8_t> McuDebugger::memory(const McuId& m, bool code, uint32_t off, uint32_t len) {
  std::vector<uint8_t> out;
  port(m, DBG_MEM_ADDR, (off & ~3u) | (code ? DBG_MEM_CODE : 0u));
  for (uint32_t i = 0; i < len + (off & 3); i += 4) {
    const uint32_t w = port(m, DBG_MEM);
    for (int k = 0; k < 4; ++k) out.push_back(uint8_t(w >> (8 * k)));
  }
  out.erase(out.begin(), out.begin() + (off & 3));
  out.resize(len);
  return out;
}

uint32_t McuDebugger::listing_start(const McuId& m, uint32_t at) const {
  // Code is decoded forwards from a known instruction start: the enclosing symbol when it is close.
  const std::string s = symbols(m).describe(at);
  if (const size_t plus = s.find('+'); plus != std::string::npos) {
    const uint32_t off = static_cast<uint32_t>(std::stoul(s.substr(plus + 3), nullptr, 16));
    if (off <= 0x40) return at - off;
  }
  return at;
}

std::vector<std::string> McuDebugger::disassemble(const McuId& m, uint32_t addr, unsigned count) {
  std::vector<std::string> lines;
  const uint32_t now = pc(m);
  const DebugSymbols& syms = symbols(m);
  const uint32_t base = falcon_ ? 0 : MCU_IMEM_BASE;
  // Enough bytes for `count` of the longest instructions (8 bytes read per Falcon instruction).
  const std::vector<uint8_t> bytes = memory(m, true, addr - base, count * 8 + 8);
  uint32_t at = addr;
  for (unsigned i = 0; i < count; ++i) {
    const size_t o = at - addr;
    if (o + 8 > bytes.size()) break;
    unsigned len = 0;
    std::string text;
    if (falcon_) {
      text = falcon::disassemble(&bytes[o], at, len, version_);
    } else {
      uint32_t w = 0;
      for (int k = 0; k < 4; ++k) w |= uint32_t(bytes[o + k]) << (8 * k);
      text = rv32::disassemble(w, at, len);
    }
    const std::string label = syms.at(at);
    if (!label.empty()) lines.push_back(format(falcon_ ? "%04x <%s>:" : "%08x <%s>:", at, label.c_str()));
    std::string hexb;
    for (unsigned k = 0; k < len && k < 8; ++k) hexb += format("%02x ", bytes[o + k]);
    lines.push_back(format(falcon_ ? "%s %04x:  %-18s %s" : "%s %08x:  %-18s %s", at == now ? "=>" : "  ", at,
                           hexb.c_str(), text.c_str()));
    at += len ? len : 1;
  }
  return lines;
}

const DebugSymbols& McuDebugger::symbols(const McuId& m) const {
  auto it = symbols_.find(m.kind == McuId::Hub ? "hub" : "gpc");
  return it == symbols_.end() ? none_ : it->second;
}

void McuDebugger::default_symbols(GpuDriver& gpu, const std::string& hub_elf, const std::string& gpc_elf) {
  if (falcon_) {
    std::string chip;
    try {
      chip = falcon_chip(gpu).name;
    } catch (const McuError&) {
      return;  // no nouveau firmware for this chip: no built-in labels
    }
    // gpu.microcontrollers.firmware: hetvp without a resident image: the boot uploads hetvp's C
    // firmware translated for the Falcon (falcon_boot.cpp), so its header's labels (the C functions)
    // are the ones that name its addresses; otherwise nouveau's.
    const uint32_t resident = gpu.reg_read(GPU_PTOP_BASE + PTOP_MCU_IMAGES);
    for (const char* u : {"hub", "gpc"}) {
      const bool hub = u[0] == 'h';
      const bool own = (resident & PTOP_MCU_IMAGES_HETVP) && !(resident & (hub ? PTOP_MCU_IMAGES_HUB : PTOP_MCU_IMAGES_GPC));
      DebugSymbols s;
      if (own) {
        try {
          s = DebugSymbols::from_file(firmware_dir_default() + "/falcon/" + u + ".fuc3.h");
        } catch (const McuError&) {
          // not built: the boot names the missing image; no labels until `symbols` names a file
        }
      } else {
        s = DebugSymbols::nouveau(chip, u);
      }
      if (!s.empty()) symbols_[u] = std::move(s);
    }
    return;
  }
  for (const auto& [u, path] : {std::pair<const char*, std::string>{"hub", hub_elf}, {"gpc", gpc_elf}}) {
    try {
      symbols_[u] = DebugSymbols::from_elf(ElfImage::from_file(path));
    } catch (const std::exception&) {
      // not built or not readable: no symbols until a `load` or `symbols` names one
    }
  }
}

}  // namespace hetvp::sw
