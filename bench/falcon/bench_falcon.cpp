// bench_falcon — Falcon v3 core speed on a CPU-bound loop (ALU, load/store, branch): millions of
// instructions per host second (MIPS), (1) the bare FalconCore, (2) the same loop in a context
// controller (models/mcu/falcon/ctxctl.h) under SystemC, uploaded and started through its host
// registers and run in quantum bursts as in the platform.
//
// usage: bench_falcon [--iterations N] [--repeat R]
#include "firmware/include/hetvp/falcon_ctxctl_regs.h"
#include "models/mcu/falcon/core.h"
#include "models/mcu/falcon/ctxctl.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

using namespace hetvp::mcu;
using namespace hetvp::mcu::falcon;

namespace {

// loop: 7 instructions per iteration, then exit
std::vector<uint8_t> program(uint32_t iterations) {
  std::vector<uint8_t> p;
  auto li = [&](unsigned r, uint32_t v) {
    for (uint8_t b : {uint8_t(0xf1), uint8_t(r << 4 | 7), uint8_t(v), uint8_t(v >> 8), uint8_t(0xf1),
                      uint8_t(r << 4 | 3), uint8_t(v >> 16), uint8_t(v >> 24)})
      p.push_back(b);
  };
  li(1, iterations);
  li(4, 0x100);
  const size_t loop = p.size();
  p.insert(p.end(), {0xbb, 0x21, 0x00});  // add b32 $r2 $r1
  p.insert(p.end(), {0xb6, 0x24, 0x01});  // shl b32 $r2 1
  p.insert(p.end(), {0xff, 0x21, 0x36});  // xor $r3 $r2 $r1
  p.insert(p.end(), {0x80, 0x43, 0x00});  // st b32 D[$r4] $r3
  p.insert(p.end(), {0x98, 0x45, 0x00});  // ld b32 $r5 D[$r4]
  p.insert(p.end(), {0xb6, 0x12, 0x01});  // sub b32 $r1 1
  const int diff = int(loop) - int(p.size());
  p.insert(p.end(), {0xf4, 0x1b, uint8_t(diff)});  // bra ne loop
  p.insert(p.end(), {0xf8, 0x02});                 // exit
  return p;
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> out{"out"};
  explicit Host(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

struct Sink : sc_core::sc_module {
  tlm_utils::simple_target_socket<Sink> in{"in"};
  explicit Sink(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.register_b_transport(this, &Sink::bt); }
  void bt(tlm::tlm_generic_payload& gp, sc_core::sc_time&) { gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE); }
};

}  // namespace

int sc_main(int argc, char** argv) {
  uint32_t iterations = 100000000;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc)
      iterations = uint32_t(std::strtoul(argv[++i], 0, 0));
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc)
      repeat = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: bench_falcon [--iterations N] [--repeat R]\n");
      return 2;
    }
  }
  const std::vector<uint8_t> prog = program(iterations);
  // (1) bare core
  double best = 0;
  for (int r = 0; r < repeat; ++r) {
    std::vector<uint8_t> code(0x4000), data(0x1000);
    std::memcpy(code.data(), prog.data(), prog.size());
    FalconCore core;
    core.add_region(MemRegion{0, 0x4000, code.data(), false, true});
    core.add_region(MemRegion{0, 0x1000, data.data(), true, false});
    core.reset(0);
    const double t0 = now();
    uint64_t n = 0;
    for (;;) {
      RunResult rr = core.run(uint64_t(1) << 40);
      n += rr.instructions;
      if (rr.reason != RunResult::Reason::budget) break;
    }
    const double t = now() - t0;
    const double mips = n / t / 1e6;
    std::printf("bare core: %llu instructions in %.3f s = %.1f MIPS\n", (unsigned long long)n, t, mips);
    if (mips > best) best = mips;
  }
  std::printf("bare core best: %.1f MIPS\n", best);
  // (2) inside the context controller, in SystemC (quantum 1 us, HUB clock 1.4 GHz)
  tlm::tlm_global_quantum::instance().set(sc_core::sc_time(1, sc_core::SC_US));
  // The HUB with the microcontroller block's defaults (1.4 GHz, 16 KiB code, 4 KiB data).
  const McuBlockConfig cfg =
      hetvp::load<McuBlockConfig>(hetvp::Params(YAML::Node(YAML::NodeType::Map), McuBlockConfig{}.schema(), "bench"));
  Ctxctl hub("hub", cfg, CoreSlot{true, 0, "bench.hub", 0x409000, 4, nullptr});
  Sink sink("sink");
  hub.bar0.bind(sink.in);
  Host host("host");
  host.out.bind(hub.regs);
  std::vector<uint8_t> p = prog;
  while (p.size() % 4) p.push_back(0);
  hub.host_write(FCTX_CODE_INDEX, 0x01000000, sc_core::SC_ZERO_TIME);
  for (size_t i = 0; i < p.size() / 4; ++i) {
    if ((i & 0x3f) == 0) hub.host_write(FCTX_CODE_VIRT_ADDR, uint32_t(i >> 6), sc_core::SC_ZERO_TIME);
    uint32_t w;
    std::memcpy(&w, &p[4 * i], 4);
    hub.host_write(FCTX_CODE, w, sc_core::SC_ZERO_TIME);
  }
  hub.host_write(FCTX_UC_CTRL, FCTX_UC_CTRL_START, sc_core::SC_ZERO_TIME);
  const double t0 = now();
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_SEC));
  const double t = now() - t0;
  const uint64_t n = hub.core().instret();
  std::printf("context controller (SystemC, quantum 1 us): %llu instructions in %.3f s = %.1f MIPS (core %s)\n",
              (unsigned long long)n, t, n / t / 1e6, hub.core().state() == CoreState::halted ? "exited" : "running");
  return 0;
}
