// Coherence workloads (SPEC §7, Misaki 2026 §4.1.3): square, matrix_transpose, shfl2d, and
// coh_random (many small random data-race-free programs for the coherence checker).
// Each follows Algorithm 2, checks its result and returns nonzero (exit 1) when wrong; each reports
// its known work (iterations, random programs) for `hetvp run --progress` (HostApi::progress).
#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <random>

#include "platform/program.h"
#include "sw/coherence/result_checks.h"
#include "sw/coherence/runtime.h"
#include "platform/format.h"

namespace hetvp::sw {

namespace {

// The kernels (square, matrix_transpose, shfl2d, coh_random) are sw/kernels/coherence.cu's: the
// runtime loads them (CoherenceRuntime::launch); their arguments are the kernels' parameters in
// order, 64-bit pointers as two words.

// The keys every coherence workload has.
struct CoherenceArgs : ParamSet {
  Group<CoherenceOptions> rt{this, "rt", "coherence runtime"};
  Int<unsigned> iterations{this, "iterations", 1,
                           "how many times the Algorithm 2 sequence runs (>1: caches hold old data)", Range{1, 1000}};
  Int<uint32_t> block{this, "block", 256, "threads per block (1-D kernels)", Range{32, 1024}};
  void validate(Diagnostics& d) const override { rt.validate(d); }
};
// The HIP samples' (square, matrix_transpose, 2dshfl) keys.
struct SampleArgs : CoherenceArgs {
  Bool host_copies{this, "host_copies", true,
                   "keep host copies of the input and output, as the HIP samples the thesis ran do, and copy them "
                   "with the CPU (hipMemcpy on an APU): the copies' lines are written, so tracked, too (false: "
                   "only the arrays the kernel uses)"};
};

void put_floats(HostApi& api, uint64_t pa, const std::vector<float>& v) { api.write(pa, v.data(), v.size() * 4); }
std::vector<float> get_floats(HostApi& api, uint64_t pa, size_t n) {
  std::vector<float> v(n);
  api.read(pa, v.data(), n * 4);
  return v;
}

int report(HostApi& api, const std::string& what, size_t total, const Mismatches& m) {
  if (m.count) {
    api.log(format("%s: FAILED: %zu of %zu results wrong (first at index %" PRIu64 ": got %g, expected %g)",
                   what.c_str(), m.count, total, m.first, m.got, m.want));
    return 1;
  }
  api.log(format("%s: %zu results correct", what.c_str(), total));
  return 0;
}

// The shared buffers of one workload: what the kernel reads and writes, and (host_copies) the
// host arrays the HIP samples keep beside them (0 when not kept).
struct Buffers {
  uint64_t in = 0, out = 0, in_host = 0, out_host = 0, reference = 0;
  // `cpu_reference`: the sample also computes the expected result on the CPU into a host array
  // (the transposes' matrixTransposeCPUReference).
  static Buffers alloc(CoherenceRuntime& rt, const SampleArgs& args, uint64_t bytes, bool cpu_reference = false) {
    Buffers b;
    b.in = rt.alloc(bytes);
    b.out = rt.alloc(bytes);
    if (args.host_copies) {
      b.in_host = rt.alloc(bytes);
      b.out_host = rt.alloc(bytes);
      if (cpu_reference) b.reference = rt.alloc(bytes);
    }
    return b;
  }
};

// The CPU's reference result of the transposes: out[y*W + x] = in[x*W + y].
std::vector<float> transposed(const std::vector<float>& in, uint64_t W) {
  std::vector<float> t(in.size());
  for (uint64_t y = 0; y < W; ++y)
    for (uint64_t x = 0; x < W; ++x) t[y * W + x] = in[x * W + y];
  return t;
}

// One round of the thesis' Algorithm 2: the CPU writes `input` to IN under acquire/release,
// the GPU runs `kernel` (args: IN, OUT, `last_arg`) between its acquire and release kernels,
// the CPU reads OUT back under acquire/release. Returns what the CPU read. With host copies the
// CPU writes the host input array and copies it into IN (hipMemcpy host-to-device), and copies
// OUT into the host output array (device-to-host) before reading that.
std::vector<float> algorithm2(HostApi& api, CoherenceRuntime& rt, const Buffers& buf, const std::vector<float>& input,
                              const char* kernel, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by, uint32_t last_arg,
                              const std::vector<float>& expected = {}) {
  const uint64_t in = buf.in, out = buf.out;
  rt.cpu_acquire();
  if (buf.in_host) {
    put_floats(api, buf.in_host, input);
    put_floats(api, in, get_floats(api, buf.in_host, input.size()));
  } else {
    put_floats(api, in, input);
  }
  rt.cpu_release();
  rt.gpu_acquire();
  rt.launch(
      kernel, gx, gy, bx, by,
      {uint32_t(rt.gva(in)), uint32_t(rt.gva(in) >> 32), uint32_t(rt.gva(out)), uint32_t(rt.gva(out) >> 32), last_arg});
  rt.gpu_release();
  rt.cpu_acquire();
  std::vector<float> result = get_floats(api, out, input.size());
  if (buf.out_host) {
    put_floats(api, buf.out_host, result);
    result = get_floats(api, buf.out_host, input.size());
  }
  if (buf.reference) put_floats(api, buf.reference, expected);
  rt.cpu_release();
  return result;
}

struct SquareArgs : SampleArgs {
  Int<uint32_t> n{this, "n", 200, "array elements", Range{1, 1 << 26}};
};

class Square : public ProgramWithArgs<SquareArgs> {
 public:
  int run(HostApi& api, const SquareArgs& args) override {
    const uint32_t n = args.n;
    CoherenceRuntime rt(api, args.rt, "square", std::to_string(n));
    const Buffers buf = Buffers::alloc(rt, args, uint64_t(n) * 4);
    const uint32_t block = args.block;
    int rc = 0;
    api.progress(0, uint64_t(args.iterations()));
    for (int64_t it = 0; it < args.iterations; ++it) {
      std::vector<float> a(n);
      for (uint32_t i = 0; i < n; ++i) a[i] = static_cast<float>((i + it) % 1000) * 0.5f + 1.0f;
      const auto c = algorithm2(api, rt, buf, a, "square", (n + block - 1) / block, 1, block, 1, n);
      rc |= report(api, "square N=" + std::to_string(n), n, check_squared(a, c));
      api.progress(uint64_t(it + 1), uint64_t(args.iterations()));  // --progress: iterations done
    }
    rt.summary();
    return rc;
  }
};

struct TransposeArgs : SampleArgs {
  Int<uint32_t> width{this, "width", 16, "matrix width W (W x W floats)", Range{1, 8192}};
};

class Transpose : public ProgramWithArgs<TransposeArgs> {
 public:
  int run(HostApi& api, const TransposeArgs& args) override {
    const uint32_t W = args.width;
    const uint64_t n = uint64_t(W) * W;
    CoherenceRuntime rt(api, args.rt, "matrix_transpose", std::to_string(W) + "x" + std::to_string(W));
    const Buffers buf = Buffers::alloc(rt, args, n * 4, true);
    int rc = 0;
    api.progress(0, uint64_t(args.iterations()));
    for (int64_t it = 0; it < args.iterations; ++it) {
      std::vector<float> a(n);
      for (uint64_t i = 0; i < n; ++i) a[i] = static_cast<float>((i * 7 + it) % 4093);
      const auto o =
          algorithm2(api, rt, buf, a, "matrix_transpose", (W + 3) / 4, (W + 3) / 4, 4, 4, W, transposed(a, W));
      rc |=
          report(api, "matrix_transpose " + std::to_string(W) + "x" + std::to_string(W), n, check_transposed(a, o, W));
      api.progress(uint64_t(it + 1), uint64_t(args.iterations()));
    }
    rt.summary();
    return rc;
  }
};

struct Shfl2dArgs : SampleArgs {
  Int<uint32_t> width{this, "width", 4, "matrix width W (W x W floats)", Range{1, 1024}};
};

class Shfl2d : public ProgramWithArgs<Shfl2dArgs> {
 public:
  int run(HostApi& api, const Shfl2dArgs& args) override {
    const uint32_t W = args.width;
    const uint32_t n = W * W;
    const uint32_t rows = std::min<uint32_t>(W, 1024 / W);  // block = W x rows threads (W <= 1024 by the schema)
    CoherenceRuntime rt(api, args.rt, "2dshfl", std::to_string(W) + "x" + std::to_string(W));
    const Buffers buf = Buffers::alloc(rt, args, uint64_t(n) * 4, true);
    int rc = 0;
    api.progress(0, uint64_t(args.iterations()));
    for (int64_t it = 0; it < args.iterations; ++it) {
      std::vector<float> a(n);
      for (uint32_t i = 0; i < n; ++i) a[i] = static_cast<float>(i + 100 * it);
      const auto o = algorithm2(api, rt, buf, a, "shfl2d", 1, (W + rows - 1) / rows, W, rows, W, transposed(a, W));
      rc |= report(api, "2dshfl " + std::to_string(W) + "x" + std::to_string(W), n, check_transposed(a, o, W));
      api.progress(uint64_t(it + 1), uint64_t(args.iterations()));
    }
    rt.summary();
    return rc;
  }
};

// Many small random data-race-free programs in one run: each program is a few rounds of
// CPU phase (random stores/loads to a random subset of a small shared buffer) and GPU phase
// (kernel coh_random), handed over with the release-consistency protocol. The coherence
// checker (YAML `cpu_cc.checker` / `gpu0.compute.controller.checker`) checks every load; the
// program also checks what the CPU reads back against its own model of the GPU's writes.
struct CohRandomArgs : CoherenceArgs {
  Int<int64_t> programs{this, "programs", 100, "random programs", Range{1, 1000000}};
  Int<int64_t> rounds{this, "rounds", 2, "CPU/GPU hand-overs per program", Range{1, 100}};
  Int<uint32_t> max_words{this, "max_words", 512, "largest shared buffer (32-bit words)", Range{32, 1 << 20}};
};

class CohRandom : public ProgramWithArgs<CohRandomArgs> {
 public:
  int run(HostApi& api, const CohRandomArgs& args) override {
    CoherenceRuntime rt(api, args.rt, "coh_random", "");
    const uint32_t max_words = args.max_words;
    const uint64_t buf = rt.alloc(uint64_t(max_words) * 4);
    auto& rng = api.rng();
    std::vector<uint32_t> model(max_words, 0);
    // The arena starts zeroed; the model knows it.
    uint64_t checked = 0;
    api.progress(0, uint64_t(args.programs()));  // --progress: random programs done
    for (int64_t p = 0; p < args.programs; ++p) {
      const uint32_t words = 32 + static_cast<uint32_t>(rng() % (max_words - 31));
      for (int64_t r = 0; r < args.rounds; ++r) {
        rt.cpu_acquire();
        const unsigned ops = 1 + rng() % 64;
        for (unsigned k = 0; k < ops; ++k) {
          const uint32_t i = rng() % words;
          if (rng() % 3) {
            uint32_t v = static_cast<uint32_t>(rng());
            api.write32(buf + 4 * i, v);
            model[i] = v;
          } else {
            uint32_t v = api.read32(buf + 4 * i);
            ++checked;
            if (v != model[i]) {
              api.log("coh_random: program " + std::to_string(p) + " CPU read word " + std::to_string(i) + " = " +
                      std::to_string(v) + ", expected " + std::to_string(model[i]));
              return 1;
            }
          }
        }
        rt.cpu_release();
        const uint32_t seed = static_cast<uint32_t>(rng()), stride = 2 + rng() % 3;
        // Model of the kernel: reads happen before the writes of the same warp; for the model,
        // compute from a snapshot (no lane reads a word another lane of another warp writes:
        // reads of written words are excluded below by using the snapshot semantics only when
        // the read word is not written in this launch).
        rt.gpu_acquire();
        rt.launch("coh_random", (words / stride + 255) / 256, 1, 256, 1,
                  {uint32_t(rt.gva(buf)), uint32_t(rt.gva(buf) >> 32), words, seed, stride});
        rt.gpu_release();
        // The CPU learns the GPU's writes by reading them (checked by the checker), then models them.
        rt.cpu_acquire();
        for (uint32_t g = 0; g < words / stride; ++g) {
          uint32_t v = api.read32(buf + 4 * (g * stride));
          ++checked;
          model[g * stride] = v;
        }
        rt.cpu_release();
      }
      api.progress(uint64_t(p + 1), uint64_t(args.programs()));
    }
    api.stat("coh_random_checked_reads", static_cast<double>(checked));
    api.log("coh_random: " + std::to_string(args.programs()) + " programs, " + std::to_string(checked) +
            " CPU reads checked");
    rt.summary();
    return 0;
  }
};

}  // namespace

HETVP_REGISTER_PROGRAM("square", Square, "coherence: CPU fills A[N], GPU C[i]=A[i]^2, CPU checks (Algorithm 2)");
HETVP_REGISTER_PROGRAM("matrix_transpose", Transpose, "coherence: W x W float transpose on the GPU, CPU checks");
HETVP_REGISTER_PROGRAM("shfl2d", Shfl2d, "coherence (2dshfl): row-order read, __shfl in registers, transposed store");
HETVP_REGISTER_PROGRAM("2dshfl", Shfl2d, "coherence: the thesis' name for shfl2d");
HETVP_REGISTER_PROGRAM("coh_random", CohRandom, "coherence: many random data-race-free CPU/GPU programs (checker)");

}  // namespace hetvp::sw
