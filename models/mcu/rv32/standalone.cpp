// hetvp — standalone ISS runner (HTIF tohost exit, debug console).
#include "models/mcu/rv32/standalone.h"

#include "firmware/include/hetvp/mcu_map.h"
#include "models/mcu/rv32/core.h"
#include "platform/elf_image.h"
#include "platform/format.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

namespace hetvp::mcu {

namespace {

struct Mem {
  uint32_t base = 0;
  uint32_t size = 0;
  bool exec = false;
  std::vector<uint8_t> bytes;
};

// Serves the tohost word (kept out of the DMI regions so every access to it comes here), the
// debug console, and - with DMI off - all memory.
class StandaloneBus final : public BusIf {
 public:
  std::vector<Mem>* mems = nullptr;
  uint32_t tohost = 0;
  CoreIf* core = nullptr;
  std::ostream* log = nullptr;
  bool exited = false;
  bool bad_command = false;
  uint32_t exit_code = 0;

  uint8_t* at(uint32_t addr, uint32_t size) {
    for (auto& m : *mems)
      if (addr - m.base < m.size && m.size - (addr - m.base) >= size) return m.bytes.data() + (addr - m.base);
    return nullptr;
  }
  bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t&) override {
    uint8_t* p = at(addr, size);
    if (!p) return false;
    value = 0;
    std::memcpy(&value, p, size);
    return true;
  }
  bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t&) override {
    if (addr == MCU_SA_CONSOLE_ADDR) {
      log->put(static_cast<char>(value & 0xff));
      if ((value & 0xff) == '\n') log->flush();
      return true;
    }
    uint8_t* p = at(addr, size);
    if (!p) return false;
    std::memcpy(p, &value, size);
    if (addr <= tohost + 3 && addr + size > tohost) {
      uint32_t v;
      std::memcpy(&v, at(tohost, 4), 4);
      if (v != 0 && (addr + size >= tohost + 4)) {  // whole word written (sw, or last byte)
        if (v & 1) {
          exited = true;
          exit_code = v >> 1;
          core->halt("exit code " + std::to_string(exit_code));
        } else {
          bad_command = true;
          core->halt("unsupported HTIF command " + hex(v, 8) + " written to tohost");
        }
      }
    }
    return true;
  }
};

}  // namespace

int run_standalone_elf(const std::string& elf_path, const StandaloneOptions& opt, std::ostream& log,
                       StandaloneStats* stats) {
  if (stats) *stats = StandaloneStats{};
  const std::string who = "hetvp iss: " + elf_path + ": ";  // every line names the program
  std::unique_ptr<ElfImage> img;
  try {
    img = std::make_unique<ElfImage>(ElfImage::from_file(elf_path));
  } catch (const std::exception& e) {
    log << "hetvp iss: " << e.what() << "\n";
    return kStandaloneLoadError;
  }
  std::unique_ptr<std::ofstream> code_file;  // opened (truncated) before the run: a bad path is a usage error
  if (!opt.exit_code_file.empty()) {
    code_file = std::make_unique<std::ofstream>(opt.exit_code_file);
    if (!*code_file) {
      log << "hetvp iss: --exit-code-file " << opt.exit_code_file << ": cannot write\n";
      return kStandaloneLoadError;
    }
  }
  const auto tohost = img->symbol("tohost");
  if (!tohost) {
    log << who << "no 'tohost' symbol (the program must store (code<<1)|1 there to exit)\n";
    return kStandaloneLoadError;
  }
  if (*tohost & 3) {
    log << who << "'tohost' at " << hex(*tohost, 8) << " is not 4-byte aligned\n";
    return kStandaloneLoadError;
  }

  // --- memory: page-aligned intervals covering the segments (+ stack), merged when close ---
  // p_flags are ignored (bare-metal linker scripts often emit 0): like Spike and QEMU, every byte
  // of memory may be executed. Decode caches are allocated only for regions code actually runs
  // from. (The microcontrollers' firmware images keep the code/data split: sw/mcu's loader.)
  struct Iv {
    uint64_t lo, hi;
    bool exec;
  };
  std::vector<Iv> ivs;
  constexpr uint64_t page = 4096;
  for (const auto& s : img->segments())
    ivs.push_back({s.vaddr & ~(page - 1), (uint64_t(s.vaddr) + s.memsz + page - 1) & ~(page - 1), true});
  uint64_t stack_top;
  if (auto st = img->symbol("__stack_top")) {
    stack_top = *st;
  } else {
    uint64_t hi = 0;
    for (const auto& iv : ivs) hi = std::max(hi, iv.hi);
    stack_top = hi + opt.stack_size;
  }
  stack_top &= ~uint64_t(15);
  if (stack_top > (1ull << 32) - 4 || stack_top < opt.stack_size) {
    log << who << "no room for a stack below " << hex(uint32_t(stack_top), 8) << "\n";
    return kStandaloneLoadError;
  }
  ivs.push_back({(stack_top - opt.stack_size) & ~(page - 1), (stack_top + page - 1) & ~(page - 1), true});
  std::sort(ivs.begin(), ivs.end(), [](const Iv& a, const Iv& b) { return a.lo < b.lo; });
  std::vector<Iv> merged;
  for (const auto& iv : ivs) {
    if (!merged.empty() && iv.lo <= merged.back().hi + (1u << 20)) {
      merged.back().hi = std::max(merged.back().hi, iv.hi);
      merged.back().exec = merged.back().exec || iv.exec;
    } else {
      merged.push_back(iv);
    }
  }
  // Memory is allocated densely (plus a decode cache for executable regions): a corrupt or
  // absurd segment size must not take the host's memory.
  uint64_t total = 0;
  for (const auto& iv : merged) total += iv.hi - iv.lo;
  if (total > kStandaloneMaxMemory) {
    log << who << "its segments and stack need " << total << " bytes of memory; the standalone ISS allocates at most "
        << kStandaloneMaxMemory << " (" << (kStandaloneMaxMemory >> 20) << " MiB)\n";
    return kStandaloneLoadError;
  }
  std::vector<Mem> mems;
  for (const auto& iv : merged)
    mems.push_back({static_cast<uint32_t>(iv.lo), static_cast<uint32_t>(iv.hi - iv.lo), iv.exec, {}});
  for (auto& m : mems) m.bytes.assign(m.size, 0);
  for (const auto& s : img->segments()) {
    for (auto& m : mems)
      if (s.vaddr >= m.base && uint64_t(s.vaddr) + s.memsz <= uint64_t(m.base) + m.size)
        std::copy(s.data.begin(), s.data.end(), m.bytes.begin() + (s.vaddr - m.base));
  }

  rv32::Rv32Core core;
  StandaloneBus bus;
  bus.mems = &mems;
  bus.tohost = *tohost;
  bus.core = &core;
  bus.log = &log;
  core.set_bus(&bus);
  core.set_dmi(opt.dmi);
  core.set_threaded_blocks(opt.threaded_blocks);
  core.set_strict_traps(opt.strict_traps);
  core.set_trap_watchdog(opt.trap_watchdog);
  core.set_misaligned_emulation(opt.misaligned_emulate);
  try {
    core.set_cycle_costs(opt.cycle_costs);
    bool tohost_mapped = false;
    for (auto& m : mems) {
      const uint32_t t = *tohost;
      if (t - m.base < m.size) {  // keep the tohost word out of DMI: split around it
        tohost_mapped = true;
        if (t > m.base) core.add_region({m.base, t - m.base, m.bytes.data(), true, m.exec});
        if (t + 4 < m.base + uint64_t(m.size))
          core.add_region({t + 4, m.base + m.size - (t + 4), m.bytes.data() + (t + 4 - m.base), true, m.exec});
      } else {
        core.add_region({m.base, m.size, m.bytes.data(), true, m.exec});
      }
    }
    if (!tohost_mapped) {
      log << who << "'tohost' at " << hex(*tohost, 8) << " is outside every loaded segment\n";
      return kStandaloneLoadError;
    }
  } catch (const std::exception& e) {
    log << who << e.what() << "\n";
    return kStandaloneLoadError;
  }
  core.reset(img->entry());
  core.write_gpr(2, static_cast<uint32_t>(stack_top));

  const auto t0 = std::chrono::steady_clock::now();
  int rc = kStandaloneTimeout;
  auto finish = [&](int code) {
    if (stats) {
      stats->instructions = core.instret();
      stats->cycles = core.cycles();
      stats->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    return code;
  };
  uint64_t executed = 0;
  // Cycles spent without retiring an instruction: only a loop of traps does that (each costs at
  // least one cycle). With the trap watchdog off it would never end, so it is bounded too.
  uint64_t idle_cycles = 0;
  while (executed < opt.max_instructions) {
    RunResult r;
    if (opt.trace) {
      const uint32_t pc = core.read_pc();
      const uint32_t raw = core.fetch_raw(pc);
      r = core.step();
      std::string line = format("[%10llu] %08x: %0*x\n", static_cast<unsigned long long>(core.instret()), pc,
                                (raw & 3) == 3 ? 8 : 4, raw);
      log << line;
    } else {
      // each instruction costs >= 1 cycle, so a budget of n cycles runs at most n instructions
      r = core.run(std::min<uint64_t>(opt.max_instructions - executed, 1u << 24));
    }
    executed += r.instructions;
    idle_cycles = r.instructions ? 0 : idle_cycles + r.cycles;
    if (idle_cycles >= opt.max_instructions) {
      log << who << "timeout: no instruction retired in " << idle_cycles << " cycles (a loop of traps at pc "
          << hex(core.read_pc(), 8) << "; the trap watchdog is off)\n";
      return finish(kStandaloneTimeout);
    }
    if (r.reason == RunResult::Reason::halted) {
      if (bus.exited) {
        rc = static_cast<int>(bus.exit_code);
        log << who << "exit code " << rc << " after " << core.instret() << " instructions\n";
        if (code_file) *code_file << rc << "\n" << std::flush;
        return finish(rc);
      }
      log << who << "halted: " << core.halt_reason() << "\n";
      return finish(kStandaloneFatal);
    }
    if (r.reason == RunResult::Reason::trapped_fatal) {
      log << who << "fatal trap: " << core.halt_reason() << "\n";
      return finish(kStandaloneFatal);
    }
    if (r.reason == RunResult::Reason::wfi) {
      log << who << "the program sleeps in wfi at pc " << hex(core.read_pc(), 8)
          << " but standalone mode has no interrupt source (deadlock)\n";
      return finish(kStandaloneDeadlock);
    }
    if (r.reason == RunResult::Reason::breakpoint) {
      log << who << "stopped at breakpoint pc " << hex(core.read_pc(), 8) << "\n";
      return finish(kStandaloneFatal);
    }
  }
  log << who << "timeout: no exit through 'tohost' after " << executed << " instructions (pc " << hex(core.read_pc(), 8)
      << ")\n";
  return finish(rc);
}

int iss_exit_status(int code) {
  if (code == 0) return 0;
  return code >= 3 && code < kIssStatusOtherCode ? code : kIssStatusOtherCode;
}

}  // namespace hetvp::mcu
