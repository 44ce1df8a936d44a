// Host driver of the V3D block (registers: firmware/include/hetvp/v3d_regs.h), the way a
// GPU_FFT-style host program drives it: copy a QPU program and its uniforms into shared SDRAM,
// clear the V3D caches, queue one user-program request per QPU (SRQUA, SRQUL, then SRQPC), and
// wait until the completion count in SRQCS reaches the number of requests (polling), or for the
// QPUs' host interrupts (DBQITE/DBQITC). Every access is a timed load or store of the host CPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "models/host/host_api.h"
#include "platform/param_set.h"

namespace hetvp::qpu {

// Where a Raspberry Pi 1's V3D registers are: peripheral base 0x20000000 + V3D_BASE_OFFSET.
constexpr uint64_t kPiV3dBase = 0x20c00000;

// How the host learns that the programs are done (V3dOptions::wait).
HETVP_ENUM(V3dWait, poll, interrupt);

// The keys a QPU workload's args start with: how many QPUs, and where and how the V3D driver
// reaches the V3D. `qpus_doc` says what 0 means for the workload.
struct V3dOptions : ParamSet {
  explicit V3dOptions(const char* qpus_doc = "QPUs to run on (0: all the V3D reports in IDENT1)")
      : qpus{this, "qpus", 0, qpus_doc, Range{0, 16}} {}
  Int<unsigned> qpus;
  Enum<V3dWait> wait{this, "wait", V3dWait::poll, "wait for completion by polling SRQCS or by interrupt"};
  Int<uint64_t> v3d_base{this, "v3d_base", kPiV3dBase,
                         "physical address of the V3D registers (peripheral base + 0xC00000)", Min{0}};
  Int<unsigned> irq_vector{this, "irq_vector", 0, "interrupt vector of the V3D (v3d.irq_vector)", Range{0, 255}};
};

class V3dDriver {
 public:
  static constexpr double kDefaultTimeoutSeconds = 10;
  // `timeout`: how long execute() waits for the programs.
  V3dDriver(HostApi& api, const V3dOptions& o,
            sc_core::sc_time timeout = sc_core::sc_time(kDefaultTimeoutSeconds, sc_core::SC_SEC));

  unsigned num_qpus();  // from IDENT1 (slices x QPUs per slice)
  // Shared SDRAM (the host's pinned pool: GPU bus address = physical address).
  uint32_t alloc(uint64_t bytes, uint64_t align = 4096);
  void upload(uint32_t addr, const void* src, size_t bytes) { api_.write(addr, src, bytes); }
  uint32_t upload_code(const uint64_t* code, size_t n);
  uint32_t upload_words(const std::vector<uint32_t>& words);

  // Runs `code` once per entry of `uniforms` (one QPU each) and waits for all of them. Returns
  // the simulated time from the first request to the observed completion.
  sc_core::sc_time execute(uint32_t code, const std::vector<uint32_t>& uniforms_addr, uint32_t uniforms_len);

 private:
  uint32_t rd(uint32_t off);
  void wr(uint32_t off, uint32_t v);
  HostApi& api_;
  const uint64_t base_;
  const bool interrupt_;
  const unsigned irq_vector_;
  const sc_core::sc_time timeout_;
};

}  // namespace hetvp::qpu
