// The quantum is a speed knob: what hetvp measures must not depend on it (SPEC §10). Each test
// runs one workload at Q = 10 ns, 100 ns, 1 us and 10 us and compares every reported time with
// the 10 ns run. A target acts at an access's arrival time, a poll sees a register as of its
// arrival, shared links reserve time in a Calendar, and initiators book it at their own time when
// another process could book before them; without those, times moved by up to 45 %.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>
#include <map>
#include <set>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
const char* const kQuanta[] = {"10ns", "100ns", "1us", "10us"};

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

// key (every column but the measured ones) -> value of column `value_col`
std::map<std::string, double> table(const std::string& args, const std::string& q, size_t value_col, size_t key_cols) {
  const std::string csv = scratch() + "/quantum_" + q + ".csv";
  RunResult r = run_hetvp(args + " --quiet --set simulation.quantum=" + q + " --csv " + csv);
  EXPECT_EQ(r.status, 0) << args << " at " << q << ": " << r.err;
  std::map<std::string, double> t;
  auto rows = read_csv(csv);
  for (size_t i = 1; i < rows.size(); ++i) {
    std::string key;
    for (size_t c = 0; c < key_cols; ++c) key += rows[i][c] + ",";
    t[key] = std::stod(rows[i][value_col]);
  }
  return t;
}

// Every point at every quantum within `tolerance` (relative) of the 10 ns run.
void expect_quantum_independent(const std::string& args, size_t value_col, size_t key_cols, double tolerance) {
  const auto base = table(args, kQuanta[0], value_col, key_cols);
  ASSERT_FALSE(base.empty());
  for (size_t qi = 1; qi < std::size(kQuanta); ++qi) {
    const auto t = table(args, kQuanta[qi], value_col, key_cols);
    ASSERT_EQ(t.size(), base.size()) << kQuanta[qi];
    for (auto& [k, v] : base) {
      EXPECT_NEAR(t.at(k), v, std::fabs(v) * tolerance) << k << " at Q=" << kQuanta[qi] << " vs 10ns";
    }
  }
}
}  // namespace

// Every method and overlapped pair, both directions, 4 B .. 64 KiB (390 points), within 0.01 %
// (measured: 0.0016 %, a microcontroller's run time rounded to the picosecond per run, and the
// runs are cut where the quantum cuts them). Until #43 overlapped pairs with a DMA moved by up to
// 1.5 % at 10 us: which of two decoupled initiators booked a PCIe slot first depended on which ran
// ahead. Now the CPU's uncached accesses catch up with its local time, and the copy engine books
// each booking_window when SystemC time reaches it, whenever another process could book before.
TEST(Quantum, TransferTimesDoNotDependOnTheQuantum) {
  expect_quantum_independent("run " + config("default.yaml") + " --set workload.args.max_size=64KiB", 3, 3, 1e-4);
}

// The copy engine booking each request at its own time (booking_window 0): the same, for the
// pairs that share the link with a DMA.
TEST(Quantum, TransferTimesWithPerRequestBookingDoNotDependOnTheQuantum) {
  expect_quantum_independent("run " + config("default.yaml") +
                                 " --set workload.args.max_size=64KiB --set workload.args.methods=hub+dma,gpc1+dma,"
                                 "gpc4+dma,iorw+dma --set gpu0.copy_engine.booking_window=0s",
                             3, 3, 1e-4);
}

TEST(Quantum, BookingWindowMustBeATime) {
  RunResult r = run_hetvp("check " + config("default.yaml") + " --set gpu0.copy_engine.booking_window=soon");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(occurrences(r.err, "error:"), 1u) << r.err;  // that one error, nothing else
  EXPECT_NE(r.err.find("gpu0.copy_engine.booking_window: expected a time (e.g. 250 ns): 'soon' is not a number"),
            std::string::npos)
      << r.err;
}

// Boot: exact. At 10 us a GPC's whole init runs in one burst; its STATUS0 write becomes visible
// to the HUB's reads only at the GPC's local time (RegisterBank::set_owner). Without that the
// handshake ended 0.6 us instead of 7.1 us after start.
TEST(Quantum, BootTimesDoNotDependOnTheQuantum) {
  std::map<std::string, std::string> line;
  for (const char* q : kQuanta) {
    RunResult r = run_hetvp("run " + config("default.yaml") + " --workload boot --set simulation.quantum=" + q);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto at = r.out.find("microcontrollers:");
    ASSERT_NE(at, std::string::npos) << r.out;
    line[q] = r.out.substr(at, r.out.find('\n', at) - at);  // upload, start and init-done times
  }
  for (auto& [q, l] : line) EXPECT_EQ(l, line["10ns"]) << q;
}

// Coherence: probes, lines and ticks of every synchronisation, exactly.
TEST(Quantum, CoherenceTicksDoNotDependOnTheQuantum) {
  for (const char* w : {"square --set workload.args.n=20000", "matrix_transpose --set workload.args.width=64",
                        "2dshfl --set workload.args.width=50"})
    expect_quantum_independent("run " + config("coherence.yaml") + " --workload " + w, 9, 5, 0.0);
}

// gpu_bench (FIFO channels, copies and kernels through methods), every column of every run, for a
// kernel-bound and a copy-bound program, with one context and with four, whose channels the FIFO
// switches GR between through the HUB/GPC firmware (CHSW, MMCTX, strands), and with four under a
// 5 us time slice (the runlist then also takes GR away from a channel that still has work). The
// firmware's busy time (fw_hub_ns, fw_gpcs_ns) and the number of switches are exact, so is the switch
// time (switch_ns) but under the 5 us slice (1 ns in 175,614: the cores' per-run rounding to the
// picosecond); every other column within 0.01 % (measured: exact). Until issue #43 they moved by up
// to 9 % (fw_hub_ns 8,020 ns at 10 ns, 7,300 at 1 us): the HUB's MMCTX commands all queued before the
// unit began the first, so one "idle" interrupt stood for many (now bursts step with a working unit,
// CoreHost::steps_with_ctxsw_unit), and a GPC's answer that arrived while the HUB acknowledged the
// previous one was kept or cleared by how far the bursts ran (now a core's register access first
// catches up with the others, CoreHost::catch_up_if_observed). host_reg_ns moved by 110 % (4,132 ns at
// 10 ns vs 8,646 at 10 us, memcpy, four contexts) and host_wait_ns by 1.2 %, and the 5 us slice's
// exec_ns by 1.1 %: a posted BAR0 write (a FIFO doorbell) met the copy engine's completions on a
// saturated link and went before or after them by which of the two had called the link first (now
// both book at their own time whenever another process could book before: HostCpu's uncached
// accesses, CopyEngine's booking_window; docs/reliability.md, "Time that does not depend on the
// quantum").
TEST(Quantum, GpuBenchColumnsDoNotDependOnTheQuantum) {
  struct Case {
    const char* contexts;
    const char* slice;  // gpu0.fifo.timeslice ("": the default)
  };
  for (const Case& cs : {Case{"1", ""}, Case{"4", ""}, Case{"4", "5us"}})
    for (const char* p : {"madd", "memcpy"}) {
      std::set<std::string> exact = {"fw_hub_ns", "fw_gpcs_ns", "switches"};
      if (!*cs.slice) exact.insert("switch_ns");
      const std::string args = "run " + config("default.yaml") + " --workload gpu_bench --set workload.args.runs=2" +
                               " --set workload.args.contexts=" + cs.contexts + " --set workload.args.program=" + p +
                               " --set workload.args.size=" + (std::string(p) == "memcpy" ? "65536" : "64") +
                               (*cs.slice ? std::string(" --set gpu0.fifo.timeslice=") + cs.slice : "");
      std::vector<std::vector<std::string>> base;
      for (const char* q : kQuanta) {
        const std::string csv = scratch() + "/quantum_bench_" + q + ".csv";
        RunResult r = run_hetvp(args + " --quiet --set simulation.quantum=" + q + " --csv " + csv);
        ASSERT_EQ(r.status, 0) << args << " at " << q << ": " << r.err;
        auto rows = read_csv(csv);
        ASSERT_GE(rows.size(), 3u) << csv;  // header + two runs
        if (base.empty()) {
          base = rows;
          continue;
        }
        ASSERT_EQ(rows.size(), base.size());
        ASSERT_EQ(rows[0], base[0]);  // the same columns
        for (size_t i = 1; i < rows.size(); ++i)
          for (size_t k = 0; k < base[0].size(); ++k) {
            const std::string& col = base[0][k];
            char* end = nullptr;
            const double v = std::strtod(base[i][k].c_str(), &end);
            if (base[i][k].empty() || *end != '\0') {  // words (program, check): equal
              EXPECT_EQ(rows[i][k], base[i][k]) << col << " run " << i << " at Q=" << q;
              continue;
            }
            const double tol = exact.count(col) ? 0.0 : 1e-4;
            EXPECT_NEAR(std::stod(rows[i][k]), v, std::fabs(v) * tol)
                << col << " run " << i << " at Q=" << q << " vs 10ns (" << cs.contexts << " contexts, " << p
                << (*cs.slice ? std::string(", time slice ") + cs.slice : "") << ")";
          }
      }
    }
}

// The Falcon configs (issue #39): the firmware's busy time of every core (fw_hub_ns, fw_gpcs_ns: its
// window's cycle counter DBG_CYCLES, read around each run the same way on RV32 and Falcon), the switch
// count and time, exactly the same at every quantum, with one context and with four, for `cfg`.
// Returns "" when every run passed, else the first failed run's message (the caller decides).
namespace {
std::string expect_falcon_busy_exact(const std::string& cfg) {
  for (const char* c : {"1", "4"}) {
    const std::string args = "run " + config(cfg) + " --workload gpu_bench --set workload.args.runs=2" +
                              " --set workload.args.program=madd --set workload.args.size=64" +
                              " --set workload.args.contexts=" + c;
    std::vector<std::vector<std::string>> base;
    std::vector<size_t> cols;
    for (const char* q : kQuanta) {
      const std::string csv = scratch() + "/quantum_falcon_" + q + ".csv";
      RunResult r = run_hetvp(args + " --quiet --set simulation.quantum=" + q + " --csv " + csv);
      if (r.status != 0) return cfg + " at " + q + " (" + c + " contexts): " + r.err;
      auto rows = read_csv(csv);
      if (rows.size() < 3) return csv + ": fewer than two runs";
      if (base.empty()) {
        base = rows;
        for (const char* name : {"fw_hub_ns", "fw_gpcs_ns", "switch_ns", "switches"}) {
          size_t at = 0;
          while (at < rows[0].size() && rows[0][at] != name) ++at;
          EXPECT_LT(at, rows[0].size()) << "no column " << name;
          if (at < rows[0].size()) cols.push_back(at);
        }
        for (size_t i = 1; i < rows.size(); ++i)  // the Falcon cores' counters are read: busy > 0
          for (size_t k : cols)
            if (rows[0][k].rfind("fw_", 0) == 0)
              EXPECT_GT(std::atof(rows[i][k].c_str()), 0.0) << cfg << " " << rows[0][k] << " run " << i;
        continue;
      }
      EXPECT_EQ(rows.size(), base.size()) << cfg << " at " << q;
      // Exact, except switch_ns: a sum of switch times that are each a whole number of core cycles at
      // clocks that are not whole picoseconds, so the rounding of the sum may differ by 1 ns
      // (docs/reliability.md "PCIe bookings in the order of the requesters' time").
      for (size_t i = 1; i < rows.size() && i < base.size(); ++i)
        for (size_t k : cols) {
          if (base[0][k] == "switch_ns") {
            EXPECT_LE(std::abs(std::atof(rows[i][k].c_str()) - std::atof(base[i][k].c_str())), 1.0)
                << cfg << " switch_ns run " << i << " at Q=" << q << " vs 10ns (" << c << " contexts)";
            continue;
          }
          EXPECT_EQ(rows[i][k], base[i][k]) << cfg << " " << base[0][k] << " run " << i << " at Q=" << q << " vs 10ns ("
                                            << c << " contexts)";
        }
    }
  }
  return "";
}
}  // namespace

// nouveau's firmware on GF100's Falcon cores.
TEST(QuantumFalcon, NouveauFirmwareBusyTimeDoesNotDependOnTheQuantum) {
  const std::string failed = expect_falcon_busy_exact("gf100_nouveau.yaml");
  EXPECT_EQ(failed, "");
}

// hetvp's C firmware on the same Falcon cores (configs/gf100_own.yaml).
TEST(QuantumFalcon, OwnFirmwareOnFalconBusyTimeDoesNotDependOnTheQuantum) {
  const std::string failed = expect_falcon_busy_exact("gf100_own.yaml");
  EXPECT_EQ(failed, "");
}
