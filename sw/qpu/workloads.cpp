// The QPU workloads (docs/qpu.md): qpu_peak, qpu_sgemm, qpu_reduce, qpu_stride. Each assembles
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
#include "platform/file_input.h"
#include "platform/program.h"
#include "sw/qpu/qpu_asm.h"
#include "sw/qpu/v3d_driver.h"

namespace hetvp::qpu {

namespace {

void common_schema(Schema& s) {
  s.integer("qpus", 0, "QPUs to run on (0: all the V3D reports in IDENT1)").range(0, 16);
  s.choice("wait", {"poll", "interrupt"}, std::string("poll"), "wait for completion by polling SRQCS or by interrupt");
  s.integer("v3d_base", 0x20c00000, "physical address of the V3D registers (peripheral base + 0xC00000)").min(0);
  s.integer("irq_vector", 0, "interrupt vector of the V3D (v3d.irq_vector)").range(0, 255);
}

V3dDriver::Options driver_options(const Params& a) {
  V3dDriver::Options o;
  o.v3d_base = a.u64("v3d_base");
  o.wait = a.string("wait") == "interrupt" ? V3dDriver::Wait::Interrupt : V3dDriver::Wait::Poll;
  o.irq_vector = a.u32("irq_vector");
  return o;
}

unsigned qpus_to_use(V3dDriver& drv, const Params& a) {
  const unsigned have = drv.num_qpus();
  const unsigned want = a.u32("qpus") ? a.u32("qpus") : have;
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

}  // namespace

class QpuPeak : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    common_schema(*s);
    s->integer("iterations", 150, "loop iterations per QPU (1 iteration = 4097 instructions)").range(1, 1000000);
    return s;
  }
  int run(HostApi& api, const Params& a) override {
    V3dDriver drv(api, driver_options(a));
    const unsigned nq = qpus_to_use(drv, a);
    const uint32_t iters = a.u32("iterations");
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

class QpuSgemm : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    common_schema(*s);
    s->integer("n", 96, "matrix size N (C = A x B, N x N floats; a multiple of 16)").range(16, 1024);
    // 0 by default: the QPUs do the host's float operations in the host's order (a product, then a
    // sum, k ascending), so every element must be bit-identical (docs/qpu.md).
    s->real("tolerance", 0, "largest accepted |C - C_host| / (1 + |C_host|) (0: exact)").min(0);
    return s;
  }
  static void validate(const Params& a) {
    if (a.integer("n") % 16) throw ConfigError(a.where("n") + ": qpu_sgemm needs N to be a multiple of 16");
  }
  int run(HostApi& api, const Params& a) override {
    V3dDriver drv(api, driver_options(a));
    const unsigned nq = qpus_to_use(drv, a);
    const uint32_t n = a.u32("n");
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
    const bool ok = worst <= a.real("tolerance");
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

class QpuReduce : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    common_schema(*s);
    s->integer("n", 12288, "floats to sum (a multiple of 16 x QPUs)").range(16, 1 << 24);
    return s;
  }
  int run(HostApi& api, const Params& a) override {
    V3dDriver drv(api, driver_options(a));
    const unsigned nq = qpus_to_use(drv, a);
    const uint32_t n = a.u32("n");
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

class QpuStride : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    common_schema(*s);
    s->choice("mode", {"horizontal", "vertical"}, std::string("horizontal"),
              "horizontal: rows stay rows; vertical: the VCD writes memory rows into VPM columns (a transpose)");
    s->integer("rows", 16, "memory rows loaded (VCD NROWS)").range(1, 16);
    s->string("src_pitch", std::string("64,128,256,1024,4096"),
              "source row pitches in bytes (VCD extended pitch, one run each; multiples of 4, 64..8188)");
    s->integer("dst_stride", 64, "bytes the VDW store skips after each 64-byte row (0..65535)").range(0, 65535);
    return s;
  }
  static void validate(const Params& a) {
    std::vector<uint32_t> v;
    try {
      v = parse_list(a.string("src_pitch"));
    } catch (const std::invalid_argument& e) {
      throw ConfigError(a.where("src_pitch") + ": " + e.what());
    }
    for (uint32_t p : v)
      if (p % 4 || p < 64 || p > 8188)
        throw ConfigError(a.where("src_pitch") + ": pitch " + std::to_string(p) +
                          " must be a multiple of 4 in 64..8188 (the 13-bit VCD extended pitch, 16-word rows)");
  }
  int run(HostApi& api, const Params& a) override {
    V3dDriver drv(api, driver_options(a));
    const bool vert = a.string("mode") == "vertical";
    const uint32_t rows = a.u32("rows"), dst_stride = a.u32("dst_stride");
    const uint32_t code = drv.upload_code(programs::qpu_stride, std::size(programs::qpu_stride));
    api.results().set_columns({"mode", "rows", "src_pitch", "dst_stride", "bytes", "time_ns", "mb_per_s", "check"});
    bool all_ok = true;
    for (uint32_t pitch : parse_list(a.string("src_pitch"))) {
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
      api.results().add_row({a.string("mode"), std::to_string(rows), std::to_string(pitch), std::to_string(dst_stride),
                             std::to_string(bytes), format("%.1f", t.to_seconds() * 1e9),
                             format("%.1f", 2.0 * bytes / t.to_seconds() / 1e6), ok ? "pass" : "FAIL"});
      api.log(format("qpu_stride: %s, %u rows, source pitch %u, destination stride %u: %u bytes in %.3f us: %s",
                     a.string("mode").c_str(), rows, pitch, dst_stride, bytes, t.to_seconds() * 1e6,
                     ok ? "correct" : "WRONG"));
    }
    return all_ok ? 0 : 1;
  }
};

// qpu_run: assembles a .qasm file (at run time, on the host) and runs it on N QPUs: the debugging
// tool for QPU programs. `list: true` prints the disassembly. The code gets a 4 KiB-aligned region
// of its own padded with zeros, so a program that runs off its end meets an all-zero word.
class QpuRun : public HostProgram {
 public:
  static std::shared_ptr<Schema> schema() {
    auto s = std::make_shared<Schema>();
    common_schema(*s);
    s->string("program", std::nullopt, "QPU assembly file (docs/qpu.md, \"Assembler\")").required();
    s->string("uniforms", std::string(""), "uniforms, comma-separated numbers (the same for every QPU)");
    s->boolean("index_uniform", false, "put the QPU's request number (0..N-1) before the uniforms");
    s->boolean("list", false, "print the disassembly before running");
    s->time("timeout", std::string("1 s"), "how long the host waits for the programs");
    return s;
  }
  // The program file is read (bounded, regular files only: platform/file_input.h) and assembled
  // with the configuration's validation, so a missing, odd, empty or wrong file is a located
  // configuration error (exit status 2) before anything is simulated.
  static std::vector<uint64_t> load(const Params& a) {
    const std::string& path = a.string("program");
    std::vector<uint64_t> code;
    try {
      code = assemble(read_input_text(path, input_kind::kQpuProgram), path);
    } catch (const InputFileError& e) {
      throw ConfigError(a.where("program") + ": qpu_run: " + e.what());
    } catch (const AsmError& e) {
      throw ConfigError(a.where("program") + ": qpu_run: " + e.what());
    }
    if (code.empty()) throw ConfigError(a.where("program") + ": qpu_run: " + path + " holds no instructions");
    return code;
  }
  static void validate(const Params& a) { load(a); }
  int run(HostApi& api, const Params& a) override {
    V3dDriver::Options o = driver_options(a);
    o.timeout = a.time("timeout");
    V3dDriver drv(api, o);
    const unsigned nq = a.u32("qpus") ? qpus_to_use(drv, a) : 1;
    std::vector<uint64_t> code;
    try {
      code = load(a);  // validated before the run; read again in case the file changed since
    } catch (const ConfigError& e) {
      throw HostError(e.what());
    }
    const size_t bytes = (code.size() * 8 + 8191) / 4096 * 4096;  // at least one zero page after the code
    code.resize(bytes / 8, 0);
    const uint32_t at = drv.alloc(bytes, 4096);
    drv.upload(at, code.data(), bytes);
    if (a.boolean("list"))
      for (size_t i = 0; i < code.size() && (i == 0 || code[i] || code[i - 1]); ++i)
        api.log(format("  0x%08zx: %016llx  %s", at + i * 8, static_cast<unsigned long long>(code[i]),
                       disassemble(code[i], uint32_t(at + i * 8)).c_str()));
    std::vector<uint32_t> words;
    try {
      if (!a.string("uniforms").empty()) words = parse_list(a.string("uniforms"));
    } catch (const std::invalid_argument& e) {
      throw HostError(std::string("qpu_run: uniforms: ") + e.what());
    }
    std::vector<uint32_t> unifs;
    for (unsigned q = 0; q < nq; ++q) {
      std::vector<uint32_t> w = words;
      if (a.boolean("index_uniform")) w.insert(w.begin(), q);
      unifs.push_back(drv.upload_words(w));
    }
    const sc_core::sc_time t = drv.execute(at, unifs, uint32_t(words.size()));
    api.log(format("qpu_run: %u programs done in %.3f us", nq, t.to_seconds() * 1e6));
    return 0;
  }
};

HETVP_REGISTER_PROGRAM("qpu_peak", QpuPeak, "VideoCore IV: dual-issue fmul+fadd on all QPUs, simulated GFLOP/s");
HETVP_REGISTER_PROGRAM("qpu_sgemm", QpuSgemm, "VideoCore IV: SGEMM with TMU loads and VPM DMA stores, checked");
HETVP_REGISTER_PROGRAM("qpu_reduce", QpuReduce, "VideoCore IV: cross-QPU sum with VPM rows and semaphores");
HETVP_REGISTER_PROGRAM("qpu_run", QpuRun, "VideoCore IV: assemble a .qasm file and run it on N QPUs (debugging)");
HETVP_REGISTER_PROGRAM("qpu_stride", QpuStride, "VideoCore IV: VPM DMA load and store with memory pitch and stride");

}  // namespace hetvp::qpu
