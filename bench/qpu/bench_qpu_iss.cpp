// QPU ISS speed: QPU instructions per wall-clock second (each instruction is 16 elements on both
// ALUs). Two measurements:
//   core  the bare QpuCore (models/qpu/qpu_core.h) running the qpu_peak program's loop on a
//         minimal I/O harness: the interpreter alone;
//   v3d   `hetvp run configs/videocore4.yaml --workload qpu_peak` (12 QPUs, scheduler, SystemC,
//         host program): the instructions the V3D reports in its stats over the run's wall time.
// Then the SGEMM wall time (qpu_sgemm, 12 QPUs, N = 96 and 192). Usage: bench_qpu_iss [BUILD_DIR]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "models/qpu/qpu_core.h"
#include "qpu/qpu_peak.h"

using namespace hetvp::qpu;

namespace {
struct Io : QpuIo {
  std::vector<Instr> code;
  uint32_t iterations;
  const Instr& fetch(QpuCore&, uint32_t pc) override { return code[pc / 8]; }
  uint32_t uniform(QpuCore&) override { return iterations; }
  void uniforms_address(QpuCore&, uint32_t) override {}
  void tmu_request(QpuCore&, unsigned, const Vec&, const uint8_t*) override {}
  void tmu_load(QpuCore&, unsigned, Vec&) override {}
  void vpm_read(QpuCore&, Vec&) override {}
  void vpm_write(QpuCore&, const Vec&, const uint8_t*) override {}
  void vpm_setup(QpuCore&, bool, uint32_t) override {}
  void vpm_dma(QpuCore&, bool, uint32_t) override {}
  void vpm_wait(QpuCore&, bool) override {}
  uint32_t vpm_busy(QpuCore&, bool) override { return 0; }
  bool mutex_acquire(QpuCore&) override { return true; }
  void mutex_release(QpuCore&) override {}
  bool semaphore(QpuCore&, unsigned, bool) override { return true; }
  void host_interrupt(QpuCore&) override {}
};

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
// CPU time of this process (the bare core) or of its finished children (hetvp runs): on a machine
// shared with other jobs, wall time measures the others too.
double cpu(bool children) {
  struct rusage u;
  getrusage(children ? RUSAGE_CHILDREN : RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double run_hetvp(const std::string& build, const std::string& args, std::string& stats, double& cpu_s) {
  const std::string json = "/tmp/bench_qpu_stats.json";
  const std::string cmd =
      build + "/hetvp run " HETVP_SOURCE_DIR "/configs/videocore4.yaml " + args + " --stats " + json + " > /dev/null";
  const double t0 = now(), c0 = cpu(true);
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "failed: %s\n", cmd.c_str());
    std::exit(1);
  }
  const double t = now() - t0;
  cpu_s = cpu(true) - c0;
  std::ifstream in(json);
  std::stringstream ss;
  ss << in.rdbuf();
  stats = ss.str();
  return t;
}

uint64_t stat(const std::string& js, const std::string& key) {
  const size_t p = js.find("\"" + key + "\": ");
  return p == std::string::npos ? 0 : std::strtoull(js.c_str() + p + key.size() + 4, nullptr, 10);
}
}  // namespace

int main(int argc, char** argv) {
  const std::string build = argc > 1 ? argv[1] : ".";
  Io io;
  for (uint64_t w : programs::qpu_peak) io.code.push_back(decode(w));
  io.iterations = 2000;
  QpuCore q(0, io);
  double best = 0, best_cpu = 0;
  for (int rep = 0; rep < 3; ++rep) {
    q.reset(0);
    q.instructions = 0;
    const double t0 = now(), c0 = cpu(false);
    while (q.step() != QpuCore::Status::Ended) {
    }
    const double t = now() - t0, c = cpu(false) - c0;
    best = std::max(best, double(q.instructions) / t);
    best_cpu = std::max(best_cpu, double(q.instructions) / c);
  }
  std::printf("core: %.1f M QPU instructions per wall s, %.1f M per CPU s (x 16 elements x 2 ALUs)\n", best / 1e6,
              best_cpu / 1e6);
  if (argc > 2 && std::string(argv[2]) == "core") return 0;
  std::string js;
  double c;
  double t = run_hetvp(build, "--workload qpu_peak --set workload.args.iterations=300", js, c);
  const uint64_t n = stat(js, "instructions");
  std::printf(
      "v3d:  %.1f M QPU instructions per wall s, %.1f M per CPU s (qpu_peak, 12 QPUs: %llu instructions, "
      "%.2f s wall, %.2f s CPU)\n",
      n / t / 1e6, n / c / 1e6, static_cast<unsigned long long>(n), t, c);
  for (int size : {96, 192}) {
    t = run_hetvp(build, "--workload qpu_sgemm --set workload.args.n=" + std::to_string(size), js, c);
    std::printf("sgemm N=%d, 12 QPUs: %.2f s wall, %.2f s CPU, %llu QPU instructions\n", size, t, c,
                static_cast<unsigned long long>(stat(js, "instructions")));
  }
  return 0;
}
