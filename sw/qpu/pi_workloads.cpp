// qpu_pi: host code written the way Raspberry Pi programs drive the QPUs (hello_fft's
// gpu_fft_base.c and mailbox.c), compiled against hetvp's Pi mailbox API (mailbox.h): open the
// mailbox, enable the QPUs, allocate GPU memory with the firmware, lock it (a bus address with the
// alias the flags ask for: MEM_FLAG_DIRECT gives 0xC0000000 | phys), map it, write code, uniforms
// and data holding bus addresses, and run the job either
//   path=mailbox:   through the firmware's execute_qpu with a control list of (uniforms, code), or
//   path=registers: through the V3D registers mapped with mapmem, in hello_fft's order (DBCFG,
//                   DBQITE, DBQITC, L2CACTL, SLCACTL, SRQCS, then SRQUA/SRQPC per QPU, polling SRQCS),
//   path=both:      both, on the same input, and the two outputs must be byte-identical.
// The job is sw/qpu/programs/pi_scale.qasm: y = x < 0 ? x + 1 : 2 x with both ALUs writing r2.
#include <cinttypes>
#include <cstring>
#include <iterator>

#include "firmware/include/hetvp/v3d_regs.h"
#include "models/host/host_api.h"
#include "platform/config.h"
#include "platform/format.h"
#include "platform/program.h"
#include "qpu/pi_scale.h"
#include "sw/qpu/mailbox.h"
#include "sw/qpu/v3d_driver.h"

namespace hetvp::qpu {

namespace {
using namespace hetvp::pi;

struct Job {
  unsigned nq, blocks;
  std::vector<float> in;
};

// Runs the job through one path; returns the output floats and the simulated time of the run.
HETVP_ENUM(JobPath, mailbox, registers, both);

std::vector<float> run_job(HostApi& api, const Job& job, JobPath path, unsigned flags, uint64_t v3d_base, double& us,
                           unsigned timeout_ms) {
  const int mb = mbox_open();
  if (qpu_enable(mb, 1)) throw HostError("qpu_pi: enable_qpu failed");
  const unsigned code_words = unsigned(std::size(programs::pi_scale)) * 2;
  const unsigned n = job.nq * job.blocks * 16;
  // Layout: code | uniforms (5 per QPU) | control (2 per QPU) | src | dst, each 256-byte aligned.
  const unsigned code_off = 0, unif_off = 4096, ctl_off = unif_off + 256 * 4, src_off = ctl_off + 256,
                 dst_off = src_off + (n * 4 + 255) / 256 * 256, size = dst_off + n * 4;
  const unsigned handle = mem_alloc(mb, size, 4096, flags);
  if (!handle) throw HostError(format("qpu_pi: mem_alloc of %u bytes failed", size));
  const unsigned bus = mem_lock(mb, handle);
  MappedMem arm = mapmem(VC_BUS_TO_PHYS(bus), size);
  arm.copy_in(code_off, programs::pi_scale, code_words * 4);
  arm.copy_in(src_off, job.in.data(), n * 4);
  std::vector<uint32_t> zeros(n, 0);
  arm.copy_in(dst_off, zeros.data(), n * 4);
  std::vector<uint32_t> unif_bus(job.nq);
  for (unsigned q = 0; q < job.nq; ++q) {
    const uint32_t u[5] = {bus + src_off + q * job.blocks * 64, bus + dst_off + q * job.blocks * 64, job.blocks,
                           0x1a00u | q, 0x80000000u | 1u << 23 | 16u << 16 | 1u << 14 | q << 7};
    arm.copy_in(unif_off + q * 32, u, sizeof u);
    unif_bus[q] = bus + unif_off + q * 32;
    arm[ctl_off / 4 + 2 * q] = unif_bus[q];
    arm[ctl_off / 4 + 2 * q + 1] = bus + code_off;
  }
  const sc_core::sc_time t0 = api.now();
  if (path == JobPath::mailbox) {
    const unsigned st = execute_qpu(mb, job.nq, bus + ctl_off, 0, timeout_ms);
    if (st)
      throw HostError(format("qpu_pi: execute_qpu answered status %u (%s)", st,
                             st == MBOX_STATUS_TIMEOUT ? "timeout" : "see the vc_mailbox warning"));
  } else {
    MappedMem v3d = mapmem(unsigned(v3d_base), 0x1000);
    v3d[V3D_DBCFG / 4] = 0;                                   // disallow IRQ
    v3d[V3D_DBQITE / 4] = 0;                                  // disable IRQ
    v3d[V3D_DBQITC / 4] = 0xffffffffu;                        // reset IRQ flags
    v3d[V3D_L2CACTL / 4] = 1u << 2;                           // clear L2 cache
    v3d[V3D_SLCACTL / 4] = 0xffffffffu;                       // clear other caches
    v3d[V3D_SRQCS / 4] = (1u << 7) | (1u << 8) | (1u << 16);  // reset error bit and counts
    // Performance counters 0..3 over this job: valid-instruction clocks, TMU stall clocks, TMU
    // quads, idle clocks.
    const uint32_t sources[4] = {V3D_PCTR_SRC_QPU_VALID, V3D_PCTR_SRC_QPU_TMU_STALL, V3D_PCTR_SRC_TMU_QUADS,
                                 V3D_PCTR_SRC_QPU_IDLE};
    for (unsigned c = 0; c < 4; ++c) v3d[V3D_PCTRS(c) / 4] = sources[c];
    v3d[V3D_PCTRC / 4] = 0xf;
    v3d[V3D_PCTRE / 4] = V3D_PCTRE_EN | 0xf;
    for (unsigned q = 0; q < job.nq; ++q) {
      v3d[V3D_SRQUA / 4] = unif_bus[q];
      v3d[V3D_SRQPC / 4] = bus + code_off;
    }
    const sc_core::sc_time deadline = api.now() + sc_core::sc_time(double(timeout_ms), sc_core::SC_MS);
    while (((v3d[V3D_SRQCS / 4] >> 16) & 0xff) != job.nq) {
      if (api.now() >= deadline) throw HostError(format("qpu_pi: the QPUs did not finish within %u ms", timeout_ms));
      api.sleep(sc_core::sc_time(1, sc_core::SC_US));
    }
    v3d[V3D_PCTRE / 4] = 0;  // stop counting, then read
    api.log(format("qpu_pi: performance counters: valid %u tmu_stall %u tmu_quads %u idle %u",
                   uint32_t(v3d[V3D_PCTR(0) / 4]), uint32_t(v3d[V3D_PCTR(1) / 4]), uint32_t(v3d[V3D_PCTR(2) / 4]),
                   uint32_t(v3d[V3D_PCTR(3) / 4])));
  }
  us = (api.now() - t0).to_seconds() * 1e6;
  std::vector<float> out(n);
  arm.copy_out(dst_off, out.data(), n * 4);
  unmapmem(arm, size);
  mem_unlock(mb, handle);
  mem_free(mb, handle);
  qpu_enable(mb, 0);
  mbox_close(mb);
  return out;
}
struct QpuPiArgs : ParamSet {
  Enum<JobPath> path{this, "path", JobPath::both,
                     "run the job through execute_qpu, through the V3D registers, or both (outputs compared)"};
  Int<unsigned> qpus{this, "qpus", 12, "QPUs (one request each)", Range{1, 16}};
  Int<unsigned> blocks{this, "blocks", 4, "blocks of 16 floats per QPU", Range{1, 4096}};
  Int<unsigned> mem_flags{this, "mem_flags", MEM_FLAG_DIRECT,
                          "mem_alloc flags (bits 3:2 choose the bus alias; 4 = DIRECT, 0xC...)", Range{0, 127}};
  Int<uint64_t> mailbox_base{this, "mailbox_base", kPiMailboxBase, "physical address of the mailbox registers", Min{0}};
  Int<uint64_t> v3d_base{this, "v3d_base", kPiV3dBase, "physical address of the V3D registers", Min{0}};
  Int<unsigned> timeout_ms{this, "timeout_ms", 5000, "execute_qpu timeout in ms (hello_fft uses 5000)",
                           Range{0, 1000000}};
};

class QpuPi : public ProgramWithArgs<QpuPiArgs> {
 public:
  int run(HostApi& api, const QpuPiArgs& a) override {
    ApiScope scope(api, a.mailbox_base);
    Job job{a.qpus, a.blocks, {}};
    const unsigned n = job.nq * job.blocks * 16;
    job.in.resize(n);
    for (unsigned i = 0; i < n; ++i) job.in[i] = (float(int(i % 37)) - 18.0f) * 0.25f;  // exact in float
    const int mb = mbox_open();
    const unsigned version = get_version(mb);
    mbox_close(mb);
    const std::vector<JobPath> paths = a.path == JobPath::both
                                           ? std::vector<JobPath>{JobPath::registers, JobPath::mailbox}
                                           : std::vector<JobPath>{a.path};
    api.results().set_columns({"path", "qpus", "elements", "time_us", "checksum", "check"});
    std::vector<std::vector<float>> outs;
    bool all_ok = true;
    for (const JobPath p : paths) {
      double us = 0;
      outs.push_back(run_job(api, job, p, a.mem_flags, a.v3d_base, us, a.timeout_ms));
      const auto& out = outs.back();
      unsigned bad = 0;
      uint64_t sum = 1469598103934665603ull;  // FNV-1a over the output bytes
      for (unsigned i = 0; i < n; ++i) {
        const float x = job.in[i], want = x < 0 ? x + 1.0f : x * 2.0f;
        if (std::memcmp(&out[i], &want, 4)) ++bad;
        uint32_t w;
        std::memcpy(&w, &out[i], 4);
        for (int k = 0; k < 4; ++k) sum = (sum ^ ((w >> (8 * k)) & 0xff)) * 1099511628211ull;
      }
      all_ok &= bad == 0;
      api.results().add_row({to_name(p), std::to_string(job.nq), std::to_string(n), format("%.3f", us),
                             format("%016" PRIx64, sum), bad ? "fail" : "pass"});
      api.log(format("qpu_pi: %s: %u QPUs, %u floats in %.3f us, checksum %016" PRIx64 ", %u wrong", to_name(p).c_str(),
                     job.nq, n, us, sum, bad));
    }
    if (outs.size() == 2) {
      const bool same = std::memcmp(outs[0].data(), outs[1].data(), n * 4) == 0;
      api.log(same ? "qpu_pi: registers and execute_qpu give identical outputs"
                   : "qpu_pi: registers and execute_qpu outputs DIFFER");
      all_ok &= same;
    }
    api.log(format("qpu_pi: firmware revision %u", version));
    return all_ok ? 0 : 1;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("qpu_pi", QpuPi,
                       "VideoCore IV: Pi-style host code (mailbox API): one job via execute_qpu and via V3D registers");

// qpu_regcheck: every register of the V3D table (v3d_regs.h) as a Pi host sees it: the read-only
// ones read their reset value, the store-only ones read back what was written, and the ones with
// behaviour do what docs/qpu.md says (L2CACTL's enable bit, SLCACTL reading 0, INTENA/INTDIS one
// mask, DBQITC write-1-to-clear, PCTRC/PCTRE/PCTRSn). Prints a line per register; exit 1 on a
// mismatch.
namespace {

struct QpuRegCheckArgs : ParamSet {
  Int<uint64_t> v3d_base{this, "v3d_base", kPiV3dBase, "physical address of the V3D registers", Min{0}};
};

class QpuRegCheck : public ProgramWithArgs<QpuRegCheckArgs> {
 public:
  int run(HostApi& api, const QpuRegCheckArgs& a) override {
    ApiScope scope(api);
    MappedMem v3d = mapmem(unsigned(a.v3d_base), 0x1000);
    unsigned bad = 0, checked = 0;
    auto expect = [&](const char* name, uint32_t got, uint32_t want) {
      ++checked;
      if (got != want) {
        ++bad;
        api.log(format("qpu_regcheck: %s reads 0x%08x, expected 0x%08x", name, got, want));
      }
    };
    struct Row {
      const char* name;
      uint32_t off;
      unsigned count;
      const char* access;
      uint32_t reset;
      const char* doc;
    };
#define HETVP_V3D_ROW(block, name, off, count, acc, reset, doc) {#name, off, count, #acc, reset, doc},
    static const Row rows[] = {HETVP_V3D_REGS(HETVP_V3D_ROW)};
#undef HETVP_V3D_ROW
    for (const Row& r : rows) {
      for (unsigned i = 0; i < r.count; ++i) {
        const uint32_t off = r.off + 4 * i;
        const std::string doc = r.doc;
        if (doc.find("(stored") != std::string::npos) {
          const uint32_t pattern = 0x5a000000u | off;
          v3d[off / 4] = pattern;
          expect(r.name, v3d[off / 4], pattern);
          v3d[off / 4] = 0;
        } else if (std::string(r.access) == "RO" && std::strncmp(r.name, "IDENT1", 6) != 0 &&
                   std::strncmp(r.name, "PCTR", 4) != 0) {
          expect(r.name, v3d[off / 4], r.reset);
        }
      }
    }
    v3d[V3D_L2CACTL / 4] = V3D_L2CACTL_ENABLE | V3D_L2CACTL_CLEAR;
    expect("L2CACTL after ENABLE|CLEAR", v3d[V3D_L2CACTL / 4], V3D_L2CACTL_ENABLE);
    v3d[V3D_L2CACTL / 4] = V3D_L2CACTL_DISABLE;
    expect("L2CACTL after DISABLE", v3d[V3D_L2CACTL / 4], 0);
    v3d[V3D_SLCACTL / 4] = 0xffffffffu;
    expect("SLCACTL after clearing all", v3d[V3D_SLCACTL / 4], 0);
    v3d[V3D_INTENA / 4] = 0x0f;
    v3d[V3D_INTDIS / 4] = 0x05;
    expect("INTENA", v3d[V3D_INTENA / 4], 0x0a);
    expect("INTDIS", v3d[V3D_INTDIS / 4], 0x0a);
    v3d[V3D_DBQITE / 4] = 0x0fff;
    expect("DBQITE", v3d[V3D_DBQITE / 4], 0x0fff);
    v3d[V3D_DBQITC / 4] = 0xffffffffu;
    expect("DBQITC", v3d[V3D_DBQITC / 4], 0);
    for (unsigned c = 0; c < V3D_PCTR_COUNTERS; ++c) {
      v3d[V3D_PCTRS(c) / 4] = c + 13;
      expect("PCTRSn", v3d[V3D_PCTRS(c) / 4], c + 13);
    }
    v3d[V3D_PCTRE / 4] = V3D_PCTRE_EN | 0xffff;
    expect("PCTRE", v3d[V3D_PCTRE / 4], V3D_PCTRE_EN | 0xffff);
    v3d[V3D_PCTRC / 4] = 0xffff;
    // Nothing runs: every source but idle clocks (13) stays 0 while the host waits.
    api.sleep(sc_core::sc_time(10, sc_core::SC_US));
    for (unsigned c = 1; c < V3D_PCTR_COUNTERS; ++c) expect("PCTRn (no QPU program ran)", v3d[V3D_PCTR(c) / 4], 0);
    const uint32_t idle = v3d[V3D_PCTR(0) / 4];
    api.log(format("qpu_regcheck: PCTR0 (idle clocks, source 13) counted %u in 10 us", idle));
    if (idle == 0) ++bad;
    v3d[V3D_PCTRE / 4] = 0;
    const uint32_t frozen = v3d[V3D_PCTR(0) / 4];
    api.sleep(sc_core::sc_time(10, sc_core::SC_US));
    expect("PCTR0 while disabled", v3d[V3D_PCTR(0) / 4], frozen);
    v3d[V3D_PCTRC / 4] = 1;
    expect("PCTR0 after PCTRC", v3d[V3D_PCTR(0) / 4], 0);
    api.log(format("qpu_regcheck: %u checks, %u wrong", checked, bad));
    return bad ? 1 : 0;
  }
};

}  // namespace

HETVP_REGISTER_TEST_PROGRAM("qpu_regcheck", QpuRegCheck,
                       "VideoCore IV: every V3D register stores/reads back or behaves as docs/qpu.md says");

// qpu_vcmailbox: the Pi's `vcmailbox` tool as a host program. `tags`: the tags' words (id, value
// buffer size, request code, value words...), sent with the header and end tag added; `raw`: the
// whole buffer as given (size word included), for malformed buffers. Prints the answer.
namespace {

struct QpuVcMailboxArgs : ParamSet {
  Str tags{this, "tags", "", "tag words, comma-separated (vcmailbox's arguments)"};
  Str raw{this, "raw", "", "a whole property buffer, comma-separated words (instead of tags)"};
  Int<uint64_t> mailbox_base{this, "mailbox_base", kPiMailboxBase, "physical address of the mailbox registers", Min{0}};
};

class QpuVcMailbox : public ProgramWithArgs<QpuVcMailboxArgs> {
 public:
  int run(HostApi& api, const QpuVcMailboxArgs& a) override {
    ApiScope scope(api, a.mailbox_base);
    auto words = [&](const Str& arg) {
      const char* key = arg.key().c_str();
      std::vector<uint32_t> v;
      const std::string& t = arg;
      size_t p = 0;
      while (!t.empty() && p <= t.size()) {
        size_t q = t.find(',', p);
        if (q == std::string::npos) q = t.size();
        const std::string item = t.substr(p, q - p);
        char* end = nullptr;
        const unsigned long long x = std::strtoull(item.c_str(), &end, 0);
        if (item.empty() || *end || x > 0xffffffffull)
          throw HostError(
              format("qpu_vcmailbox: %s: word %zu '%s' is not a 32-bit number", key, v.size(), item.c_str()));
        v.push_back(uint32_t(x));
        p = q + 1;
      }
      return v;
    };
    std::vector<uint32_t> buf = words(a.raw);
    if (buf.empty()) {
      buf = {0, MBOX_REQUEST};
      for (uint32_t w : words(a.tags)) buf.push_back(w);
      buf.push_back(MBOX_TAG_END);
      buf[0] = uint32_t(buf.size() * 4);
    }
    const size_t n = buf.size();
    buf.resize(std::max<size_t>(n, buf[0] / 4 + 1), 0);
    const int mb = mbox_open();
    const int rc = mbox_property(mb, buf.data());
    mbox_close(mb);
    std::string text;
    for (size_t k = 0; k < n; ++k) text += format(k ? " 0x%08x" : "0x%08x", buf[k]);
    api.log("qpu_vcmailbox: " + text);
    if (rc) {
      api.log(format("qpu_vcmailbox: response code 0x%08x%s", buf[1],
                     buf[1] == MBOX_RESPONSE_ERROR ? " (error parsing the request buffer)" : ""));
      return 1;
    }
    return 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("qpu_vcmailbox", QpuVcMailbox,
                       "VideoCore IV: send one mailbox property buffer and print the answer (the Pi's vcmailbox)");

}  // namespace hetvp::qpu
