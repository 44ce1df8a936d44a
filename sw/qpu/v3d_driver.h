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

namespace hetvp::qpu {

class V3dDriver {
 public:
  enum class Wait { Poll, Interrupt };
  struct Options {
    uint64_t v3d_base = 0x20c00000;  // peripheral base + V3D_BASE_OFFSET
    Wait wait = Wait::Poll;
    unsigned irq_vector = 0;
    sc_core::sc_time poll_interval = sc_core::sc_time(1, sc_core::SC_US);
    sc_core::sc_time timeout = sc_core::sc_time(10, sc_core::SC_SEC);
  };

  V3dDriver(HostApi& api, Options o);

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
  Options o_;
};

}  // namespace hetvp::qpu
