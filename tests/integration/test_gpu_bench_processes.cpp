// Several applications at once (issue #41): the host CPU's scheduler (sw/host/host_processes.h)
// on its own — the order and times of its switches, the time slice, the kernel driver not
// preempted, a failing process — and gpu_bench's `processes` / `apps`: each process its own
// contexts and results, GR switches between their channels (fifo.switches_between_open_channels),
// a process that ends with its context open released and reported, bad arguments located.
// In-process runs of configs/default.yaml.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "common/in_process_run.h"
#include "common/run_hetvp.h"
#include "common/stats_json.h"
#include "common/text_match.h"
#include "common/tlm_harness.h"
#include "platform/format.h"
#include "platform/program.h"
#include "platform/simulation.h"
#include "sw/host/host_processes.h"

using namespace hetvp;
using namespace hetvp::sw;

namespace {

// ---------------------------------------------------------------- the scheduler alone
struct SchedArgs : ParamSet {
  Str which{this, "case", "order", "which case"};
};

class SchedProgram : public ProgramWithArgs<SchedArgs> {
 public:
  int run(HostApi& cpu, const SchedArgs& args) override {
    HostSchedulerOptions opt;
    HostProcesses api(cpu, opt);  // slice 3 ms, switch 2 us
    const std::string c = args.which;
    const sc_core::sc_time us(1, sc_core::SC_US);
    const sc_core::sc_time t0 = api.now();
    std::vector<double> end(2, 0);
    auto at = [&] { return (api.now() - t0).to_seconds() * 1e6; };
    unsigned exits = 0;
    std::vector<std::string> errors;
    if (c == "order") {
      // p0 computes 10 us and sleeps 5; p1 computes 3 and sleeps 20; each then computes 1 us.
      errors = api.run(
          2,
          [&](unsigned i) {
            api.spend(i == 0 ? 10 * us : 3 * us);
            api.sleep(i == 0 ? 5 * us : 20 * us);
            api.spend(us);
            end[i] = at();
          },
          [&](unsigned) { ++exits; });
    } else if (c == "slice") {
      errors = run_sliced(cpu, end, t0);
    } else if (c == "kernel") {
      // p0 sleeps 10 us inside the driver: the CPU stays with it; p1 runs after p0 ends.
      int depth = 0;
      errors = api.run(
          2,
          [&](unsigned i) {
            if (i == 0) {
              const HostProcesses::KernelSection k(&api, depth);
              api.sleep(10 * us);
            } else {
              api.spend(us);
            }
            end[i] = at();
          },
          [&](unsigned) { ++exits; });
    } else if (c == "error") {
      errors = api.run(
          2,
          [&](unsigned i) {
            api.spend(us);
            if (i == 0) throw HostError("process 0 gives up");
            end[i] = at();
          },
          [&](unsigned) { ++exits; });
    }
    api.log(format("sched: end %.3f %.3f us, switches %llu, preemptions %llu, exits %u, errors [%s] [%s]", end[0],
                   end[1], (unsigned long long)api.switches(), (unsigned long long)api.preemptions(), exits,
                   errors.size() > 0 ? errors[0].c_str() : "", errors.size() > 1 ? errors[1].c_str() : ""));
    if (c == "slice") api.log(sliced_line_);
    return 0;
  }

 private:
  // Two processes computing 10 x 1 us each with a 5 us slice.
  std::vector<std::string> run_sliced(HostApi& cpu, std::vector<double>& end, const sc_core::sc_time& t0) {
    HostProcesses api(cpu, test::config_from<HostSchedulerOptions>("slice: 5 us"));
    const sc_core::sc_time us(1, sc_core::SC_US);
    auto errors = api.run(
        2,
        [&](unsigned i) {
          for (int k = 0; k < 10; ++k) api.spend(us);
          end[i] = (api.now() - t0).to_seconds() * 1e6;
        },
        [](unsigned) {});
    sliced_line_ = format("sliced: switches %llu, preemptions %llu", (unsigned long long)api.switches(),
                          (unsigned long long)api.preemptions());
    return errors;
  }
  std::string sliced_line_;
};

}  // namespace

HETVP_REGISTER_TEST_PROGRAM("test_host_processes", SchedProgram, "test: the host CPU's process scheduler");

namespace {

using BenchRun = test::InProcessRun;
BenchRun run(const std::string& workload, std::vector<std::string> sets, const std::string& config = "default.yaml") {
  RunOptions opt;
  opt.config = test::config(config);
  opt.workload = workload;
  opt.overrides = std::move(sets);
  return test::run_in_process(opt, true);
}
using test::count;
using test::first_stat;
using test::has;

}  // namespace

// p0 runs 10 us, sleeps to 15; p1 (after a 2 us switch) runs 12..15, sleeps to 35; p0 (switch)
// 17..18 and ends; p1 (switch) sleeps out to 35 and ends at 36. Three switches, no preemption.
TEST(HostProcesses, ASleepGivesTheCpuToTheNextProcessAndEachSwitchCosts) {
  BenchRun r = run("test_host_processes", {"workload.args.case=order"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  EXPECT_TRUE(has(r.all(), "sched: end 18.000 36.000 us, switches 3, preemptions 0, exits 2, errors [] []"))
      << r.all();
}

// 10 x 1 us each, slice 5 us: p0 0..5, p1 7..12, p0 14..19 (ends), p1 21..26.
TEST(HostProcesses, AProcessIsPreemptedAtTheEndOfItsSlice) {
  BenchRun r = run("test_host_processes", {"workload.args.case=slice"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  EXPECT_TRUE(has(r.all(), "sched: end 19.000 26.000 us")) << r.all();
  EXPECT_TRUE(has(r.all(), "sliced: switches 3, preemptions 2")) << r.all();
}

// A sleep inside the kernel driver keeps the CPU: p1 starts only when p0 has ended (10 + 2 + 1).
TEST(HostProcesses, TheKernelDriverIsNotPreemptedAndItsSleepKeepsTheCpu) {
  BenchRun r = run("test_host_processes", {"workload.args.case=kernel"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  EXPECT_TRUE(has(r.all(), "sched: end 10.000 13.000 us, switches 1, preemptions 0, exits 2")) << r.all();
}

// A process's HostError ends that process only; its exit still runs; the error is returned.
TEST(HostProcesses, AFailingProcessEndsAloneAndItsErrorIsReturned) {
  BenchRun r = run("test_host_processes", {"workload.args.case=error"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  EXPECT_TRUE(has(r.all(), "exits 2, errors [process 0 gives up] []")) << r.all();
}

// ---------------------------------------------------------------- gpu_bench's processes
// Must-show 2 of issue #41 on the RV32 firmware: two madd processes, each its own results, GR
// switches between their channels.
TEST(GpuBenchProcesses, TwoMaddProcessesEachCheckTheirResultsAndGrSwitchesBetweenThem) {
  BenchRun r = run("gpu_bench", {"workload.args.program=madd", "workload.args.processes=2", "workload.args.runs=2"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  ASSERT_EQ(r.rows.size(), 4u);
  std::map<std::string, int> per_process;
  for (const auto& row : r.rows) {
    EXPECT_EQ(row.at("check"), "ok");
    ++per_process[row.at("process")];
  }
  EXPECT_EQ(per_process["0"], 2);
  EXPECT_EQ(per_process["1"], 2);
  EXPECT_TRUE(has(r.all(), "gpu_bench: 2 processes at once: all done after ")) << r.all();
  EXPECT_TRUE(has(r.all(), "every process's results correct")) << r.all();
  EXPECT_TRUE(has(r.all(), "gpu_bench process 0: madd size 64, 2 run(s)")) << r.all();
  EXPECT_TRUE(has(r.all(), "gpu_bench process 1: madd size 64, 2 run(s)")) << r.all();
  EXPECT_GE(first_stat(r.stats, "switches_between_open_channels"), 2) << r.stats;
  EXPECT_GT(first_stat(r.stats, "host_process_switches"), 0) << r.stats;
  EXPECT_EQ(first_stat(r.stats, "processes"), 2);
  EXPECT_GT(first_stat(r.stats, "process1_median_run_ns"), 0);
  // One process alone: no switches between open channels.
  BenchRun one = run("gpu_bench", {"workload.args.program=madd", "workload.args.runs=2"});
  ASSERT_EQ(one.status, kExitOk) << one.all();
  EXPECT_EQ(first_stat(one.stats, "switches_between_open_channels"), 0) << one.stats;
  EXPECT_EQ(one.rows.at(0).count("process"), 0u) << "one application: the CSV is as before";
}

// Must-show 2 on the Falcon cores: nouveau's firmware (gf100_nouveau.yaml) and hetvp's own C firmware
// (gf100_own.yaml) switch GR between the two processes' channels.
TEST(GpuBenchProcesses, TwoMaddProcessesOnBothFalconFirmwares) {
  for (const char* config : {"gf100_nouveau.yaml", "gf100_own.yaml"}) {
    SCOPED_TRACE(config);
    BenchRun r = run("gpu_bench", {"workload.args.program=madd", "workload.args.processes=2"}, config);
    if (r.status != kExitOk && has(r.err, "nouveau")) GTEST_SKIP() << "nouveau's firmware: " << r.err;
    ASSERT_EQ(r.status, kExitOk) << r.all();
    ASSERT_EQ(r.rows.size(), 2u);
    for (const auto& row : r.rows) EXPECT_EQ(row.at("check"), "ok");
    EXPECT_TRUE(has(r.all(), "every process's results correct")) << r.all();
    EXPECT_GE(first_stat(r.stats, "switches_between_open_channels"), 2) << r.stats;
    EXPECT_EQ(count(r.all(), "FAILED"), 0u) << r.all();
  }
}

// Different programs side by side (`apps`): each runs its own program and checks it.
TEST(GpuBenchProcesses, DifferentApplicationsRunSideBySide) {
  BenchRun r = run("gpu_bench", {"workload.args.apps=[{program: madd}, {program: memcpy, size: 65536, runs: 2}, "
                            "{program: loop, host_memory: pageable}]"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  ASSERT_EQ(r.rows.size(), 4u);
  std::map<std::string, std::string> program_of;
  for (const auto& row : r.rows) {
    EXPECT_EQ(row.at("check"), "ok");
    program_of[row.at("process")] = row.at("program");
  }
  EXPECT_EQ(program_of["0"], "madd");
  EXPECT_EQ(program_of["1"], "memcpy");
  EXPECT_EQ(program_of["2"], "loop");
  EXPECT_TRUE(has(r.all(), "gpu_bench: 3 processes at once")) << r.all();
}

// Preemption at the end of a time slice (1 ns: at every call outside the driver while the other
// is ready) changes nothing of the results.
TEST(GpuBenchProcesses, AShortTimeSlicePreemptsAndResultsStayRight) {
  BenchRun r = run("gpu_bench", {"workload.args.program=madd", "workload.args.processes=2", "workload.args.host.slice=1ns",
                            "workload.args.host_memory=pageable"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  EXPECT_GT(first_stat(r.stats, "host_preemptions"), 0) << r.stats;
  EXPECT_TRUE(has(r.all(), "every process's results correct")) << r.all();
}

// The same run twice: the same rows (the scheduler is deterministic).
TEST(GpuBenchProcesses, RunsAreDeterministic) {
  const std::vector<std::string> sets = {"workload.args.program=loop", "workload.args.processes=3"};
  BenchRun a = run("gpu_bench", sets), b = run("gpu_bench", sets);
  ASSERT_EQ(a.status, kExitOk) << a.all();
  EXPECT_EQ(a.rows, b.rows);
}

// A process that ends with its context open: the driver destroys it (its buffers and module
// released), says so, and the run passes.
TEST(GpuBenchProcesses, AProcessEndingWithItsContextOpenIsReleasedAndReported) {
  BenchRun r = run("gpu_bench", {"workload.args.program=madd", "workload.args.processes=2", "workload.args.runs=2",
                            "workload.args.test_exit_with_context_open=true"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  EXPECT_TRUE(has(r.all(), "gdev: process 1 exited with its context on channel ")) << r.all();
  EXPECT_TRUE(has(r.all(), "still open: the driver destroys it")) << r.all();
  EXPECT_TRUE(has(r.all(), "released 4 buffer(s) of ")) << r.all();  // a, b, c and the module image
  EXPECT_EQ(count(r.all(), "exited with its context"), 1u) << r.all();
  EXPECT_EQ(first_stat(r.stats, "gdev_contexts_released_at_exit"), 1) << r.stats;
  EXPECT_EQ(count(r.all(), "FAILED"), 0u) << r.all();
}

// A wrong result fails the run naming the process, the run and the element: two contexts per
// process with the switch unit not restoring ARG2 (test_fifo.cpp's isolation fault); `spin` keeps
// each process's KernConf and Exec together, as in one program, so GR leaves context 0 between its
// parameters and its launch.
TEST(GpuBenchProcesses, AWrongResultNamesItsProcess) {
  BenchRun r = run("gpu_bench", {"workload.args.program=loop", "workload.args.processes=2", "workload.args.contexts=2",
                                 "workload.args.host.gpu_wait=spin", "gpu0.gr.test_skip_restore=ARG2"});
  EXPECT_EQ(r.status, kExitSimFailure);
  EXPECT_TRUE(has(r.err, "gpu_bench: 2 failure(s) in 2 processes; first: process 0: run 0: context 0: loop element 0 "
                         "is 0x41, expected 0x40"))
      << r.err;
  EXPECT_EQ(count(r.err, "FAILED"), 1u) << r.err;
}

// Bad arguments: located, before the run.
TEST(GpuBenchProcesses, ProcessesAndAppsTogetherIsAnError) {
  BenchRun r = run("gpu_bench", {"workload.args.processes=2", "workload.args.apps=[{program: madd}]"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_TRUE(has(r.err, "workload.args.processes")) << r.err;
  EXPECT_TRUE(has(r.err, "give either processes (copies of one application) or apps (a list), not both")) << r.err;
}
TEST(GpuBenchProcesses, MoreContextsThanChannelsIsAnError) {
  BenchRun r = run("gpu_bench", {"workload.args.processes=40", "workload.args.contexts=2"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_TRUE(has(r.err, "80 contexts at once, more than the FIFO's 64 channels")) << r.err;
}
TEST(GpuBenchProcesses, AnAppsEntryIsCheckedAsTheApplicationIs) {
  BenchRun r = run("gpu_bench", {"workload.args.apps=[{program: madd}, {program: mmul, size: 1000}]"});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_TRUE(has(r.err, "mmul of a 1000 x 1000 matrix is too large")) << r.err;
}

// gpu_wait=spin: a process waiting for its fence keeps the CPU (Gdev's gdev_poll), so the other
// runs only between its waits: fewer CPU switches than with yield, the same results.
TEST(GpuBenchProcesses, SpinningGpuWaitsKeepTheCpu) {
  const std::vector<std::string> base = {"workload.args.program=madd", "workload.args.processes=2"};
  std::vector<std::string> spin = base;
  spin.push_back("workload.args.host.gpu_wait=spin");
  BenchRun y = run("gpu_bench", base), s = run("gpu_bench", spin);
  ASSERT_EQ(y.status, kExitOk) << y.all();
  ASSERT_EQ(s.status, kExitOk) << s.all();
  EXPECT_TRUE(has(s.all(), "every process's results correct")) << s.all();
  EXPECT_LT(first_stat(s.stats, "host_process_switches"), first_stat(y.stats, "host_process_switches") / 4) << s.stats;
  EXPECT_GT(first_stat(s.stats, "host_process_switches"), 0) << s.stats;
}

// ---------------------------------------------------------------- the kernel driver's costs
// kernel.ioctl: once per runtime call (madd's run: cuCtxCreate, cuModuleLoad, 3 cuMemAlloc, 3
// host mappings, 2 cuMemcpyHtoD, the parameters, cuLaunchGrid, cuCtxSynchronize, cuMemcpyDtoH,
// 3 cuMemFree, cuModuleUnload, cuCtxDestroy: 19), all in host_cpu_ns, exactly. kernel.pin_page:
// per page the driver pins (memcpy pageable: two 256 KiB bounce buffers and their fence page:
// 129 pages). Both 0 by default: the CSV is as without them.
TEST(KernelCosts, AnIoctlPerRuntimeCallAndAPinPerPage) {
  auto cpu_ns = [](const BenchRun& r, size_t run) { return std::stod(r.rows.at(run).at("host_cpu_ns")); };
  const std::vector<std::string> madd = {"workload.args.program=madd", "workload.args.runs=2"};
  std::vector<std::string> with = madd;
  with.push_back("workload.args.kernel.ioctl=1us");
  BenchRun a = run("gpu_bench", madd), b = run("gpu_bench", with);
  ASSERT_EQ(a.status, kExitOk) << a.all();
  ASSERT_EQ(b.status, kExitOk) << b.all();
  EXPECT_EQ(cpu_ns(b, 1) - cpu_ns(a, 1), 19000);
  const std::vector<std::string> copy = {"workload.args.program=memcpy", "workload.args.size=65536",
                                         "workload.args.host_memory=pageable"};
  std::vector<std::string> pinned = copy;
  pinned.push_back("workload.args.kernel.pin_page=1us");
  BenchRun c = run("gpu_bench", copy), d = run("gpu_bench", pinned);
  ASSERT_EQ(c.status, kExitOk) << c.all();
  ASSERT_EQ(d.status, kExitOk) << d.all();
  EXPECT_EQ(cpu_ns(d, 0) - cpu_ns(c, 0), 129000);
  EXPECT_EQ(std::stod(d.rows[0].at("init_ns")) - std::stod(c.rows[0].at("init_ns")), 129000)
      << "the bounce buffers are pinned in Init (cuCtxCreate), as Gdev's gopen allocates them";
}

// together=true: every process's run r starts after every process has finished run r - 1 (a
// barrier), so the rounds do not overlap.
TEST(GpuBenchProcesses, TogetherStartsEveryRoundAfterThePreviousOneEnded) {
  BenchRun r = run("gpu_bench", {"workload.args.program=madd", "workload.args.processes=2", "workload.args.runs=3",
                                 "workload.args.together=true"});
  ASSERT_EQ(r.status, kExitOk) << r.all();
  ASSERT_EQ(r.rows.size(), 6u);
  std::map<int, double> start, end;  // per run: the earliest start, the latest end
  for (const auto& row : r.rows) {
    const int run = std::stoi(row.at("run"));
    const double s = std::stod(row.at("start_ns")), e = s + std::stod(row.at("total_ns"));
    start[run] = start.count(run) ? std::min(start[run], s) : s;
    end[run] = std::max(end[run], e);
  }
  EXPECT_GE(start[1], end[0]);
  EXPECT_GE(start[2], end[1]);
  EXPECT_TRUE(has(r.all(), "every process's results correct")) << r.all();
}

// A process's channel closes while GR still holds its context; with nouveau's firmware the next
// switch saves that context through the closed channel's VM, so its address space is released
// only with its VRAM, after a later channel closed (sw/driver/channel.h, Fifo::close): before,
// another process's new space had recycled its page tables and the save faulted (25 MMU warnings).
TEST(GpuBenchProcesses, AClosedChannelsContextIsSavedThroughItsOwnSpace) {
  BenchRun r = run("gpu_bench",
                   {"workload.args.apps=[{program: fmadd, runs: 2, host_memory: pageable}, {program: idle, size: 1000}]"},
                   "gf100_nouveau.yaml");
  if (r.status != kExitOk && has(r.err, "nouveau")) GTEST_SKIP() << "nouveau's firmware: " << r.err;
  ASSERT_EQ(r.status, kExitOk) << r.all();
  EXPECT_EQ(count(r.all(), "warning: gpu0.mmu"), 0u) << r.all();
  EXPECT_TRUE(has(r.all(), "every process's results correct")) << r.all();
}
