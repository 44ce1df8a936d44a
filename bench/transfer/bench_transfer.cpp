// Simulation speed of the platform core on the transfer workload.
//
//   bench_transfer [CONFIG]
//
// Scenarios: the IORW store path alone (64 MiB, uncached 32-bit stores), DMA of 64 MiB both ways,
// the DMA/IORW sweep 4 B..64 MiB (the platform-core issue's sweep), and the default workload (every
// method and overlapped pair of Fujii 2014, 4 B..4 MiB).
// Runs each scenario in a child process (one SystemC elaboration per process) and reports wall
// time, simulated time per wall second, TLM transactions per wall second on the
// host -> PCIe -> VRAM path (uncached 32-bit BAR1 stores: CPU, host bus, root complex, link,
// endpoint, VRAM bus, VRAM) and the child's peak resident memory.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "platform/simulation.h"

namespace {

struct Scenario {
  const char* name;
  std::vector<std::string> sets;
  const char* counter;  // stats key counted as "transactions" (empty: none)
};

double json_number(const std::string& json, const std::string& key) {
  std::smatch m;
  std::regex re("\"" + key + "\": ([0-9.eE+-]+)");
  return std::regex_search(json, m, re) ? std::stod(m[1]) : 0.0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::string cfg = argc > 1 ? argv[1] : std::string(HETVP_SOURCE_DIR) + "/configs/default.yaml";
  const std::vector<Scenario> scenarios = {
      {"iorw_htod_64MiB",
       {"workload.args.min_size=64MiB", "workload.args.max_size=64MiB", "workload.args.methods=iorw",
        "workload.args.directions=htod", "workload.args.verify=false",
        "workload.args.driver.bar1_write_combining=false"},
       "uncached_stores"},
      {"dma_both_64MiB",
       {"workload.args.min_size=64MiB", "workload.args.max_size=64MiB", "workload.args.methods=dma",
        "workload.args.verify=false"},
       ""},
      {"dma_iorw_sweep_4B_64MiB",
       {"workload.args.methods=dma,iorw", "workload.args.max_size=64MiB", "workload.args.factor=4",
        "workload.args.driver.bar1_write_combining=false"},
       "uncached_stores"},
      {"fujii2014_sweep_default", {}, ""},
  };
  std::printf("| scenario | wall s | simulated s | sim s / wall s | transactions/s (%s) | peak RSS MiB |\n", "path");
  std::printf("|---|---|---|---|---|---|\n");
  for (auto& sc : scenarios) {
    std::string stats = "/tmp/hetvp-bench-" + std::string(sc.name) + ".json";
    auto t0 = std::chrono::steady_clock::now();
    pid_t pid = fork();
    if (pid == 0) {
      hetvp::RunOptions opt;
      opt.config = cfg;
      opt.overrides = sc.sets;
      opt.stats_path = stats;
      opt.quiet = true;
      std::ostringstream out, err;
      int rc = hetvp::run_platform(opt, out, err);
      if (rc) std::cerr << err.str();
      _exit(rc);
    }
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "%s: run failed\n", sc.name);
      return 1;
    }
    std::ifstream in(stats);
    std::stringstream ss;
    ss << in.rdbuf();
    double sim = json_number(ss.str(), "simulated_ns") * 1e-9;
    double tx = *sc.counter ? json_number(ss.str(), sc.counter) : 0;
    char txs[64] = "-";
    if (tx > 0) std::snprintf(txs, sizeof txs, "%.2f M", tx / wall / 1e6);
    std::printf("| %s | %.2f | %.3f | %.2f | %s | %.0f |\n", sc.name, wall, sim, sim / wall, txs,
                ru.ru_maxrss / 1024.0);
    std::fflush(stdout);
  }
  return 0;
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
