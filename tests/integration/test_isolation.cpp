// Isolation canaries: every buffer the driver maps into the GPU's virtual address space (pinned
// host memory, VRAM) is followed by an unmapped guard page. A copy-engine DMA or a
// microcontroller xfer that runs off the end of a mapping must fault there with an error naming
// the engine and the address, and must not change a byte outside the mapped pages: the pages
// around the target are filled with a marker first and compared afterwards.
// In-process: test-only host programs drive the driver; run_platform builds configs/default.yaml.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdlib>
#include <iostream>
#include <cstdio>
#include <sstream>
#include <memory>
#include <vector>

#include "common/run_hetvp.h"
#include "models/host/host_api.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/coherence/runtime.h"
#include "sw/driver/offload.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {
constexpr uint64_t kPage = 4096;
constexpr uint8_t kMarker = 0xa5, kData = 0x11;

std::string hexs(uint64_t v) {
  char b[24];
  snprintf(b, sizeof b, "0x%" PRIx64, v);
  return b;
}

// Counts bytes of [addr, addr+len) (host physical) that are not `v`.
size_t host_bytes_not(HostApi& api, uint64_t addr, uint64_t len, uint8_t v) {
  std::vector<uint8_t> b(len);
  api.peek(addr, b.data(), len);
  size_t n = 0;
  for (uint8_t x : b) n += x != v;
  return n;
}
size_t vram_bytes_not(GpuDriver& drv, uint64_t off, uint64_t len, uint8_t v) {
  std::vector<uint8_t> b(len);
  drv.vram_peek(off, b.data(), len);
  size_t n = 0;
  for (uint8_t x : b) n += x != v;
  return n;
}

// The checks of a program: a failed one is logged and makes the program return 1.
struct Checks {
  HostApi& api;
  int failed = 0;
  void expect(bool ok, const std::string& what) {
    api.log(std::string(ok ? "ok: " : "FAILED CHECK: ") + what);
    failed += !ok;
  }
};

// Three pinned host pages P0 P1 P2, all marker; only P1 is mapped (host buffer H). Two VRAM
// buffers V1, V2 of one page each; V2 is all marker, V1 all data.
struct Canvas {
  uint64_t pinned = 0;
  GpuBuffer host, v1, v2;
  Canvas(HostApi& api, GpuDriver& drv) {
    pinned = api.alloc_pinned(3 * kPage, kPage);
    std::vector<uint8_t> m(3 * kPage, kMarker), d(kPage, kData);
    api.poke(pinned, m.data(), m.size());
    host = drv.map_host(pinned + kPage, kPage);
    v1 = drv.alloc_vram(kPage);
    v2 = drv.alloc_vram(kPage);
    drv.vram_poke(v1.phys, d.data(), kPage);
    drv.vram_poke(v2.phys, m.data(), kPage);
  }
};

class GuardCopyEngine : public ProgramWithArgs<> {
 public:
  int run(HostApi& api, const NoArgs&) override {
    GpuDriver drv(api);
    drv.open(0);
    Checks c{api};
    Canvas cv(api, drv);
    // 1. VRAM -> host, 512 bytes starting 256 bytes before the end of the host mapping.
    {
      GpuBuffer dst = cv.host;
      dst.va = cv.host.va + kPage - 256;
      dst.size = 512;
      GpuBuffer src = cv.v1;
      std::string err;
      try {
        drv.copy_dma(src, dst, 512);
      } catch (const HostError& e) {
        err = e.what();
      }
      api.log("copy engine -> host guard: " + err);
      c.expect(err.find("copy engine 0") != std::string::npos, "the host-side error names copy engine 0");
      c.expect(err.find(hexs(cv.host.va + kPage)) != std::string::npos,
               "it names the guard page address " + hexs(cv.host.va + kPage));
      c.expect(host_bytes_not(api, cv.pinned, kPage, kMarker) == 0, "the page before the mapping is unchanged");
      c.expect(host_bytes_not(api, cv.pinned + 2 * kPage, kPage, kMarker) == 0,
               "the page after the mapping is unchanged");
      c.expect(host_bytes_not(api, cv.pinned + kPage, kPage - 256, kMarker) == 0,
               "the mapped page before the target is unchanged");
      c.expect(host_bytes_not(api, cv.pinned + 2 * kPage - 256, 256, kData) == 0,
               "the mapped part of the copy arrived");
    }
    // 2. host -> VRAM, 512 bytes starting 256 bytes before the end of V1: V2 (the next
    //    allocation) must not be reached through V1's end. The source is not the marker.
    {
      const std::vector<uint8_t> other(kPage, 0x22);
      api.poke(cv.pinned + kPage, other.data(), kPage);
      GpuBuffer src = cv.host;
      GpuBuffer dst = cv.v1;
      dst.va = cv.v1.va + kPage - 256;
      dst.size = 512;
      std::string err;
      try {
        drv.copy_dma(src, dst, 512);
      } catch (const HostError& e) {
        err = e.what();
      }
      api.log("copy engine -> VRAM guard: " + err);
      c.expect(err.find("copy engine 0") != std::string::npos, "the VRAM-side error names copy engine 0");
      c.expect(err.find(hexs(cv.v1.va + kPage)) != std::string::npos,
               "it names the guard page address " + hexs(cv.v1.va + kPage));
      c.expect(vram_bytes_not(drv, cv.v2.phys, kPage, kMarker) == 0, "the next VRAM allocation is unchanged");
    }
    // 3. A read from the guard page: nothing is written at all.
    {
      GpuBuffer src = cv.host;
      src.va = cv.host.va + kPage;  // the guard page itself
      GpuBuffer dst = cv.v2;
      std::string err;
      try {
        drv.copy_dma(src, dst, 256);
      } catch (const HostError& e) {
        err = e.what();
      }
      api.log("copy engine <- host guard: " + err);
      c.expect(err.find(hexs(cv.host.va + kPage)) != std::string::npos,
               "the source fault names the guard page address");
      c.expect(vram_bytes_not(drv, cv.v2.phys, kPage, kMarker) == 0, "the destination is unchanged");
    }
    return c.failed ? 1 : 0;
  }
};
HETVP_REGISTER_PROGRAM("test_guard_copy_engine", GuardCopyEngine, "test: copy-engine DMA aimed at guard pages");

class GuardMcuXfer : public ProgramWithArgs<> {
 public:
  int run(HostApi& api, const NoArgs&) override {
    GpuDriver drv(api);
    drv.open(0);
    boot_microcontrollers(api, drv);
    McuDriver mcu(api, drv);
    Checks c{api};
    Canvas cv(api, drv);
    OffloadCopier copier(api, drv, mcu, DriverOptions{});
    struct Case {
      McuId m;
      uint64_t src, dst, guard;
      const char* what;
    };
    const Case cases[] = {
        {McuId::hub(), cv.v1.va, cv.host.va + kPage - 256, cv.host.va + kPage, "hub: VRAM -> past the host mapping"},
        {McuId::gpc_n(2), cv.host.va, cv.v1.va + kPage - 256, cv.v1.va + kPage, "gpc2: host -> past VRAM buffer V1"},
    };
    for (const Case& k : cases) {
      if (k.m.kind == McuId::Gpc) {  // the host page was checked: now a source that is not the marker
        c.expect(host_bytes_not(api, cv.pinned, kPage, kMarker) == 0, "the page before the host mapping is unchanged");
        c.expect(host_bytes_not(api, cv.pinned + 2 * kPage, kPage, kMarker) == 0,
                 "the page after the host mapping is unchanged");
        c.expect(host_bytes_not(api, cv.pinned + kPage, kPage - 256, kMarker) == 0,
                 "the mapped page before the target is unchanged");
        const std::vector<uint8_t> other(kPage, 0x22);
        api.poke(cv.pinned + kPage, other.data(), kPage);
      }
      std::string err;
      try {
        copier.wait({copier.start(k.m, k.src, k.dst, 512)});
      } catch (const HostError& e) {
        err = e.what();
      }
      api.log(std::string(k.what) + ": " + err);
      c.expect(err.rfind(k.m.name() + ":", 0) == 0, std::string(k.what) + ": the error names " + k.m.name());
      c.expect(err.find(hexs(k.guard)) != std::string::npos,
               std::string(k.what) + ": it names the guard address " + hexs(k.guard));
    }
    c.expect(vram_bytes_not(drv, cv.v2.phys, kPage, kMarker) == 0, "the next VRAM allocation is unchanged");
    return c.failed ? 1 : 0;
  }
};
HETVP_REGISTER_PROGRAM("test_guard_mcu_xfer", GuardMcuXfer, "test: microcontroller xfers aimed at guard pages");

// Compute units: `square` (C[i] = A[i]^2) with C placed so that its last 128 bytes lie in the guard
// page after the shared arena (configs/coherence.yaml, arena 16 KiB). A kernel fault ends the run
// (RunState::fail), so only the error is checked here, not the bytes.
struct GuardComputeArgs : ParamSet {
  Group<CoherenceOptions> rt{this, "rt", "coherence runtime"};
};

class GuardCompute : public ProgramWithArgs<GuardComputeArgs> {
 public:
  // What lives across simulated time belongs to the program object, not to run()'s frame: the
  // kernel's fault stops the simulation while run() is suspended in launch(), and the host CPU
  // destroys the program at the end (a local would leak under LeakSanitizer).
  int run(HostApi& api, const GuardComputeArgs& args) override {
    rt_ = std::make_unique<CoherenceRuntime>(api, args.rt, "guard", "64");
    CoherenceRuntime& rt = *rt_;
    const uint64_t a = rt.alloc(8192), c = rt.alloc(8192);
    const uint64_t c_va = rt.gva(c) + 8192 - 128, guard = rt.gva(c) + 8192;
    api.log("compute guard page at GPU VA " + hexs(guard));
    kernel_args_ = {uint32_t(rt.gva(a)), uint32_t(rt.gva(a) >> 32), uint32_t(c_va), uint32_t(c_va >> 32), 64};
    rt.launch("square", 1, 1, 64, 1, kernel_args_);
    api.log("FAILED CHECK: the kernel storing into the guard page completed");
    return 1;
  }

 private:
  std::unique_ptr<CoherenceRuntime> rt_;
  std::vector<uint32_t> kernel_args_;
};
HETVP_REGISTER_PROGRAM("test_guard_compute", GuardCompute, "test: a compute kernel storing past the shared arena");

std::string run(const char* workload, int& status, const char* config = "default.yaml",
                std::vector<std::string> overrides = {}) {
  RunOptions opt;
  opt.config = test::config(config);
  opt.workload = workload;
  opt.overrides = std::move(overrides);
  std::ostringstream out, err;
  status = run_platform(opt, out, err);
  return out.str() + err.str();
}
}  // namespace

TEST(Isolation, CopyEngineFaultsAtGuardPagesAndTouchesNothingOutside) {
  int status = -1;
  const std::string log = run("test_guard_copy_engine", status);
  EXPECT_EQ(status, kExitOk) << log;
  EXPECT_EQ(log.find("FAILED CHECK"), std::string::npos) << log;
}

TEST(Isolation, McuXferFaultsAtGuardPagesAndTouchesNothingOutside) {
  int status = -1;
  const std::string log = run("test_guard_mcu_xfer", status);
  EXPECT_EQ(status, kExitOk) << log;
  EXPECT_EQ(log.find("FAILED CHECK"), std::string::npos) << log;
}

TEST(Isolation, ComputeKernelFaultsAtTheGuardPageAfterTheArena) {
  int status = -1;
  const std::string log = run("test_guard_compute", status, "coherence.yaml", {"workload.args.rt.arena=16 KiB"});
  EXPECT_EQ(status, kExitSimFailure) << log;
  EXPECT_EQ(log.find("FAILED CHECK"), std::string::npos) << log;
  const size_t at = log.find("compute guard page at GPU VA ");
  ASSERT_NE(at, std::string::npos) << log;
  const std::string guard = log.substr(at + 29, log.find('\n', at) - at - 29);
  EXPECT_NE(log.find("kernel 'square'"), std::string::npos) << log;
  EXPECT_NE(log.find("store of"), std::string::npos) << log;
  EXPECT_NE(log.find("at GPU VA " + guard), std::string::npos) << "the error names the guard page " << guard << "\n"
                                                               << log;
  if (std::getenv("HETVP_TEST_VERBOSE")) std::cout << log;
}
