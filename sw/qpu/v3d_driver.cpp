// V3D host driver (v3d_driver.h).
#include "sw/qpu/v3d_driver.h"

#include "firmware/include/hetvp/v3d_regs.h"
#include "platform/format.h"

namespace hetvp::qpu {

namespace {
// (A function: an sc_time made while the library loads would fix SystemC's time resolution.)
sc_core::sc_time poll_interval() { return sc_core::sc_time(1, sc_core::SC_US); }
}  // namespace

V3dDriver::V3dDriver(HostApi& api, const V3dOptions& o, sc_core::sc_time timeout)
    : api_(api),
      base_(o.v3d_base),
      interrupt_(o.wait == V3dWait::interrupt),
      irq_vector_(o.irq_vector),
      timeout_(timeout) {
  const uint32_t id = rd(V3D_IDENT0);
  if ((id & 0xffffffu) != 0x443356u)
    throw HostError(format("v3d: no V3D at 0x%llx (IDENT0 reads 0x%08x, expected 'V3D' 0x..443356)",
                           static_cast<unsigned long long>(base_), id));
}

uint32_t V3dDriver::rd(uint32_t off) { return api_.mmio_read32(base_ + off); }
void V3dDriver::wr(uint32_t off, uint32_t v) { api_.mmio_write32(base_ + off, v); }

unsigned V3dDriver::num_qpus() {
  const uint32_t v = rd(V3D_IDENT1);
  return V3D_IDENT1_NSLC(v) * V3D_IDENT1_QUPS(v);
}

uint32_t V3dDriver::alloc(uint64_t bytes, uint64_t align) {
  const uint64_t a = api_.alloc_pinned(bytes, align);
  if (a + bytes > 0xffffffffull) throw HostError("v3d: shared memory beyond the 32-bit GPU bus address space");
  return uint32_t(a);
}

uint32_t V3dDriver::upload_code(const uint64_t* code, size_t n) {
  const uint32_t a = alloc(n * 8, 4096);
  upload(a, code, n * 8);
  return a;
}

uint32_t V3dDriver::upload_words(const std::vector<uint32_t>& words) {
  const uint32_t a = alloc(words.size() * 4 + 4, 16);
  upload(a, words.data(), words.size() * 4);
  return a;
}

sc_core::sc_time V3dDriver::execute(uint32_t code, const std::vector<uint32_t>& unifs, uint32_t unif_len) {
  const unsigned n = unsigned(unifs.size());
  if (n == 0 || n > V3D_SRQ_MAX)
    throw HostError(format("v3d: %u programs requested (1..%u fit the queue)", n, V3D_SRQ_MAX));
  // Caches: the QPUs' instruction and uniform caches and the TMU caches may hold old contents.
  wr(V3D_L2CACTL, V3D_L2CACTL_CLEAR);
  wr(V3D_SLCACTL, V3D_SLCACTL_ICC | V3D_SLCACTL_UCC | V3D_SLCACTL_T0CC | V3D_SLCACTL_T1CC);
  wr(V3D_SRQCS, V3D_SRQCS_CLEAR_ERROR | V3D_SRQCS_CLEAR_MADE | V3D_SRQCS_CLEAR_DONE);
  uint32_t mask = 0;
  if (interrupt_) {
    mask = (1u << num_qpus()) - 1;
    wr(V3D_DBQITC, mask);
    wr(V3D_DBQITE, mask);
  }
  const sc_core::sc_time t0 = api_.now();
  for (unsigned i = 0; i < n; ++i) {
    wr(V3D_SRQUA, unifs[i]);
    wr(V3D_SRQUL, unif_len);
    wr(V3D_SRQPC, code);
  }
  const sc_core::sc_time deadline = t0 + timeout_;
  if (interrupt_) {
    // Each QPU program ends by writing host_int: count interrupts until every program reported.
    unsigned seen = 0;
    while (seen < n) {
      const sc_core::sc_time left = deadline > api_.now() ? deadline - api_.now() : sc_core::SC_ZERO_TIME;
      if (!api_.wait_interrupt(irq_vector_, left))
        throw HostError(
            format("v3d: %u of %u programs raised their interrupt within %s", seen, n, timeout_.to_string().c_str()));
      const uint32_t st = rd(V3D_DBQITC);
      wr(V3D_DBQITC, st);
      seen += unsigned(__builtin_popcount(st & mask));
    }
  }
  for (;;) {
    const uint32_t cs = rd(V3D_SRQCS);
    if (cs & V3D_SRQCS_ERROR) throw HostError("v3d: user program queue overflow (SRQCS error bit)");
    if (V3D_SRQCS_DONE(cs) == (n & 0xffu)) break;
    if (api_.now() >= deadline)
      throw HostError(format("v3d: %u of %u programs completed within %s (SRQCS 0x%08x)", V3D_SRQCS_DONE(cs), n,
                             timeout_.to_string().c_str(), cs));
    api_.sleep(poll_interval());
  }
  return api_.now() - t0;
}

}  // namespace hetvp::qpu
