// Fuzz harness: host MMIO against the GPU — 32-bit reads and writes to its BAR0 register blocks
// and its PCIe configuration space, from the host CPU across the root complex and the PCIe link
// (the platform of configs/default.yaml, elaborated once; SystemC cannot elaborate twice).
//
// The input is decoded into up to 64 operations of 8 bytes: byte 0 = kind (bit 0 write, bits 1-4
// the target block: PMC, PTOP, MMU, copy engine 0/1, HUB, GPC 0..3, GPC broadcast, raw BAR0 offset,
// config space), bytes 1-3 = offset inside the block, bytes 4-7 = the value. Every access must end
// with a TLM response — OK or an error (HostError in the host program) — within a bounded simulated
// time: a hang (no response within 50 ms simulated), a crash, an exception of another kind, a
// SystemC error report or a sanitizer report is a finding.
//
// Between inputs the platform keeps its state (registers keep their values, a copy an input
// launched may still run); the PCIe configuration is restored (the driver enumerates again) so
// that BAR0 stays reachable, and the microcontrollers are reset (UC_CTRL = RESET) so that firmware
// an input started does not run on. A finding may therefore depend on the inputs before it;
// libFuzzer's crash file holds the last input only.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include <systemc>

#include "firmware/include/hetvp/mcu_regs.h"
#include "models/gpu/gpu_regs.h"
#include "models/host/host_api.h"
#include "models/pcie/tlp.h"
#include "platform/builder.h"
#include "platform/component.h"
#include "platform/config.h"
#include "platform/program.h"
#include "platform/run_state.h"
#include "sw/driver/gpu_driver.h"

using namespace hetvp;

namespace {
struct Op {
  uint8_t kind;
  uint32_t offset, value;
};

std::vector<Op> g_ops;
bool g_pending = false, g_done = false, g_ready = false;
uint64_t g_responses = 0, g_errors = 0;

constexpr uint32_t kBlocks[] = {GPU_PMC_BASE,
                                GPU_PTOP_BASE,
                                GPU_MMU_BASE,
                                GPU_COPY_BASE,
                                GPU_COPY_BASE + GPU_COPY_STRIDE,
                                GPU_HUB_BASE,
                                GPU_GPC_BASE,
                                GPU_GPC_BASE + GPU_GPC_STRIDE,
                                GPU_GPC_BASE + 2 * GPU_GPC_STRIDE,
                                GPU_GPC_BASE + 3 * GPU_GPC_STRIDE,
                                GPU_GPC_BCAST_BASE};
constexpr unsigned kNumBlocks = sizeof kBlocks / sizeof kBlocks[0];

class FuzzMmioProgram : public ProgramWithArgs<> {
 public:
  int run(HostApi& api, const NoArgs&) override {
    sw::GpuDriver drv(api);
    drv.open(0);
    g_ready = true;
    for (;;) {
      while (!g_pending) api.sleep(sc_core::sc_time(1, sc_core::SC_US));
      const sw::PcieFunction fn = drv.function();
      for (const Op& op : g_ops) {
        const bool write = op.kind & 1;
        const unsigned target = (op.kind >> 1) % (kNumBlocks + 2);
        try {
          if (target == kNumBlocks + 1) {  // configuration space, dword registers
            const unsigned reg = op.offset & 0xffc;
            const uint64_t a = api.platform().ecam_base + pcie::ecam_offset(fn.bus, fn.device, 0, reg);
            if (write)
              api.mmio_write32(a, op.value);
            else
              (void)api.mmio_read32(a);
          } else {
            const uint32_t off = target == kNumBlocks ? (op.offset & 0xfffffc) % uint32_t(fn.bar_size[0])
                                                      : kBlocks[target] + (op.offset & 0xffc);
            if (write)
              api.mmio_write32(fn.bar[0] + off, op.value);
            else
              (void)api.mmio_read32(fn.bar[0] + off);
          }
          ++g_responses;
        } catch (const HostError&) {
          ++g_responses;
          ++g_errors;
        }
      }
      drv.enumerate();  // BARs and the command register back, whatever the input wrote
      // Microcontrollers an input started would keep running (and cost time in every later
      // input): reset them. Errors here are the input's doing (e.g. PCIe state) and are fine.
      for (uint32_t base : {GPU_HUB_BASE, GPU_GPC_BASE, GPU_GPC_BASE + GPU_GPC_STRIDE,
                            GPU_GPC_BASE + 2 * GPU_GPC_STRIDE, GPU_GPC_BASE + 3 * GPU_GPC_STRIDE}) {
        try {
          api.mmio_write32(drv.function().bar[0] + base + MCU_UC_CTRL, MCU_CTRL_RESET);
        } catch (const HostError&) {
        }
      }
      g_pending = false;
      g_done = true;
    }
  }
};
HETVP_REGISTER_PROGRAM("fuzz_mmio", FuzzMmioProgram, "libFuzzer MMIO harness (tests/fuzz/fuzz_mmio.cpp)");

void report_handler(const sc_core::sc_report& rep, const sc_core::sc_actions&) {
  if (rep.get_severity() >= sc_core::SC_ERROR) {
    std::cerr << "fuzz_mmio: SystemC " << rep.get_msg_type() << ": " << rep.get_msg() << "\n";
    std::abort();
  }
}

RunContext g_run;  // the run the fuzzed platform reports to
std::unique_ptr<Config> g_cfg;
std::unique_ptr<Builder> g_builder;

// Runs the simulation until the host program sets `flag`, at most `limit` of simulated time.
void run_until(bool& flag, const sc_core::sc_time& limit, const char* what) {
  const sc_core::sc_time end = sc_core::sc_time_stamp() + limit;
  while (!flag) {
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED || g_run.run_state.failed()) {
      std::cerr << "fuzz_mmio: the simulation stopped during " << what << ":\n";
      for (auto& f : g_run.run_state.failures()) std::cerr << "  " << f << "\n";
      std::abort();
    }
    if (sc_core::sc_time_stamp() >= end) {
      std::cerr << "fuzz_mmio: hang: no progress during " << what << " within " << limit << "\n";
      std::abort();
    }
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
  }
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  sc_core::sc_report_handler::set_handler(report_handler);
  g_cfg = std::make_unique<Config>(Config::load_file(std::string(HETVP_SOURCE_DIR) + "/configs/default.yaml"));
  g_cfg->root["workload"] = YAML::Load("{name: fuzz_mmio, cpu: cpu}");
  g_cfg->validate();
  g_builder = std::make_unique<Builder>(*g_cfg, g_run);
  g_builder->build();
  tlm::tlm_global_quantum::instance().set(g_cfg->simulation().quantum());
  auto* host = dynamic_cast<ProgramHost*>(g_builder->find("cpu"));
  host->load_program("fuzz_mmio", Params(YAML::Node(YAML::NodeType::Map), nullptr, "workload.args"), 1);
  run_until(g_ready, sc_core::sc_time(100, sc_core::SC_MS), "the driver's open()");
  std::atexit([] {
    std::cerr << "fuzz_mmio: " << g_responses << " accesses answered (" << g_errors << " with an error response), "
              << sc_core::sc_time_stamp() << " simulated\n";
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_ops.clear();
  for (size_t i = 0; i + 8 <= size && g_ops.size() < 64; i += 8) {
    Op op;
    op.kind = data[i];
    op.offset = uint32_t(data[i + 1]) | uint32_t(data[i + 2]) << 8 | uint32_t(data[i + 3]) << 16;
    std::memcpy(&op.value, data + i + 4, 4);
    g_ops.push_back(op);
  }
  g_done = false;
  g_pending = true;
  run_until(g_done, sc_core::sc_time(50, sc_core::SC_MS), "an input's accesses");
  return 0;
}
