// hetvp — counting hook for SystemC coroutine switches (issue #31: "switches per xfer").
// An LD_PRELOAD library that interposes libsystemc's sc_cor_pkg_qt::yield (every switch from one
// SC_THREAD/the kernel to another goes through it; SC_METHODs run on the kernel's stack and do not)
// and prints the count on stderr when the process exits:
//   LD_PRELOAD=build/bench/mcu/libhetvp_count_switches.so build/hetvp run ... --stats s.json
//   -> "count_switches: 1234567 coroutine switches"
// Works because libsystemc calls yield through its PLT (default visibility, no -Bsymbolic).
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>

namespace {
uint64_t g_switches = 0;
using YieldFn = void (*)(void*, void*);
YieldFn g_real = nullptr;

struct Report {
  ~Report() { std::fprintf(stderr, "count_switches: %llu coroutine switches\n", (unsigned long long)g_switches); }
} g_report;
}  // namespace

// void sc_core::sc_cor_pkg_qt::yield(sc_cor* next)
extern "C" void hetvp_counted_yield(void* self, void* next) __asm__("_ZN7sc_core13sc_cor_pkg_qt5yieldEPNS_6sc_corE");
extern "C" void hetvp_counted_yield(void* self, void* next) {
  if (!g_real) g_real = reinterpret_cast<YieldFn>(dlsym(RTLD_NEXT, "_ZN7sc_core13sc_cor_pkg_qt5yieldEPNS_6sc_corE"));
  ++g_switches;
  g_real(self, next);
}
