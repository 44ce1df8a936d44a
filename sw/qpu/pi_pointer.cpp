// qpu_pi_pointer: Pi host code that keeps its data in GPU memory it mapped and reads and writes it
// through a plain C pointer, as hello_fft's gpu_fft_base.c does with mapmem's `void *`: mailbox
// mem_alloc + mem_lock, `volatile unsigned *arm = (volatile unsigned *) mapmem(...)`, the QPU code,
// uniforms, control list and input written through `arm[i] = ...`, execute_qpu, the output read
// through `arm[i]`. The pointer is the memory's TLM DMI grant (sw/qpu/mailbox.h): its accesses are
// untimed, so writing the job costs no simulated time. The job is qpu_pi's
// (sw/qpu/programs/pi_scale.qasm: y = x < 0 ? x + 1 : 2 x), checked element by element.
// `pointer_to=v3d` takes a pointer of the V3D's registers instead: refused (a peripheral stays
// behind the access API), the error case of docs/qpu.md.
#include <cinttypes>
#include <cstring>
#include <iterator>

#include "models/host/host_api.h"
#include "platform/format.h"
#include "platform/program.h"
#include "qpu/pi_scale.h"
#include "sw/qpu/mailbox.h"
#include "sw/qpu/v3d_driver.h"

namespace hetvp::qpu {

namespace {
using namespace hetvp::pi;

HETVP_ENUM(PointerTo, sdram, v3d);

struct QpuPiPointerArgs : ParamSet {
  Int<unsigned> qpus{this, "qpus", 12, "QPUs (one request each)", Range{1, 16}};
  Int<unsigned> blocks{this, "blocks", 4, "blocks of 16 floats per QPU", Range{1, 4096}};
  Int<unsigned> mem_flags{this, "mem_flags", MEM_FLAG_DIRECT,
                          "mem_alloc flags (bits 3:2 choose the bus alias; 4 = DIRECT, 0xC...)", Range{0, 127}};
  Enum<PointerTo> pointer_to{this, "pointer_to", PointerTo::sdram,
                             "what to take a pointer of: the allocated GPU memory, or (an error) the V3D registers"};
  Int<uint64_t> mailbox_base{this, "mailbox_base", kPiMailboxBase, "physical address of the mailbox registers", Min{0}};
  Int<uint64_t> v3d_base{this, "v3d_base", kPiV3dBase, "physical address of the V3D registers", Min{0}};
};

class QpuPiPointer : public ProgramWithArgs<QpuPiPointerArgs> {
 public:
  int run(HostApi& api, const QpuPiPointerArgs& a) override {
    ApiScope scope(api, a.mailbox_base);
    const int mb = mbox_open();
    if (qpu_enable(mb, 1)) throw HostError("qpu_pi_pointer: enable_qpu failed");
    if (a.pointer_to == PointerTo::v3d) {  // hello_fft maps the peripherals this way; hetvp refuses the pointer
      volatile unsigned* peri = static_cast<volatile unsigned*>(mapmem(unsigned(a.v3d_base), 0x1000));
      api.log(format("qpu_pi_pointer: V3D IDENT0 0x%08x", peri[0]));
      return 1;
    }
    const unsigned nq = a.qpus, blocks = a.blocks, n = nq * blocks * 16;
    const unsigned code_words = unsigned(std::size(programs::pi_scale)) * 2;
    // Layout (qpu_pi's): code | uniforms (5 per QPU) | control (2 per QPU) | src | dst, 256-byte aligned.
    const unsigned code_off = 0, unif_off = 4096, ctl_off = unif_off + 256 * 4, src_off = ctl_off + 256,
                   dst_off = src_off + (n * 4 + 255) / 256 * 256, size = dst_off + n * 4;
    const unsigned handle = mem_alloc(mb, size, 4096, a.mem_flags);
    if (!handle) throw HostError(format("qpu_pi_pointer: mem_alloc of %u bytes failed", size));
    const unsigned bus = mem_lock(mb, handle);
    volatile unsigned* arm = static_cast<volatile unsigned*>(mapmem(VC_BUS_TO_PHYS(bus), size));

    const sc_core::sc_time t0 = api.now();
    for (unsigned i = 0; i < code_words / 2; ++i) {
      arm[code_off / 4 + 2 * i] = uint32_t(programs::pi_scale[i]);
      arm[code_off / 4 + 2 * i + 1] = uint32_t(programs::pi_scale[i] >> 32);
    }
    std::vector<float> in(n);
    for (unsigned i = 0; i < n; ++i) {
      in[i] = (float(int(i % 37)) - 18.0f) * 0.25f;  // exact in float
      uint32_t w;
      std::memcpy(&w, &in[i], 4);
      arm[src_off / 4 + i] = w;
      arm[dst_off / 4 + i] = 0;
    }
    for (unsigned q = 0; q < nq; ++q) {
      const uint32_t u[5] = {bus + src_off + q * blocks * 64, bus + dst_off + q * blocks * 64, blocks, 0x1a00u | q,
                             0x80000000u | 1u << 23 | 16u << 16 | 1u << 14 | q << 7};
      for (unsigned k = 0; k < 5; ++k) arm[unif_off / 4 + q * 8 + k] = u[k];
      arm[ctl_off / 4 + 2 * q] = bus + unif_off + q * 32;
      arm[ctl_off / 4 + 2 * q + 1] = bus + code_off;
    }
    const double write_ns = (api.now() - t0).to_seconds() * 1e9;

    const sc_core::sc_time t1 = api.now();
    const unsigned st = execute_qpu(mb, nq, bus + ctl_off, 0, 5000);
    if (st) throw HostError(format("qpu_pi_pointer: execute_qpu answered status %u", st));
    const double run_us = (api.now() - t1).to_seconds() * 1e6;

    unsigned bad = 0;
    for (unsigned i = 0; i < n; ++i) {
      const uint32_t w = arm[dst_off / 4 + i];
      float y;
      std::memcpy(&y, &w, 4);
      const float want = in[i] < 0 ? in[i] + 1.0f : in[i] * 2.0f;
      if (std::memcmp(&y, &want, 4)) ++bad;
    }
    unmapmem(arm, size);
    mem_unlock(mb, handle);
    mem_free(mb, handle);
    qpu_enable(mb, 0);
    mbox_close(mb);
    api.log(format("qpu_pi_pointer: wrote %u words through the mapmem pointer in %.0f ns of simulated time (untimed, "
                   "as DMI)",
                   code_words + 2 * n + 7 * nq, write_ns));
    api.log(format("qpu_pi_pointer: execute_qpu: %u QPUs, %u floats in %.3f us, %u wrong", nq, n, run_us, bad));
    return bad ? 1 : 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("qpu_pi_pointer", QpuPiPointer,
                       "VideoCore IV: Pi-style host code writing a QPU job through the plain pointer mapmem gives");

}  // namespace hetvp::qpu
