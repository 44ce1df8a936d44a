// hetvp — `hetvp debug CONFIG`: the microcontroller debug tool (papers' Fig. 4/6) for RV32 and Falcon
// cores alike. Lines come from --script, then --commands, then (with neither) a prompt on stdin; each
// is executed on the booted platform, and an error is reported with its line ("debug:7: error: ...")
// and the session goes on, as gdb's does. The exit status counts the errors of --script/--commands
// lines (batch mode: 1 when any); lines typed at the prompt never fail the run. docs/firmware.md.
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "firmware/include/hetvp/mcu_map.h"
#include "models/host/host_api.h"
#include "models/mcu/debug_port.h"
#include "platform/config.h"
#include "platform/file_input.h"
#include "platform/format.h"
#include "platform/paths.h"
#include "platform/program.h"
#include "platform/register_table.h"
#include "platform/run_context.h"
#include "platform/stats_control.h"
#include "sw/driver/falcon_boot.h"
#include "sw/driver/mcu_driver.h"
#include "sw/mcu/debug_prompt.h"
#include "sw/mcu/debug_script.h"
#include "sw/mcu/debugger.h"

namespace hetvp::sw {

namespace {

double us(const sc_core::sc_time& t) { return t.to_seconds() * 1e6; }

// The register tables, for names in `watch` and Falcon's `regs`.
const RegSpec kMcuRegs[] = {HETVP_REG_TABLE(HETVP_MCU_REGS)};
const RegSpec kFalconRegs[] = {HETVP_REG_TABLE(HETVP_FCTX_REGS)};

// A register of the window by name (UC_CTRL, CC_SCRATCH0, MAILBOX3) or offset.
uint32_t register_offset(const std::string& w, bool falcon) {
  if (!w.empty() && std::isdigit(static_cast<unsigned char>(w[0]))) return static_cast<uint32_t>(std::stoul(w, nullptr, 0));
  auto find = [&](const auto& table) -> int64_t {
    for (const RegSpec& r : table)
      if (w == r.name) return r.offset;
    for (const RegSpec& r : table) {
      const size_t n = std::strlen(r.name);
      if (r.count > 1 && w.size() > n && w.compare(0, n, r.name) == 0 &&
          w.find_first_not_of("0123456789", n) == std::string::npos) {
        const unsigned long i = std::stoul(w.substr(n));
        if (i < r.count) return r.offset + 4 * i;
      }
    }
    return -1;
  };
  const int64_t off = falcon ? find(kFalconRegs) : find(kMcuRegs);
  if (off < 0)
    throw McuError("no register '" + w + "' in the " + (falcon ? "Falcon" : "RV32") +
                   " controller's window (an offset, or a name of `hetvp registers`)");
  return static_cast<uint32_t>(off);
}

// How many error messages a session prints before it only counts them (a runaway script).
constexpr int kMaxErrorsShown = 20;

struct DebugArgs : McuBootOptions {
  Group<DriverOptions> driver{this, "driver", "driver options"};
  Str script{this, "script", "", "file with one debug command per line (see docs/firmware.md)"};
  Str commands{this, "commands", "", "commands separated by ';' (after the script)"};
  Bool interactive{this, "interactive", false,
                   "read lines from a prompt on stdin after the script and commands (hetvp debug CONFIG with neither)"};
  // The script is read (bounded, regular files only: platform/file_input.h) with the
  // configuration's validation: a missing file, a directory, a device, a binary file or one with no
  // command at all is a located error naming it.
  std::string read_script() const {
    if (script.empty()) return "";
    std::string text;
    try {
      text = read_input_text(script, input_kind::kDebugScript);
    } catch (const InputFileError& e) {
      throw ConfigError(script.where() + ": debug: " + e.what());
    }
    if (std::string why = debug_script_problem(text); !why.empty())
      throw ConfigError(script.where() + ": debug: " + std::string(script) + ": " + why);
    return text;
  }
  void validate(Diagnostics& d) const override {
    McuBootOptions::validate(d);
    d.collect([&] { read_script(); });
  }
};

// The run's statistics on demand (gem5's m5 dumpstats/resetstats act on the simulator, not on a
// model): the StatsControl service of the run this program's CPU belongs to (platform/stats_control.h).
StatsControl& run_stats(HostApi& api) {
  auto* member = dynamic_cast<RunMember*>(&api);
  if (!member || !member->in_run())
    throw McuError("stats: this CPU model belongs to no run (no statistics to write)");
  StatsControl& s = member->run_context().service<StatsControl>();
  if (!s.has_components()) throw McuError("stats: this run registered no components' statistics");
  return s;
}

class DebugSession {
 public:
  DebugSession(HostApi& api, const DebugArgs& args, GpuDriver& gpu, McuDriver& mcu)
      : api_(api), args_(args), gpu_(gpu), mcu_(mcu), dbg_(mcu, gpu), interactive_(args.interactive) {
    const McuBootOptions& bo = args;
    dbg_.default_symbols(gpu, bo.hub_path(), bo.gpc_path());
    if (dbg_.falcon()) {  // an image file of the user's own: its labels when it is a header with some
      for (const auto& [unit, img] : {std::pair<const char*, std::string>{"hub", bo.falcon_hub_image},
                                      {"gpc", std::string(bo.falcon_gpc_image)}})
        if (!img.empty()) {
          try {
            dbg_.set_symbols(unit, DebugSymbols::from_file(img));
          } catch (const McuError&) {
            dbg_.set_symbols(unit, DebugSymbols{});
          }
        }
    }
  }

  void say(const std::string& text) {
    if (interactive_)
      std::cout << text << std::endl;  // at once; nothing is reprinted at the end
    else
      api_.log(text);
  }
  void error(const DebugLine& l, const std::string& what) {
    ++errors_;
    if (errors_ <= kMaxErrorsShown) say(l.where() + "error: " + what);
    if (errors_ == kMaxErrorsShown + 1) say("debug: more errors are not shown (the count at the end has them all)");
  }
  int errors() const { return errors_; }
  void count_error() { ++errors_; }

  void execute(const DebugLine& dl);

 private:
  McuId target(const std::vector<std::string>& w, size_t i) { return McuId::parse(w.at(i), gpu_.num_gpcs()); }
  uint64_t value(const std::string& t) const { return vals_.value(t); }
  // A register offset: a number, $NAME, or a register's name in the window's table.
  uint32_t reg(const std::string& t) const {
    return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_') ? register_offset(t, dbg_.falcon())
                                                                                         : uint32_t(value(t));
  }
  void regs(const McuId& m);
  void dump(const std::vector<std::string>& w);
  void disas(const std::vector<std::string>& w);
  void stats(const std::vector<std::string>& w);

  HostApi& api_;
  const DebugArgs& args_;
  GpuDriver& gpu_;
  McuDriver& mcu_;
  McuDebugger dbg_;
  bool interactive_;
  DebugValues vals_;
  int errors_ = 0;
  std::map<std::string, std::set<uint32_t>> breaks_;  // by target name
  std::map<std::string, std::string> watches_;
};

const char* kCommands =
    "boot, load, start, stop, cont, reset, step, wait, waitreg, cmd, read, write, regs, dump, disas, break, delete, "
    "watch, unwatch, info, symbols, alloc, set, expect, state, echo, sleep, stats";

void DebugSession::execute(const DebugLine& dl) {
  const std::vector<std::string>& w = dl.words;
  auto need = [&](size_t n) {
    if (w.size() < n) throw McuError("'" + w[0] + "' needs " + std::to_string(n - 1) + " argument(s)");
  };
  const std::string& op = w[0];
  const bool falcon = dbg_.falcon();
  uint32_t& last = vals_.last;
  if (op == "boot") {
    const McuBootOptions& bo = args_;
    if (falcon)
      say("debug> " +
          boot_nouveau_with(api_, gpu_, bo.boot_timeout, bo.falcon_hub_image, bo.falcon_gpc_image).summary());
    else
      say("debug> " + mcu_.boot(bo).summary());
  } else if (op == "load") {
    need(3);
    if (falcon)
      throw McuError("load uploads an RV32 ELF image; these are " + std::string(dbg_.isa()) +
                     " controllers: 'boot' uploads the config's images (workload.args.falcon_hub_image / "
                     "falcon_gpc_image, docs/falcon.md)");
    // A bare file name that is not in the working folder: hetvp's firmware folder (build or install).
    std::string file = w[2];
    if (file.find('/') == std::string::npos && !std::ifstream(file)) file = firmware_dir() + "/" + file;
    mcu_.load_file(target(w, 1), file);
    try {
      dbg_.set_symbols(target(w, 1).kind == McuId::Hub ? "hub" : "gpc", DebugSymbols::from_elf(ElfImage::from_file(file)));
    } catch (const std::exception&) {
    }
    say("debug> loaded " + w[2] + " into " + w[1] + " (entry " + hex(mcu_.read(target(w, 1), MCU_UC_ENTRY), 8) + ")");
  } else if (op == "start" || op == "reset") {
    need(2);
    if (falcon && op == "reset")
      throw McuError("a Falcon controller has no reset through UC_CTRL in hetvp; 'start " + w[1] +
                     "' restarts it at UC_ENTRY");
    mcu_.write(target(w, 1), MCU_UC_CTRL, op == "start" ? MCU_CTRL_START : MCU_CTRL_RESET);
    say("debug> " + op + " " + w[1]);
  } else if (op == "stop" || op == "cont") {
    need(2);
    const McuId m = target(w, 1);
    if (op == "stop")
      dbg_.stop(m);
    else
      dbg_.cont(m);
    say("debug> " + op + " " + w[1] + (m.kind == McuId::AllGpcs ? "" : ": " + dbg_.state(m)));
  } else if (op == "step") {
    need(2);
    const McuId m = target(w, 1);
    const uint64_t n = w.size() > 2 ? value(w[2]) : 1;
    if (dbg_.asleep(m)) {  // says so; not an error (the core is where the firmware put it)
      say("debug> step " + w[1] + ": pc " + dbg_.where(m, dbg_.pc(m)) + " unchanged: " + w[1] + " is " + dbg_.state(m) +
          "; a step executes nothing until an interrupt wakes it");
      return;
    }
    dbg_.step(m, n);
    const uint32_t pc = dbg_.pc(m);
    std::vector<std::string> l = dbg_.disassemble(m, pc, 1);
    say("debug> step " + w[1] + ": pc " + dbg_.where(m, pc) + (l.empty() ? "" : "  " + l.back().substr(3)));
  } else if (op == "wait") {  // wait TARGET STATE [TIMEOUT_US]
    need(3);
    const std::map<std::string, uint32_t> st{{"idle", 0},   {"running", 1}, {"sleeping", 2},
                                             {"halted", 3}, {"trapped", 4}, {"stopped", 5}};
    if (!st.count(w[2]))
      throw McuError("unknown state " + w[2] + " (idle, running, sleeping, halted, trapped, stopped)");
    const McuId m = target(w, 1);
    const uint64_t a = gpu_.function().bar[0] + mcu_.base(m) + mcu::DBG_STATUS;
    const double to = w.size() > 3 ? double(value(w[3])) : 10000.0;
    if (!api_.poll32(a, mcu::DBG_STATUS_MODE_MASK, st.at(w[2]), sc_core::sc_time(1, sc_core::SC_US),
                     sc_core::sc_time(to, sc_core::SC_US), Access::Uncached))
      throw McuError(w[1] + " did not reach state " + w[2] + " within " + std::to_string(int64_t(to)) +
                     " us; it is " + dbg_.state(m));
    say("debug> " + w[1] + " is " + dbg_.state(m));
  } else if (op == "waitreg") {  // waitreg TARGET OFFSET MASK [VALUE] [TIMEOUT_US]
    need(4);
    const McuId m = target(w, 1);
    const uint32_t off = reg(w[2]), mask = uint32_t(value(w[3]));
    const uint32_t want = w.size() > 4 ? uint32_t(value(w[4])) : mask;
    const uint64_t a = gpu_.function().bar[0] + mcu_.base(m) + off;
    const double to = w.size() > 5 ? double(value(w[5])) : 10000.0;
    if (!api_.poll32(a, mask, want, sc_core::sc_time(1, sc_core::SC_US), sc_core::sc_time(to, sc_core::SC_US),
                     Access::Uncached))
      throw McuError(w[1] + "[" + hex(off, 8) + "] & " + hex(mask, 8) + " did not become " + hex(want, 8) +
                     " within " + std::to_string(int64_t(to)) + " us; it is " + hex(mcu_.read(m, off), 8));
    last = mcu_.read(m, off);
    say("debug> " + w[1] + "[" + hex(off, 8) + "] = " + hex(last, 8));
  } else if (op == "cmd") {
    need(3);
    if (falcon)
      throw McuError("cmd speaks hetvp's firmware protocol; nouveau's firmware takes methods: "
                     "'write hub 0x500 DATA; write hub 0x504 METHOD' (MTHD_DATA, MTHD_PUSH)");
    const uint32_t c = fw_command_number(w[2]) | (w.size() > 3 && w.back() == "notify" ? FW_CMD_NOTIFY : 0);
    std::vector<uint32_t> a;
    const size_t end = w.size() - ((c & FW_CMD_NOTIFY) ? 1 : 0);
    const uint32_t data = end > 3 ? static_cast<uint32_t>(value(w[3])) : 0;
    for (size_t i = 4; i < end; ++i) a.push_back(static_cast<uint32_t>(value(w[i])));
    McuResult r = mcu_.command(target(w, 1), c, data, a);
    last = r.result;
    say(format("debug> %s %s(%s): result 0x%08x error %u (%.3f us)", w[1].c_str(), fw_command_name(c),
               hex(data, 8).c_str(), r.result, r.error, us(r.latency)));
    if (r.error) count_error();
  } else if (op == "read") {
    need(3);
    last = mcu_.read(target(w, 1), reg(w[2]));
    say("debug> " + w[1] + "[" + hex(reg(w[2]), 8) + "] = " + hex(last, 8));
  } else if (op == "write") {
    need(4);
    mcu_.write(target(w, 1), reg(w[2]), static_cast<uint32_t>(value(w[3])));
    say("debug> " + w[1] + "[" + hex(reg(w[2]), 8) + "] <- " + hex(uint32_t(value(w[3])), 8));
  } else if (op == "regs") {
    need(2);
    regs(target(w, 1));
  } else if (op == "dump") {
    dump(w);
  } else if (op == "disas") {
    disas(w);
  } else if (op == "break" || op == "delete") {
    need(2);
    const McuId m = target(w, 1);
    auto& set = breaks_[m.name()];
    if (op == "delete" && w.size() == 2) {
      dbg_.clear_breaks(m);
      set.clear();
      say("debug> deleted every breakpoint of " + w[1]);
      return;
    }
    need(3);
    const uint32_t a = dbg_.code_address(m, w[2]);
    if (op == "break") {
      dbg_.break_at(m, a);
      set.insert(a);
      say("debug> breakpoint " + w[1] + " " + dbg_.where(m, a));
    } else {
      if (!set.count(a)) throw McuError("no breakpoint at " + dbg_.where(m, a) + " of " + w[1]);
      dbg_.clear_break(m, a);
      set.erase(a);
      say("debug> deleted breakpoint " + w[1] + " " + dbg_.where(m, a));
    }
  } else if (op == "watch") {  // watch TARGET REG [read|write|access]
    need(3);
    const McuId m = target(w, 1);
    const uint32_t off = reg(w[2]);
    const std::string kind = w.size() > 3 ? w[3] : "access";
    const uint32_t kinds = kind == "read" ? 1 : kind == "write" ? 2 : kind == "access" ? 3 : 0;
    if (!kinds) throw McuError("watch kind '" + kind + "': read, write or access");
    dbg_.watch(m, off, kinds);
    watches_[m.name()] = kind + " of register " + hex(off, 3);
    say("debug> watch " + w[1] + ": stop at the core's next " + watches_[m.name()] + " (" + w[2] + ")");
  } else if (op == "unwatch") {
    need(2);
    dbg_.unwatch(target(w, 1));
    watches_.erase(w[1]);
    say("debug> no watch on " + w[1]);
  } else if (op == "info") {  // info: breakpoints and watches of the session
    for (const auto& [t, set] : breaks_)
      for (uint32_t a : set) say("debug> breakpoint " + t + " " + dbg_.where(McuId::parse(t, gpu_.num_gpcs()), a));
    for (const auto& [t, what] : watches_) say("debug> watch " + t + ": " + what);
    if (breaks_.empty() && watches_.empty()) say("debug> no breakpoints, no watches");
  } else if (op == "symbols") {  // symbols TARGET FILE
    need(3);
    const McuId m = target(w, 1);
    DebugSymbols s = falcon ? DebugSymbols::from_file(w[2]) : DebugSymbols::from_elf(ElfImage::from_file(w[2]));
    say("debug> " + std::to_string(s.size()) + " symbol(s) for " + w[1] + " from " + w[2]);
    dbg_.set_symbols(m.kind == McuId::Hub ? "hub" : "gpc", std::move(s));
  } else if (op == "alloc") {  // alloc NAME SIZE [vram|host]
    need(3);
    const uint64_t size = value(w[2]);
    GpuBuffer buf = w.size() > 3 && w[3] == "host" ? gpu_.map_host(api_.alloc_pinned(size), size) : gpu_.alloc_vram(size);
    vals_.vars[w[1]] = buf.va;
    say(format("debug> $%s = GPU VA 0x%" PRIx64 " (%" PRIu64 " B %s)", w[1].c_str(), buf.va, size,
               buf.sysmem ? "host memory" : "VRAM"));
  } else if (op == "set") {
    need(3);
    vals_.vars[w[1]] = value(w[2]);
  } else if (op == "expect") {  // expect VALUE: the last result
    need(2);
    const uint32_t v = static_cast<uint32_t>(value(w[1]));
    if (last != v) throw McuError("expected " + hex(v, 8) + ", got " + hex(last, 8));
    say("debug> expect " + hex(v, 8) + ": ok");
  } else if (op == "state") {
    need(2);
    say("debug> " + w[1] + " is " + dbg_.state(target(w, 1)));
  } else if (op == "echo") {
    say("debug> " + debug_echo_text(dl));
  } else if (op == "stats") {
    stats(w);
  } else if (op == "sleep") {
    need(2);
    api_.sleep(sc_core::sc_time(double(value(w[1])), sc_core::SC_US));
  } else {
    throw McuError("unknown debug command '" + op + "' (" + kCommands + "; 'help' at the prompt)");
  }
}

void DebugSession::regs(const McuId& m) {
  const bool falcon = dbg_.falcon();
  say("debug> registers of " + m.name() + " (" + (falcon ? dbg_.state(m) : mcu_.state(m)) + "):");
  std::string row;
  int k = 0;
  auto cell = [&](const std::string& name, uint32_t v, int per_row, int width) {
    row += format("  %-*s %08x", width, name.c_str(), v);
    if (++k % per_row == 0) {
      say(row);
      row.clear();
    }
  };
  auto flush = [&] {
    if (!row.empty()) say(row);
    row.clear();
    k = 0;
  };
  if (falcon) {  // every register the host can read without a side effect (not the CODE/DATA ports)
    for (const RegSpec& r : kFalconRegs) {
      // (STRAND_CMD is the gr unit's, write-only there)
      if (r.access == RegAccess::WO || r.offset == FCTX_CODE || r.offset == FCTX_DATA || r.offset == FCTX_STRAND_CMD)
        continue;
      for (unsigned i = 0; i < r.count; ++i) {
        // Only what this slot has on this chip (a GPC's UNITS is not the HUB's; GK110 moved UNK86C).
        if (!dbg_.has_register(m, r.offset + 4 * i)) continue;
        const uint32_t v = mcu_.read(m, r.offset + 4 * i);
        cell(r.count > 1 ? r.name + std::to_string(i) : std::string(r.name), v, 4, 18);
      }
    }
    flush();
    for (const auto& [n, v] : dbg_.registers(m)) cell(n, v, 6, 9);
    flush();
    return;
  }
  const std::pair<const char*, uint32_t> rs[] = {
      {"IRQSTAT", MCU_IRQSTAT},       {"IRQMASK", MCU_IRQMASK},          {"UC_CTRL", MCU_UC_CTRL},
      {"UC_ENTRY", MCU_UC_ENTRY},     {"UC_CAPS", MCU_UC_CAPS},          {"UC_EXIT", MCU_UC_EXIT},
      {"TRAP_PC", MCU_UC_TRAP_PC},    {"TRAP_CAUSE", MCU_UC_TRAP_CAUSE}, {"TRAP_VAL", MCU_UC_TRAP_VAL},
      {"INSTRET", MCU_UC_INSTRET_LO}, {"CYCLES", MCU_UC_CYCLES_LO},      {"XFER_STATUS", MCU_XFER_STATUS},
      {"XFER_COUNT", MCU_XFER_COUNT}, {"XFER_FAULTS", MCU_XFER_FAULTS},  {"METHOD_DATA", MCU_METHOD_DATA},
      {"METHOD_CMD", MCU_METHOD_CMD}, {"STATUS0", MCU_STATUS0},          {"STATUS1", MCU_STATUS1}};
  for (auto& [n, o] : rs) cell(n, mcu_.read(m, o), 4, 11);
  flush();
  for (unsigned i = 0; i < 4; ++i) cell("MAILBOX" + std::to_string(i), mcu_.read(m, MCU_MAILBOX_N(i)), 4, 11);
  flush();
  for (const auto& [n, v] : dbg_.registers(m)) cell(n, v, 8, 4);
  flush();
}

// dump TARGET [code|data] OFFSET LEN: a memory through the debug port (data when not named).
void DebugSession::dump(const std::vector<std::string>& w) {
  const bool named = w.size() > 2 && (w[2] == "code" || w[2] == "data");
  if (w.size() < (named ? 5u : 4u)) throw McuError("'dump' needs TARGET [code|data] OFFSET LEN");
  const McuId m = target(w, 1);
  const bool code = named && w[2] == "code";
  const uint32_t off = static_cast<uint32_t>(value(w[named ? 3 : 2])), len = static_cast<uint32_t>(value(w[named ? 4 : 3]));
  if (len > 0x10000) throw McuError("dump of " + std::to_string(len) + " bytes: at most 64 KiB at a time");
  const std::vector<uint8_t> bytes = dbg_.memory(m, code, off, len);
  for (uint32_t i = 0; i < bytes.size(); i += 16) {
    std::string b = format("debug> %s %s+%04x:", w[1].c_str(), code ? "imem" : "dmem", off + i);
    for (uint32_t k = i; k < i + 16 && k < bytes.size(); ++k) b += format(" %02x", bytes[k]);
    say(b);
  }
}

// stats [FILE.json|-]: the run's statistics now, in the --stats file's shape (to the session's output
// with '-' or nothing); stats reset: counter and time stats count from now on (docs/stats.md).
void DebugSession::stats(const std::vector<std::string>& w) {
  const char* usage = "stats [FILE.json|-] writes the statistics, stats reset zeroes the counters";
  if (w.size() > 2) throw McuError("'stats' takes one argument: " + std::string(usage));
  const std::string arg = w.size() > 1 ? w[1] : "-";
  StatsControl& st = run_stats(api_);
  if (arg == "reset") {
    st.reset();
    say(format("debug> stats reset at %.3f us: counters and times count from here (reset %u)",
               us(sc_core::sc_time_stamp()), st.resets()));
    return;
  }
  const bool to_file = arg.size() > 5 && arg.compare(arg.size() - 5, 5, ".json") == 0;
  if (arg != "-" && !to_file) throw McuError("stats: unknown subcommand '" + arg + "' (" + usage + ")");
  const std::string doc = st.document();
  if (!to_file) {
    std::istringstream lines(doc);
    for (std::string l; std::getline(lines, l);) say(l);
    return;
  }
  std::ofstream f(arg);
  if (!f || !(f << doc) || !f.flush())
    throw McuError("stats: cannot write " + arg + " (" + std::strerror(errno) + "); the session goes on");
  say(format("debug> stats at %.3f us written to %s", us(sc_core::sc_time_stamp()), arg.c_str()));
}

// disas TARGET [ADDR|SYMBOL] [N]: N instructions (10) from ADDR, or around pc.
void DebugSession::disas(const std::vector<std::string>& w) {
  if (w.size() < 2) throw McuError("'disas' needs TARGET [ADDRESS|SYMBOL] [COUNT]");
  const McuId m = target(w, 1);
  if (m.kind == McuId::AllGpcs) throw McuError("disas reads one core: name it (gpc0..)");
  const unsigned n = w.size() > 3 ? static_cast<unsigned>(value(w[3])) : 10;
  if (n > 1000) throw McuError("disas of " + std::to_string(n) + " instructions: at most 1000");
  if (w.size() > 2) {
    for (const std::string& l : dbg_.disassemble(m, dbg_.code_address(m, w[2]), n)) say("debug> " + l);
    return;
  }
  // Around pc: decoded from the enclosing symbol, shown from three instructions before pc.
  const uint32_t pc = dbg_.pc(m), from = dbg_.listing_start(m, pc);
  std::vector<std::string> l = dbg_.disassemble(m, from, (pc - from) / 2 + n);
  size_t at = l.size();
  for (size_t i = 0; i < l.size(); ++i)
    if (l[i].compare(0, 3, "=> ") == 0) at = i;
  if (at == l.size()) l = dbg_.disassemble(m, pc, n), at = 0;  // pc is not on the decoded path
  size_t begin = at, shown = 0;
  while (begin > 0 && shown < 3) shown += l[--begin].find('<') == std::string::npos || l[begin].back() != ':';
  if (begin > 0 && l[begin - 1].back() == ':') --begin;  // the label of the first line shown
  for (size_t i = begin, k = 0; i < l.size() && k < n; ++i) {
    say("debug> " + l[i]);
    k += l[i].back() != ':';
  }
}

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
    DebugSession s(api, args, gpu, mcu);
    std::vector<std::string> lines = debug_script_lines(script, args.commands);
    const size_t batch = lines.size();  // the --script/--commands lines; the prompt's come after
    const bool interactive = args.interactive;
    DebugPrompt prompt(std::cin, std::cout);
    if (interactive)
      std::cout << "hetvp debug: the platform is up (nothing loaded or started yet); 'help' lists the commands, "
                   "'quit' or Ctrl-D ends (line editing: "
                << DebugPrompt::editor() << ")" << std::endl;
    int batch_errors = 0;
    for (size_t ln = 0;; ++ln) {
      if (ln == batch) batch_errors = s.errors();
      if (ln == lines.size()) {
        std::string more;
        if (!interactive || !prompt.next(more)) break;
        lines.push_back(more);
      }
      const DebugLine dl = parse_debug_line(lines[ln], ln + 1);
      if (dl.words.empty()) continue;
      try {
        s.execute(dl);
      } catch (const HostError& e) {
        s.error(dl, e.what());
      } catch (const McuError& e) {
        s.error(dl, e.what());
      } catch (const ElfError& e) {
        s.error(dl, e.what());
      } catch (const std::invalid_argument&) {
        s.error(dl, "bad number in '" + dl.text + "'");
      } catch (const std::out_of_range&) {
        s.error(dl, "number out of range in '" + dl.text + "'");
      }
    }
    if (lines.size() == batch) batch_errors = s.errors();
    api.log("debug: " + std::to_string(lines.size()) + " line(s), " + std::to_string(s.errors()) + " error(s)" +
            (interactive && s.errors() > batch_errors ? " (the prompt's do not fail the run)" : ""));
    return batch_errors ? 1 : 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("debug", DebugProgram,
                       "microcontroller debug tool (RV32 and Falcon): boot, run control, breakpoints, watches, "
                       "registers, memory dumps, disassembly");

}  // namespace hetvp::sw
