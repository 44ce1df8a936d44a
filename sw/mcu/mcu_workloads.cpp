// hetvp — host programs for the microcontrollers:
//   mcu_boot     the boot sequence (upload, start, init-done handshake) and a ping of every MCU
//   mcu_context  context save on one GPC, load into another (VRAM and host memory), bit-identical check
//   mcu_bench    CPU-bound firmware on the HUB or HUB + all GPCs: ISS speed inside the model
// (the debug tool, `hetvp debug`, is sw/mcu/debug_program.cpp)
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

}  // namespace

}  // namespace hetvp::sw
