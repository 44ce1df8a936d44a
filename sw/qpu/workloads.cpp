// The QPU workloads (docs/qpu.md): qpu_peak, qpu_sgemm, qpu_reduce, qpu_stride (qpu_run: qpu_run.cpp). Each assembles
// nothing at run time: its program was assembled at build time from sw/qpu/programs/*.qasm.
#include <cinttypes>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <iterator>
#include <stdexcept>

#include "firmware/include/hetvp/v3d_regs.h"
#include "qpu/qpu_peak.h"
#include "qpu/qpu_reduce.h"
#include "qpu/qpu_sgemm.h"
#include "qpu/qpu_stride.h"
#include "models/host/host_api.h"
#include "models/qpu/qpu_isa.h"
#include "platform/format.h"
#include "platform/config.h"
#include "platform/program.h"
#include "sw/qpu/qpu_asm.h"
#include "sw/qpu/v3d_driver.h"

namespace hetvp::qpu {

namespace {

unsigned qpus_to_use(V3dDriver& drv, const V3dOptions& a) {
  const unsigned have = drv.num_qpus();
  const unsigned want = a.qpus ? a.qpus() : have;
  if (want > have) throw HostError(format("%u QPUs asked for, the V3D has %u (IDENT1)", want, have));
  return want;
}

template <size_t N, class L, size_t M>
uint32_t label(const uint64_t (&)[N], const L (&labels)[M], const char* name) {
  for (const auto& l : labels)
    if (std::strcmp(l.name, name) == 0) return l.offset;
  throw HostError(std::string("QPU program has no label ") + name);
}

// fadd/fsub and fmul operations, per element, of the instructions [from, to).
uint64_t count_flops(const uint64_t* code, uint32_t from, uint32_t to) {
  uint64_t n = 0;
  for (uint32_t pc = from; pc < to; pc += 8) {
    const Instr d = decode(code[pc / 8]);
    if (d.kind != Kind::Alu) continue;
    if ((d.op_add == A_FADD || d.op_add == A_FSUB) && d.cond_add != COND_NEVER) n += 16;
    if (d.op_mul == M_FMUL && d.cond_mul != COND_NEVER) n += 16;
  }
  return n;
}

struct QpuPeakArgs : V3dOptions {
  Int<uint32_t> iterations{this, "iterations", 150, "loop iterations per QPU (1 iteration = 4097 instructions)",
                           Range{1, 1000000}};
};

class QpuPeak : public ProgramWithArgs<QpuPeakArgs> {
 public:
  int run(HostApi& api, const QpuPeakArgs& a) override {
    V3dDriver drv(api, a);
    const unsigned nq = qpus_to_use(drv, a);
    const uint32_t iters = a.iterations;
    const uint32_t code = drv.upload_code(programs::qpu_peak, std::size(programs::qpu_peak));
    const uint32_t unif = drv.upload_words({iters});
    const sc_core::sc_time t = drv.execute(code, std::vector<uint32_t>(nq, unif), 1);
    const uint64_t per_iter =
        count_flops(programs::qpu_peak, label(programs::qpu_peak, programs::qpu_peak_labels, "loop"),
                    label(programs::qpu_peak, programs::qpu_peak_labels, "loop_end"));
    const uint64_t flops = per_iter * iters * nq;
    const double gflops = double(flops) / t.to_seconds() / 1e9;
    api.results().set_columns({"qpus", "iterations", "flops", "time_ns", "gflops"});
    api.results().add_row({std::to_string(nq), std::to_string(iters), std::to_string(flops),
                           format("%.1f", t.to_seconds() * 1e9), format("%.2f", gflops)});
    api.stat("gflops", gflops);
    api.log(format("qpu_peak: %u QPUs x %u iterations: %" PRIu64 " flops in %.3f ms = %.1f GFLOP/s", nq, iters, flops,
                   t.to_seconds() * 1e3, gflops));
    return 0;
  }
};

struct QpuSgemmArgs : V3dOptions {
  Int<uint32_t> n{this, "n", 96, "matrix size N (C = A x B, N x N floats; a multiple of 16)", Range{16, 1024}};
  Real tolerance{this, "tolerance", 1e-4, "largest accepted |C - C_host| / (1 + |C_host|)", Min{0}};
  void validate(Diagnostics& d) const override {
    if (n % 16) d.error(n.where() + ": qpu_sgemm needs N to be a multiple of 16");
  }
};

class QpuSgemm : public ProgramWithArgs<QpuSgemmArgs> {
 public:
  int run(HostApi& api, const QpuSgemmArgs& a) override {
    V3dDriver drv(api, a);
    const unsigned nq = qpus_to_use(drv, a);
    const uint32_t n = a.n;
    std::vector<float> A(size_t(n) * n), B(size_t(n) * n), C(size_t(n) * n, 0.0f), R(size_t(n) * n);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& x : A) x = dist(api.rng());
    for (auto& x : B) x = dist(api.rng());
    const uint32_t bytes = n * n * 4;
    const uint32_t a_addr = drv.alloc(bytes), b_addr = drv.alloc(bytes), c_addr = drv.alloc(bytes);
    drv.upload(a_addr, A.data(), bytes);
    drv.upload(b_addr, B.data(), bytes);
    drv.upload(c_addr, C.data(), bytes);
    const uint32_t code = drv.upload_code(programs::qpu_sgemm, std::size(programs::qpu_sgemm));
    std::vector<uint32_t> unifs;
    unsigned used = 0;
    for (unsigned q = 0; q < nq && q < n; ++q) {
      const uint32_t rows = (n - q + nq - 1) / nq;
      const uint32_t vpm_setup = 0x1a00u | q;  // 32-bit horizontal, stride 1, row q
      const uint32_t vdw_setup = 0x80000000u | 1u << 23 | 16u << 16 | 1u << 14 | q << 7;  // 1 x 16 words from row q
      unifs.push_back(drv.upload_words({rows, a_addr + q * n * 4, c_addr + q * n * 4, b_addr, nq * n * 4, n / 4, n / 16,
                                        n * 4, 2 * n * 4, 3 * n * 4, 4 * n * 4, vpm_setup, vdw_setup}));
      ++used;
    }
    const sc_core::sc_time t = drv.execute(code, unifs, 13);
    api.peek(c_addr, C.data(), bytes);
    // The host's result, summed in the same order (k ascending, a product then a sum).
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i)
      for (uint32_t j = 0; j < n; ++j) {
        float s = 0.0f;
        for (uint32_t k = 0; k < n; ++k) {
          const float p = A[size_t(i) * n + k] * B[size_t(k) * n + j];
          s = s + p;
        }
        R[size_t(i) * n + j] = s;
        worst = std::max(worst, double(std::fabs(C[size_t(i) * n + j] - s)) / (1.0 + std::fabs(s)));
      }
    const bool ok = worst <= a.tolerance;
    const double flops = 2.0 * n * n * n, gflops = flops / t.to_seconds() / 1e9;
    api.results().set_columns({"n", "qpus", "time_ns", "gflops", "max_error", "check"});
    api.results().add_row({std::to_string(n), std::to_string(used), format("%.1f", t.to_seconds() * 1e9),
                           format("%.3f", gflops), format("%.3g", worst), ok ? "pass" : "FAIL"});
    api.stat("gflops", gflops);
    api.stat("max_error", worst);
    api.log(format("qpu_sgemm: N=%u on %u QPUs: %.3f ms, %.3f GFLOP/s, max error %.3g: %s", n, used,
                   t.to_seconds() * 1e3, gflops, worst, ok ? "matches the host" : "WRONG"));
    return ok ? 0 : 1;
  }
};

struct QpuReduceArgs : V3dOptions {
  Int<uint32_t> n{this, "n", 12288, "floats to sum (a multiple of 16 x QPUs)", Range{16, 1 << 24}};
};

class QpuReduce : public ProgramWithArgs<QpuReduceArgs> {
 public:
  int run(HostApi& api, const QpuReduceArgs& a) override {
    V3dDriver drv(api, a);
    const unsigned nq = qpus_to_use(drv, a);
    const uint32_t n = a.n;
    if (n % (16 * nq)) throw HostError(format("qpu_reduce: n = %u is not a multiple of 16 x %u QPUs", n, nq));
    std::vector<float> x(n);
    std::uniform_int_distribution<int> dist(-1000, 1000);  // integers: the sum is exact in any order
    double expect = 0;
    for (auto& v : x) {
      v = float(dist(api.rng())) / 8.0f;
      expect += v;
    }
    const uint32_t src = drv.alloc(n * 4), result = drv.alloc(64);
    drv.upload(src, x.data(), n * 4);
    const uint32_t code = drv.upload_code(programs::qpu_reduce, std::size(programs::qpu_reduce));
    const uint32_t chunk = n / nq;
    std::vector<uint32_t> unifs;
    for (unsigned q = 0; q < nq; ++q) {
      const uint32_t wr = 0x1a00u | q, rd = (nq == 16 ? 0u : nq) << 20 | 0x1a00u,
                     vdw = 0x80000000u | 1u << 23 | 16u << 16 | 1u << 14;
      unifs.push_back(drv.upload_words({q, nq - 1, src + q * chunk * 4, chunk / 16, wr, rd, vdw, result}));
    }
    const sc_core::sc_time t = drv.execute(code, unifs, 8);
    float got[16];
    api.peek(result, got, sizeof got);
    const bool ok = double(got[0]) == expect;
    api.results().set_columns({"n", "qpus", "time_ns", "sum", "expected", "check"});
    api.results().add_row({std::to_string(n), std::to_string(nq), format("%.1f", t.to_seconds() * 1e9),
                           format("%.3f", double(got[0])), format("%.3f", expect), ok ? "pass" : "FAIL"});
    api.log(format("qpu_reduce: %u floats on %u QPUs in %.3f us: sum %.3f (host %.3f): %s", n, nq, t.to_seconds() * 1e6,
                   double(got[0]), expect, ok ? "matches" : "WRONG"));
    return ok ? 0 : 1;
  }
};

std::vector<uint32_t> parse_list(const std::string& text) {
  std::vector<uint32_t> v;
  size_t p = 0;
  while (p <= text.size()) {
    size_t q = text.find(',', p);
    if (q == std::string::npos) q = text.size();
    const std::string item = text.substr(p, q - p);
    char* end = nullptr;
    const unsigned long x = std::strtoul(item.c_str(), &end, 0);
    if (item.empty() || *end || x > 0xffffffffu) throw std::invalid_argument("'" + item + "' is not a number");
    v.push_back(uint32_t(x));
    p = q + 1;
  }
  return v;
}

HETVP_ENUM(StrideMode, horizontal, vertical);

struct QpuStrideArgs : V3dOptions {
  Enum<StrideMode> mode{this, "mode", StrideMode::horizontal,
                        "horizontal: rows stay rows; vertical: the VCD writes memory rows into VPM columns (a "
                        "transpose)"};
  Int<uint32_t> rows{this, "rows", 16, "memory rows loaded (VCD NROWS)", Range{1, 16}};
  Str src_pitch{this, "src_pitch", "64,128,256,1024,4096",
                "source row pitches in bytes (VCD extended pitch, one run each; multiples of 4, 64..8188)"};
  Int<uint32_t> dst_stride{this, "dst_stride", 64, "bytes the VDW store skips after each 64-byte row (0..65535)",
                           Range{0, 65535}};
  void validate(Diagnostics& d) const override {
    std::vector<uint32_t> v;
    try {
      v = parse_list(src_pitch);
    } catch (const std::invalid_argument& e) {
      d.error(src_pitch.where() + ": " + e.what());
      return;
    }
    for (uint32_t p : v)
      if (p % 4 || p < 64 || p > 8188) {
        d.error(src_pitch.where() + ": pitch " + std::to_string(p) +
                " must be a multiple of 4 in 64..8188 (the 13-bit VCD extended pitch, 16-word rows)");
        return;
      }
  }
};

class QpuStride : public ProgramWithArgs<QpuStrideArgs> {
 public:
  int run(HostApi& api, const QpuStrideArgs& a) override {
    V3dDriver drv(api, a);
    const bool vert = a.mode == StrideMode::vertical;
    const uint32_t rows = a.rows, dst_stride = a.dst_stride;
    const uint32_t code = drv.upload_code(programs::qpu_stride, std::size(programs::qpu_stride));
    api.results().set_columns({"mode", "rows", "src_pitch", "dst_stride", "bytes", "time_ns", "mb_per_s", "check"});
    bool all_ok = true;
    for (uint32_t pitch : parse_list(a.src_pitch)) {
      std::vector<uint32_t> src(size_t(rows) * pitch / 4);
      for (size_t i = 0; i < src.size(); ++i) src[i] = uint32_t(api.rng()());
      const uint32_t src_addr = drv.alloc(src.size() * 4);
      drv.upload(src_addr, src.data(), src.size() * 4);
      // Stored: horizontal: `rows` rows of 16 words; vertical: 16 rows of `rows` words.
      const uint32_t units = vert ? 16 : rows, depth = vert ? rows : 16;
      const uint32_t dst_bytes = units * (depth * 4 + dst_stride);
      const uint32_t dst_addr = drv.alloc(dst_bytes);
      std::vector<uint32_t> zero(dst_bytes / 4, 0);
      drv.upload(dst_addr, zero.data(), dst_bytes);
      const uint32_t vcd =
          0x80000000u | (rows & 15u) << 16 | 1u << 12 | (vert ? 1u << 11 : 0u);  // rowlen 16, y = x = 0
      const uint32_t vcd_pitch = 0x90000000u | pitch;
      const uint32_t vdw = 0x80000000u | (units & 127u) << 23 | (depth & 127u) << 16 | 1u << 14;
      const uint32_t vdw_stride = 0xc0000000u | dst_stride;
      const uint32_t unif = drv.upload_words({vcd, vcd_pitch, src_addr, vdw, vdw_stride, dst_addr});
      const sc_core::sc_time t = drv.execute(code, {unif}, 6);
      std::vector<uint32_t> dst(dst_bytes / 4);
      api.peek(dst_addr, dst.data(), dst_bytes);
      bool ok = true;
      for (uint32_t u = 0; u < units; ++u)
        for (uint32_t k = 0; k < depth; ++k) {
          const uint32_t want = vert ? src[size_t(k) * pitch / 4 + u] : src[size_t(u) * pitch / 4 + k];
          if (dst[(size_t(u) * (depth * 4 + dst_stride)) / 4 + k] != want) ok = false;
        }
      for (uint32_t u = 0; u < units; ++u)  // the skipped bytes stay untouched
        for (uint32_t k = 0; k < dst_stride / 4; ++k)
          if (dst[(size_t(u) * (depth * 4 + dst_stride) + depth * 4) / 4 + k] != 0) ok = false;
      all_ok &= ok;
      const uint32_t bytes = rows * 64;
      api.results().add_row({a.mode.word(), std::to_string(rows), std::to_string(pitch), std::to_string(dst_stride),
                             std::to_string(bytes), format("%.1f", t.to_seconds() * 1e9),
                             format("%.1f", 2.0 * bytes / t.to_seconds() / 1e6), ok ? "pass" : "FAIL"});
      api.log(format("qpu_stride: %s, %u rows, source pitch %u, destination stride %u: %u bytes in %.3f us: %s",
                     a.mode.word().c_str(), rows, pitch, dst_stride, bytes, t.to_seconds() * 1e6,
                     ok ? "correct" : "WRONG"));
    }
    return all_ok ? 0 : 1;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("qpu_peak", QpuPeak, "VideoCore IV: dual-issue fmul+fadd on all QPUs, simulated GFLOP/s");
HETVP_REGISTER_PROGRAM("qpu_sgemm", QpuSgemm, "VideoCore IV: SGEMM with TMU loads and VPM DMA stores, checked");
HETVP_REGISTER_PROGRAM("qpu_reduce", QpuReduce, "VideoCore IV: cross-QPU sum with VPM rows and semaphores");
HETVP_REGISTER_PROGRAM("qpu_stride", QpuStride, "VideoCore IV: VPM DMA load and store with memory pitch and stride");

}  // namespace hetvp::qpu
