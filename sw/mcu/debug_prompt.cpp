#include "sw/mcu/debug_prompt.h"

#include <unistd.h>

#include <cstdlib>
#include <iostream>

#ifdef HETVP_HAVE_LIBEDIT
#include <editline/readline.h>
#endif

namespace hetvp::sw {

namespace {
constexpr const char* kPrompt = "debug> ";
std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}
}  // namespace

DebugPrompt::DebugPrompt(std::istream& in, std::ostream& out) : in_(in), out_(out) {
#ifdef HETVP_HAVE_LIBEDIT
  edit_ = &in == &std::cin && isatty(STDIN_FILENO) == 1;
  if (edit_) using_history();
#else
  edit_ = false;
#endif
}

const char* DebugPrompt::editor() {
#ifdef HETVP_HAVE_LIBEDIT
  return "libedit";
#else
  return "plain";
#endif
}

bool DebugPrompt::next(std::string& line) {
  for (;;) {
#ifdef HETVP_HAVE_LIBEDIT
    if (edit_) {
      char* l = readline(kPrompt);
      if (!l) return false;
      line = l;
      std::free(l);
    } else
#endif
    {
      out_ << kPrompt << std::flush;
      if (!std::getline(in_, line)) {
        out_ << "\n";
        return false;
      }
    }
    const std::string t = trimmed(line);
    if (t.empty()) continue;
    if (t == "quit" || t == "exit") return false;
#ifdef HETVP_HAVE_LIBEDIT
    if (edit_) add_history(t.c_str());
#endif
    history_.push_back(t);
    if (t == "history") {
      for (size_t i = 0; i < history_.size(); ++i) out_ << "  " << i + 1 << "  " << history_[i] << "\n";
      continue;
    }
    if (t == "help") {
      out_ << debug_help_text();
      continue;
    }
    line = t;
    return true;
  }
}

const char* debug_help_text() {
  return "debug commands (TARGET: hub, gpc0..gpcN, gpcs = every GPC; numbers in C syntax; $NAME, $last;\n"
         "SYM: a code symbol: RV32 the image's ELF symbols, Falcon nouveau's labels or a 'symbols' file):\n"
         "  boot                          the driver's whole boot sequence (RV32 or Falcon: the config's images)\n"
         "  load TARGET FILE.elf          upload RV32 firmware through the ports\n"
         "  start|reset TARGET            UC_CTRL start (at UC_ENTRY) / reset (RV32)\n"
         "  stop|cont TARGET; step TARGET [N]   run control through the debug port\n"
         "  break TARGET ADDR|SYM / delete TARGET [ADDR|SYM] / info   breakpoints (and watches)\n"
         "  watch TARGET REG [read|write|access] / unwatch TARGET      stop when the core touches REG\n"
         "  regs TARGET / state TARGET / disas TARGET [ADDR|SYM] [N] (around pc by default)\n"
         "  dump TARGET [code|data] OFF LEN   memory bytes (data by default)\n"
         "  symbols TARGET FILE           RV32: an ELF; Falcon: falcon-as --symbols output or an envyas header\n"
         "  wait TARGET STATE [US]        until idle|running|sleeping|halted|trapped|stopped\n"
         "  waitreg TARGET OFF MASK [VALUE] [US]  poll a register until (value & MASK) == VALUE (default MASK)\n"
         "  read TARGET OFF / write TARGET OFF VALUE / expect VALUE (checks the last value)\n"
         "  cmd TARGET NAME|NUMBER [DATA] [ARGS...] [notify]   a command of hetvp's firmware (RV32)\n"
         "  alloc NAME SIZE [vram|host] / set NAME VALUE / echo TEXT / sleep US\n"
         "  stats [FILE.json|-] / stats reset   the run's statistics now (--stats's shape) / zero the counters\n"
         "  help / history / quit (or Ctrl-D); an error is reported and the session goes on\n";
}

}  // namespace hetvp::sw
