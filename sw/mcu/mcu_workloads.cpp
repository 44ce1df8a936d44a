// hetvp — host programs for the microcontrollers:
//   mcu_boot     the boot sequence (upload, start, init-done handshake) and a ping of every MCU
//   mcu_context  context save on one GPC, load into another (VRAM and host memory), bit-identical check
//   mcu_bench    CPU-bound firmware on the HUB or HUB + all GPCs: ISS speed inside the model
//   debug        the debug support tool (papers' Fig. 4/6): a script of load/start/cmd/regs/dump lines
#include <chrono>
#include <cinttypes>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "firmware/include/hetvp/mcu_map.h"
#include "models/host/host_api.h"
#include "platform/config.h"
#include "platform/file_input.h"
#include "platform/paths.h"
#include "platform/program.h"
#include "sw/mcu/debug_prompt.h"
#include "sw/mcu/debug_script.h"
#include "sw/driver/mcu_driver.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {

// The boot's keys at the top level of the args, then the driver's options.
struct McuArgs : McuBootOptions {
  Group<DriverOptions> driver{this, "driver", "driver options"};
};

double us(const sc_core::sc_time& t) { return t.to_seconds() * 1e6; }

double cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// ------------------------------------------------------------------------------------------ mcu_boot
struct McuBootArgs : McuArgs {
  Bool ping{this, "ping", true, "after boot, send an echo command to every microcontroller and report its latency"};
  Time idle{this, "idle", "0", "then idle this long with every microcontroller asleep (host CPU cost is reported)"};
};

class McuBootProgram : public ProgramWithArgs<McuBootArgs> {
 public:
  int run(HostApi& api, const McuBootArgs& args) override {
    const auto wall0 = std::chrono::steady_clock::now();
    GpuDriver gpu(api, args.driver);
    gpu.open(0);
    McuDriver mcu(api, gpu);
    McuBootReport r = mcu.boot(args);
    api.log(r.summary());
    api.stat("mcu_gpcs", r.gpcs);
    api.stat("mcu_upload_us", us(r.uploaded - r.begin));
    api.stat("mcu_start_us", us(r.started));
    api.stat("mcu_init_done_us", us(r.init_done));
    api.stat("mcu_handshake_us", us(r.init_done - r.started));
    if (args.ping) {
      std::vector<McuId> all{McuId::hub()};
      for (unsigned i = 0; i < r.gpcs; ++i) all.push_back(McuId::gpc_n(i));
      double worst = 0;
      for (auto& m : all) {
        const uint32_t v = 0x5a000000u | (m.kind == McuId::Hub ? 0xffu : m.gpc);
        McuResult res = mcu.command(m, FW_CMD_ECHO, v);
        // A wrong answer is the firmware's fault: fail naming the image, like every boot error.
        if (res.result != v || res.error != FW_ERR_OK)
          throw McuError(m.name() + " answered echo " + hex(v, 8) + " with " + hex(res.result, 8) + " error " +
                         std::to_string(res.error) + mcu.image_note(m));
        worst = std::max(worst, us(res.latency));
      }
      std::string b =
          format("microcontrollers: echo answered by HUB + %u GPCs (slowest round trip %.3f us)", r.gpcs, worst);
      api.log(b);
      api.stat("mcu_echo_worst_us", worst);
    }
    const sc_core::sc_time idle = args.idle;
    if (idle > sc_core::SC_ZERO_TIME) {
      const double c0 = cpu_seconds();
      api.sleep(idle);
      const double c1 = cpu_seconds();
      std::string b =
          format("microcontrollers: idle %.3f s simulated cost %.3f ms host CPU", idle.to_seconds(), (c1 - c0) * 1e3);
      api.log(b);
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    std::string b = format("microcontrollers: boot workload wall time %.3f s", wall);
    api.log(b);
    return 0;
  }
};
HETVP_REGISTER_PROGRAM("mcu_boot", McuBootProgram,
                       "upload HUB/GPC firmware, start, wait for init-done, echo every microcontroller");

// --------------------------------------------------------------------------------------- mcu_context
struct McuContextArgs : McuArgs {
  Int<uint32_t> seed{this, "seed", 12345, "pattern seed for the saved context"};
};

class McuContextProgram : public ProgramWithArgs<McuContextArgs> {
 public:
  int run(HostApi& api, const McuContextArgs& args) override {
    GpuDriver gpu(api, args.driver);
    gpu.open(0);
    McuDriver mcu(api, gpu);
    const McuBootOptions& bo = args;
    McuBootReport r = mcu.boot(bo);
    api.log(r.summary());
    if (r.gpcs < 2) {
      api.log("mcu_context: needs at least 2 GPCs (have " + std::to_string(r.gpcs) + ")");
      return 1;
    }
    const ElfImage img = ElfImage::from_file(bo.gpc_path());
    const auto area = img.symbol("ctx_area");
    if (!area) throw McuError(img.name() + ": no symbol ctx_area");
    const uint32_t area_off = *area - MCU_DMEM_BASE;
    uint32_t area_size = 0;  // the image's context area (FW_CTX_BYTES), from its symbol table
    for (auto& sym : img.symbols())
      if (sym.name == "ctx_area") area_size = sym.size;
    if (area_size == 0) throw McuError(img.name() + ": symbol ctx_area has no size");
    const unsigned dst_gpcs[2] = {1, r.gpcs > 2 ? 2u : 1u};
    // Save gpc0's context to VRAM, load it into gpc1; then through host memory (PCIe) into gpc2.
    GpuBuffer vram = gpu.alloc_vram(4096);
    const uint64_t pinned = api.alloc_pinned(4096);
    GpuBuffer host = gpu.map_host(pinned, 4096);
    const McuId src = McuId::gpc_n(0);
    McuResult fill = mcu.command(src, FW_CMD_CTX_FILL, args.seed);
    const std::vector<uint8_t> src_mem = mcu.read_dmem(src, area_off, area_size);
    std::vector<uint32_t> src_regs;
    for (unsigned k = 0; k < FW_CTXREG_COUNT; ++k) src_regs.push_back(mcu.read(src, FW_CTXREG(k)));
    int failures = 0;
    const GpuBuffer* where[2] = {&vram, &host};
    for (int pass = 0; pass < 2; ++pass) {
      const GpuBuffer& buf = *where[pass];
      const McuId dst = McuId::gpc_n(dst_gpcs[pass]);
      McuResult save = mcu.command(src, FW_CMD_CTX_SAVE, uint32_t(buf.va), {uint32_t(buf.va >> 32)});
      McuResult load = mcu.command(dst, FW_CMD_CTX_LOAD, uint32_t(buf.va), {uint32_t(buf.va >> 32)});
      McuResult hash = mcu.command(dst, FW_CMD_CTX_HASH, 0);
      const std::vector<uint8_t> dst_mem = mcu.read_dmem(dst, area_off, area_size);
      bool regs_same = true;
      for (unsigned k = 0; k < FW_CTXREG_COUNT; ++k) regs_same &= mcu.read(dst, FW_CTXREG(k)) == src_regs[k];
      const bool ok =
          save.error == 0 && load.error == 0 && hash.result == fill.result && dst_mem == src_mem && regs_same;
      const std::string b = format(
          "context %s -> %s via %s: save %u B in %.3f us, load %.3f us, hash %s vs %s, data memory %s, "
          "context registers %s: %s",
          src.name().c_str(), dst.name().c_str(), pass ? "host memory (PCIe)" : "VRAM", save.result, us(save.latency),
          us(load.latency), hex(fill.result, 8).c_str(), hex(hash.result, 8).c_str(),
          dst_mem == src_mem ? "identical" : "DIFFERENT", regs_same ? "identical" : "DIFFERENT", ok ? "OK" : "FAILED");
      api.log(b);
      api.stat(std::string("ctx_save_us_") + (pass ? "host" : "vram"), us(save.latency));
      api.stat(std::string("ctx_load_us_") + (pass ? "host" : "vram"), us(load.latency));
      if (!ok) ++failures;
    }
    api.stat("ctx_failures", failures);
    return failures ? 1 : 0;
  }
};
HETVP_REGISTER_PROGRAM("mcu_context", McuContextProgram,
                       "save a GPC context to VRAM/host memory and load it into other GPCs; checks bit-identity");

// ----------------------------------------------------------------------------------------- mcu_bench
HETVP_ENUM(BenchTargets, hub, all);

struct McuBenchArgs : ParamSet {
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Str firmware{this, "firmware", "", "CPU-bound image (default: firmware_dir/mcu_spin.elf)"};
  Enum<BenchTargets> targets{this, "targets", BenchTargets::hub, "run it on the HUB only or on the HUB and every GPC"};
  Int<int64_t> iterations{this, "iterations", 2000000, "loop iterations (mailbox 2)", Range{1, 4e9}};
};

class McuBenchProgram : public ProgramWithArgs<McuBenchArgs> {
 public:
  int run(HostApi& api, const McuBenchArgs& args) override {
    GpuDriver gpu(api, args.driver);
    gpu.open(0);
    McuDriver mcu(api, gpu);
    std::string fw = args.firmware;
    if (fw.empty()) fw = firmware_dir_default() + "/mcu_spin.elf";
    std::vector<McuId> ts{McuId::hub()};
    if (args.targets == BenchTargets::all)
      for (unsigned i = 0; i < gpu.num_gpcs(); ++i) ts.push_back(McuId::gpc_n(i));
    for (auto& m : ts) {
      mcu.load_file(m, fw);
      mcu.write(m, MCU_MAILBOX_N(2), static_cast<uint32_t>(args.iterations));
    }
    const sc_core::sc_time t0 = api.now();
    const auto w0 = std::chrono::steady_clock::now();
    for (auto& m : ts) mcu.start(m);
    uint64_t instr = 0;
    for (auto& m : ts) {
      const uint64_t a = gpu.function().bar[0] + mcu.base(m) + MCU_UC_CTRL;
      if (!api.poll32(a, MCU_STATE_MASK, MCU_STATE_HALTED, sc_core::sc_time(100, sc_core::SC_US),
                      sc_core::sc_time(100, sc_core::SC_SEC), Access::Uncached))
        throw McuError(m.name() + ": benchmark did not finish; core " + mcu.state(m));
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    for (auto& m : ts) instr += (uint64_t(mcu.read(m, MCU_UC_INSTRET_HI)) << 32) | mcu.read(m, MCU_UC_INSTRET_LO);
    std::string b =
        format("mcu_bench: %zu microcontroller(s), %" PRIu64 " instructions, %.3f ms simulated, %.3f s wall, %.1f MIPS",
               ts.size(), instr, (api.now() - t0).to_seconds() * 1e3, wall, instr / wall / 1e6);
    api.log(b);
    // (MIPS is wall-clock dependent: logged, not a stat, so stats stay deterministic)
    api.stat("mcu_bench_instructions", double(instr));
    return 0;
  }
};
HETVP_REGISTER_PROGRAM("mcu_bench", McuBenchProgram,
                       "CPU-bound firmware on HUB (or HUB + GPCs): ISS speed in the model");

// --------------------------------------------------------------------------------------------- debug
struct DebugArgs : McuArgs {
  Str script{this, "script", "", "file with one debug command per line (see docs/firmware.md)"};
  Str commands{this, "commands", "", "commands separated by ';' (after the script)"};
  Bool interactive{this, "interactive", false,
                   "read lines from a prompt on stdin after the script and commands (hetvp debug CONFIG with neither)"};
  // The script is read (bounded, regular files only: platform/file_input.h) with the
  // configuration's validation: a missing file, a directory or a device is a located error.
  std::string read_script() const {
    if (script.empty()) return "";
    try {
      return read_input_text(script, input_kind::kDebugScript);
    } catch (const InputFileError& e) {
      throw ConfigError(script.where() + ": debug: " + e.what());
    }
  }
  void validate(Diagnostics& d) const override {
    McuBootOptions::validate(d);
    d.collect([&] { read_script(); });
  }
};

class DebugProgram : public ProgramWithArgs<DebugArgs> {
 public:
  int run(HostApi& api, const DebugArgs& args) override {
    std::string script;
    try {
      script = args.read_script();  // validated before the run; read again in case it changed since
    } catch (const ConfigError& e) {
      throw McuError(e.what());
    }
    GpuDriver gpu(api, args.driver);
    gpu.open(0);
    McuDriver mcu(api, gpu);
    const McuBootOptions& bo = args;
    std::vector<std::string> lines = debug_script_lines(script, args.commands);
    // Interactive: each answer is printed at once as well (the summary comes after the run).
    const bool interactive = args.interactive;
    auto say = [&](const std::string& text) {
      api.log(text);
      if (interactive) std::cout << text << std::endl;
    };
    DebugPrompt prompt(std::cin, std::cout);
    if (interactive)
      std::cout << "hetvp debug: the platform is up (nothing loaded or started yet); 'help' lists the commands, "
                   "'quit' or Ctrl-D ends (line editing: "
                << DebugPrompt::editor() << ")" << std::endl;
    DebugValues vals;
    std::map<std::string, uint64_t>& vars = vals.vars;
    uint32_t& last = vals.last;
    int errors = 0;
    auto value = [&](const std::string& t) -> uint64_t { return vals.value(t); };
    for (size_t ln = 0;; ++ln) {
      if (ln == lines.size()) {
        std::string more;
        if (!interactive || !prompt.next(more)) break;
        lines.push_back(more);
      }
      const DebugLine dl = parse_debug_line(lines[ln], ln + 1);
      const std::string& line = dl.text;
      const std::vector<std::string>& w = dl.words;
      if (w.empty()) continue;
      const std::string where = "debug:" + std::to_string(ln + 1) + ": ";
      auto need = [&](size_t n) {
        if (w.size() < n) throw McuError(where + "'" + w[0] + "' needs " + std::to_string(n - 1) + " argument(s)");
      };
      try {
        const std::string& op = w[0];
        auto target = [&](size_t i) { return McuId::parse(w.at(i), gpu.num_gpcs()); };
        if (op == "boot") {
          say("debug> " + mcu.boot(bo).summary());
        } else if (op == "load") {
          need(3);
          // A bare file name that is not in the working folder: hetvp's firmware folder (build or install).
          std::string file = w[2];
          if (file.find('/') == std::string::npos && !std::ifstream(file)) file = firmware_dir() + "/" + file;
          mcu.load_file(target(1), file);
          say("debug> loaded " + w[2] + " into " + w[1] + " (entry " + hex(mcu.read(target(1), MCU_UC_ENTRY), 8) +
                  ")");
        } else if (op == "start" || op == "stop" || op == "cont" || op == "reset") {
          need(2);
          const uint32_t v = op == "start"  ? MCU_CTRL_START
                             : op == "stop" ? MCU_CTRL_STOP
                             : op == "cont" ? MCU_CTRL_CONT
                                            : MCU_CTRL_RESET;
          mcu.write(target(1), MCU_UC_CTRL, v);
          say("debug> " + op + " " + w[1]);
        } else if (op == "step") {
          need(2);
          const uint64_t n = w.size() > 2 ? value(w[2]) : 1;
          for (uint64_t i = 0; i < n; ++i) mcu.write(target(1), MCU_UC_CTRL, MCU_CTRL_STEP);
          say("debug> step " + w[1] + ": pc " + hex(mcu.gpr(target(1), 32), 8));
        } else if (op == "wait") {  // wait TARGET STATE [TIMEOUT_US]
          need(3);
          const std::map<std::string, uint32_t> st{{"idle", 0},   {"running", 1}, {"sleeping", 2},
                                                   {"halted", 3}, {"trapped", 4}, {"stopped", 5}};
          if (!st.count(w[2])) throw McuError(where + "unknown state " + w[2]);
          const uint64_t a = gpu.function().bar[0] + mcu.base(target(1)) + MCU_UC_CTRL;
          const double to = w.size() > 3 ? double(value(w[3])) : 10000.0;
          if (!api.poll32(a, MCU_STATE_MASK, st.at(w[2]), sc_core::sc_time(1, sc_core::SC_US),
                          sc_core::sc_time(to, sc_core::SC_US), Access::Uncached))
            throw McuError(where + w[1] + " did not reach state " + w[2] + "; it is " + mcu.state(target(1)));
          say("debug> " + w[1] + " is " + mcu.state(target(1)));
        } else if (op == "waitreg") {  // waitreg TARGET OFFSET MASK [VALUE] [TIMEOUT_US]
          need(4);
          const uint32_t off = uint32_t(value(w[2])), mask = uint32_t(value(w[3]));
          const uint32_t want = w.size() > 4 ? uint32_t(value(w[4])) : mask;
          const uint64_t a = gpu.function().bar[0] + mcu.base(target(1)) + off;
          const double to = w.size() > 5 ? double(value(w[5])) : 10000.0;
          if (!api.poll32(a, mask, want, sc_core::sc_time(1, sc_core::SC_US), sc_core::sc_time(to, sc_core::SC_US),
                          Access::Uncached))
            throw McuError(w[1] + "[" + hex(off, 8) + "] & " + hex(mask, 8) + " did not become " +
                           hex(want, 8) + " within " + std::to_string(int64_t(to)) + " us; it is " +
                           hex(mcu.read(target(1), off), 8));
          last = mcu.read(target(1), off);
          say("debug> " + w[1] + "[" + hex(off, 8) + "] = " + hex(last, 8));
        } else if (op == "cmd") {
          need(3);
          const uint32_t c = fw_command_number(w[2]) | (w.size() > 3 && w.back() == "notify" ? FW_CMD_NOTIFY : 0);
          std::vector<uint32_t> a;
          size_t end = w.size() - ((c & FW_CMD_NOTIFY) ? 1 : 0);
          const uint32_t data = end > 3 ? static_cast<uint32_t>(value(w[3])) : 0;
          for (size_t i = 4; i < end; ++i) a.push_back(static_cast<uint32_t>(value(w[i])));
          McuResult r = mcu.command(target(1), c, data, a);
          last = r.result;
          std::string b = format("debug> %s %s(%s): result 0x%08x error %u (%.3f us)", w[1].c_str(), fw_command_name(c),
                                 hex(data, 8).c_str(), r.result, r.error, us(r.latency));
          say(b);
          if (r.error) ++errors;
        } else if (op == "read") {
          need(3);
          last = mcu.read(target(1), static_cast<uint32_t>(value(w[2])));
          say("debug> " + w[1] + "[" + hex(uint32_t(value(w[2])), 8) + "] = " + hex(last, 8));
        } else if (op == "write") {
          need(4);
          mcu.write(target(1), static_cast<uint32_t>(value(w[2])), static_cast<uint32_t>(value(w[3])));
          say("debug> " + w[1] + "[" + hex(uint32_t(value(w[2])), 8) + "] <- " + hex(uint32_t(value(w[3])), 8));
        } else if (op == "regs") {
          need(2);
          const McuId m = target(1);
          const std::pair<const char*, uint32_t> rs[] = {
              {"IRQSTAT", MCU_IRQSTAT},       {"IRQMASK", MCU_IRQMASK},          {"UC_CTRL", MCU_UC_CTRL},
              {"UC_ENTRY", MCU_UC_ENTRY},     {"UC_CAPS", MCU_UC_CAPS},          {"UC_EXIT", MCU_UC_EXIT},
              {"TRAP_PC", MCU_UC_TRAP_PC},    {"TRAP_CAUSE", MCU_UC_TRAP_CAUSE}, {"TRAP_VAL", MCU_UC_TRAP_VAL},
              {"INSTRET", MCU_UC_INSTRET_LO}, {"CYCLES", MCU_UC_CYCLES_LO},      {"XFER_STATUS", MCU_XFER_STATUS},
              {"XFER_COUNT", MCU_XFER_COUNT}, {"XFER_FAULTS", MCU_XFER_FAULTS},  {"METHOD_DATA", MCU_METHOD_DATA},
              {"METHOD_CMD", MCU_METHOD_CMD}, {"STATUS0", MCU_STATUS0},          {"STATUS1", MCU_STATUS1}};
          say("debug> registers of " + m.name() + " (" + mcu.state(m) + "):");
          std::string row;
          int k = 0;
          for (auto& [n, o] : rs) {
            std::string b = format("  %-11s %08x", n, mcu.read(m, o));
            row += b;
            if (++k % 4 == 0) {
              say(row);
              row.clear();
            }
          }
          for (unsigned i = 0; i < 4; ++i) {
            std::string b = format("  MAILBOX%-4u%08x", i, mcu.read(m, MCU_MAILBOX_N(i)));
            row += b;
          }
          say(row);
          row.clear();
          for (unsigned i = 0; i <= 32; ++i) {
            std::string b = format("  %-4s %08x", i == 32 ? "pc" : ("x" + std::to_string(i)).c_str(), mcu.gpr(m, i));
            row += b;
            if (i % 8 == 7 || i == 32) {
              say(row);
              row.clear();
            }
          }
        } else if (op == "dump") {  // dump TARGET OFFSET LEN: data memory through DATA_INDEX/DATA
          need(4);
          const uint32_t off = static_cast<uint32_t>(value(w[2])), len = static_cast<uint32_t>(value(w[3]));
          auto bytes = mcu.read_dmem(target(1), off, len);
          for (uint32_t i = 0; i < bytes.size(); i += 16) {
            char b[96];
            int n = snprintf(b, sizeof b, "debug> %s dmem+%04x:", w[1].c_str(), off + i);
            for (uint32_t k = i; k < i + 16 && k < bytes.size(); ++k)
              n += snprintf(b + n, sizeof b - n, " %02x", bytes[k]);
            say(b);
          }
        } else if (op == "alloc") {  // alloc NAME SIZE [vram|host]
          need(3);
          const uint64_t size = value(w[2]);
          GpuBuffer buf;
          if (w.size() > 3 && w[3] == "host")
            buf = gpu.map_host(api.alloc_pinned(size), size);
          else
            buf = gpu.alloc_vram(size);
          vars[w[1]] = buf.va;
          std::string b = format("debug> $%s = GPU VA 0x%" PRIx64 " (%" PRIu64 " B %s)", w[1].c_str(), buf.va, size,
                                 buf.sysmem ? "host memory" : "VRAM");
          say(b);
        } else if (op == "set") {
          need(3);
          vars[w[1]] = value(w[2]);
        } else if (op == "expect") {  // expect VALUE: the last result
          need(2);
          const uint32_t v = static_cast<uint32_t>(value(w[1]));
          if (last != v) {
            say(where + "expected " + hex(v, 8) + ", got " + hex(last, 8));
            ++errors;
          } else {
            say("debug> expect " + hex(v, 8) + ": ok");
          }
        } else if (op == "state") {
          need(2);
          say("debug> " + w[1] + " is " + mcu.state(target(1)));
        } else if (op == "echo") {
          say("debug> " + debug_echo_text(dl));
        } else if (op == "sleep") {
          need(2);
          api.sleep(sc_core::sc_time(double(value(w[1])), sc_core::SC_US));
        } else {
          throw McuError(
              where + "unknown debug command '" + op +
              "' (boot, load, start, stop, cont, reset, step, wait, waitreg, cmd, read, write, regs, dump, alloc, set, "
              "expect, state, echo, sleep)");
        }
      } catch (const HostError& e) {
        say(where + "error: " + e.what());
        ++errors;
      } catch (const McuError& e) {
        say(where + "error: " + e.what());
        ++errors;
      } catch (const std::invalid_argument&) {
        say(where + "error: bad number in '" + line + "'");
        ++errors;
      }
    }
    api.log("debug: " + std::to_string(lines.size()) + " line(s), " + std::to_string(errors) + " error(s)");
    return errors ? 1 : 0;
  }
};
HETVP_REGISTER_PROGRAM("debug", DebugProgram,
                       "microcontroller debug tool: load, start, commands, register and memory dumps");

}  // namespace

}  // namespace hetvp::sw
