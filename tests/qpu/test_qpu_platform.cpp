// The VideoCore IV topology through `hetvp run configs/videocore4.yaml`: the workloads' results,
// stats and traces, quantum independence, and bad QPU programs stopping the run with the QPU,
// its pc and the cause (never a hang: every run has a timeout).
#include <gtest/gtest.h>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
std::string vc4() { return config("videocore4.yaml"); }
RunResult run(const std::string& args) { return run_hetvp("run " + vc4() + " " + args, 120); }
RunResult run_prog(const std::string& name, const std::string& text, const std::string& extra = "") {
  const std::string path = write_file(name, text);
  return run("--workload qpu_run --set workload.args.program=" + path + " " + extra);
}
std::string all(const RunResult& r) { return r.out + r.err; }
}  // namespace

TEST(QpuPlatform, PeakIs24At250MHzAnd38_4At400MHz) {
  RunResult r = run("--workload qpu_peak");
  ASSERT_EQ(r.status, 0) << all(r);
  EXPECT_NE(r.out.find("12 QPUs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("= 24.0 GFLOP/s"), std::string::npos) << r.out;
  r = run("--workload qpu_peak --set v3d.gpu_freq=\"400 MHz\"");
  ASSERT_EQ(r.status, 0) << all(r);
  EXPECT_NE(r.out.find("= 38.4 GFLOP/s"), std::string::npos) << r.out;
  // Half the QPUs, half the rate: the figure comes from the simulated instruction stream.
  r = run("--workload qpu_peak --set workload.args.qpus=6");
  ASSERT_EQ(r.status, 0) << all(r);
  EXPECT_NE(r.out.find("= 12.0 GFLOP/s"), std::string::npos) << r.out;
  r = run("--workload qpu_peak --set v3d.qpus=4");  // a smaller V3D: IDENT1 says 4
  ASSERT_EQ(r.status, 0) << all(r);
  EXPECT_NE(r.out.find("4 QPUs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("= 8.0 GFLOP/s"), std::string::npos) << r.out;
}

TEST(QpuPlatform, SgemmMatchesTheHostOn1_4_12Qpus) {
  for (int q : {1, 4, 12}) {
    const std::string csv = scratch() + "/sgemm" + std::to_string(q) + ".csv";
    RunResult r = run("--workload qpu_sgemm --set workload.args.qpus=" + std::to_string(q) + " --csv " + csv);
    ASSERT_EQ(r.status, 0) << all(r);
    auto rows = read_csv(csv);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1][1], std::to_string(q));
    EXPECT_EQ(rows[1][4], "0");  // max_error: exact, as docs/qpu.md says (tolerance 0 is the default)
    EXPECT_EQ(rows[1][5], "pass");
  }
  // A size whose rows do not divide among the QPUs.
  RunResult r = run("--workload qpu_sgemm --set workload.args.qpus=5 --set workload.args.n=48");
  EXPECT_EQ(r.status, 0) << all(r);
  r = run("--workload qpu_sgemm --set workload.args.n=40");
  EXPECT_EQ(r.status, 2) << all(r);
  EXPECT_NE(all(r).find("multiple of 16"), std::string::npos) << all(r);
}

TEST(QpuPlatform, ReduceWithSemaphoresPollAndInterrupt) {
  RunResult r = run("--workload qpu_reduce");
  ASSERT_EQ(r.status, 0) << all(r);
  EXPECT_NE(r.out.find("matches"), std::string::npos) << r.out;
  const std::string stats = scratch() + "/reduce.json";
  r =
      run("--workload qpu_reduce --set workload.args.wait=interrupt --set workload.args.qpus=7 "
          "--set workload.args.n=7168 --stats " +
          stats);
  ASSERT_EQ(r.status, 0) << all(r);
  const std::string js = read_file(stats);
  EXPECT_NE(js.find("\"semaphore_ops\": 12"), std::string::npos) << js;  // 6 releases, 6 acquires
  EXPECT_NE(js.find("\"interrupts\": 7"), std::string::npos);
}

TEST(QpuPlatform, StrideHorizontalAndVertical) {
  const std::string csv = scratch() + "/stride.csv";
  RunResult r = run("--workload qpu_stride --set workload.args.dst_stride=20 --csv " + csv);
  ASSERT_EQ(r.status, 0) << all(r);
  auto rows = read_csv(csv);
  ASSERT_EQ(rows.size(), 6u);
  for (size_t i = 1; i < rows.size(); ++i) EXPECT_EQ(rows[i][7], "pass");
  r = run("--workload qpu_stride --set workload.args.mode=vertical --set workload.args.rows=5");
  ASSERT_EQ(r.status, 0) << all(r);
  r = run("--workload qpu_stride --set workload.args.src_pitch=64,30");
  EXPECT_EQ(r.status, 2) << all(r);
  EXPECT_NE(all(r).find("pitch 30 must be a multiple of 4"), std::string::npos) << all(r);
}

TEST(QpuPlatform, TraceTracksPerQpuAndStats) {
  const std::string trace = scratch() + "/qpu.trace.json", stats = scratch() + "/qpu.stats.json";
  RunResult r = run("--workload qpu_sgemm --set v3d.trace_instructions=20 --trace " + trace + " --stats " + stats);
  ASSERT_EQ(r.status, 0) << all(r);
  const std::string t = read_file(trace), s = read_file(stats);
  EXPECT_NE(t.find("v3d.qpu0"), std::string::npos);
  EXPECT_NE(t.find("v3d.qpu11"), std::string::npos);
  EXPECT_NE(t.find("VDW store 64 B"), std::string::npos);
  EXPECT_NE(t.find("or ra1, unif, unif"), std::string::npos);  // instructions, disassembled
  EXPECT_NE(s.find("\"qpu11\""), std::string::npos);
  EXPECT_NE(s.find("\"tmu_requests\""), std::string::npos);
}

TEST(QpuPlatform, QuantumChangesNoResult) {
  const std::string a = scratch() + "/qa.csv", b = scratch() + "/qb.csv";
  RunResult r = run("--workload qpu_sgemm --set simulation.quantum=\"100 ns\" --csv " + a);
  ASSERT_EQ(r.status, 0) << all(r);
  r = run("--workload qpu_sgemm --set simulation.quantum=\"20 us\" --csv " + b);
  ASSERT_EQ(r.status, 0) << all(r);
  EXPECT_EQ(read_file(a), read_file(b));
  const std::string c = scratch() + "/qc.csv", d = scratch() + "/qd.csv";
  ASSERT_EQ(run("--workload qpu_reduce --set simulation.quantum=\"100 ns\" --csv " + c).status, 0);
  ASSERT_EQ(run("--workload qpu_reduce --set simulation.quantum=\"20 us\" --csv " + d).status, 0);
  EXPECT_EQ(read_file(c), read_file(d));
}

// The article's warning about the VPM read queue of 2: a read set up before a VCD load has landed
// sees the old contents (here zeros); after vr_wait it sees the loaded data (the program's own first
// instructions, at 0x08000000). Each program checks itself and runs into a breakpoint if wrong.
TEST(QpuPlatform, VpmReadQueueSeesALoadOnlyAfterItLands) {
  const std::string head = "ldi vr_setup, 0x80011000\nldi vr_addr, 0x08000000\n";
  const std::string read = "ldi vr_setup, 0x00101a00\nmov r0, vpm\nmov.setf -, r0\n";
  const std::string tail = "nop\nnop\nnop\n.word 0\n:ok\nread vr_wait\nnop ; thrend\nnop\nnop\n";
  RunResult r = run_prog("early.qasm", head + read + "brr.allz :ok\n" + tail);  // all zero: stale
  EXPECT_EQ(r.status, 0) << all(r);
  r = run_prog("late.qasm", head + "read vr_wait\n" + read + "brr.anynz :ok\n" + tail);  // loaded
  EXPECT_EQ(r.status, 0) << all(r);
  r = run_prog("wrong.qasm", head + read + "brr.anynz :ok\n" + tail);  // the check can fail
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("software breakpoint"), std::string::npos) << all(r);
}

// 12 QPUs increment one VPM word under the mutex; QPU 0 waits for the others (semaphore 0) and
// checks that the count is 12. Without the mutex, the read-modify-writes (40 instructions long) of
// QPUs started a few clocks apart overlap and updates are lost: the same check then fails.
TEST(QpuPlatform, MutexMakesReadModifyWriteAtomic) {
  auto prog = [](bool mutex) {
    return std::string("mov ra1, unif\nnop\n") + (mutex ? "read mutex_acq\n" : "") +
           "ldi vr_setup, 0x00101a00\nmov r0, vpm\nadd r0, r0, 1\n.rep 40\nnop\n.endr\n"  // a long critical section
           "ldi vw_setup, 0x1a00\nmov vpm, r0\n" +
           (mutex ? "mov mutex_rel, 1\n" : "") +
           "mov.setf -, ra1\nbrr.allz :master\nnop\nnop\nnop\nsrel 0\nbrr :done\nnop\nnop\nnop\n"
           ":master\nldi r3, 11\n:wait\nsacq 0\nsub.setf r3, r3, 1\nbrr.anynz :wait\nnop\nnop\nnop\n"
           "ldi vr_setup, 0x00101a00\nmov r0, vpm\nsub.setf -, r0, 12\nbrr.allz :done\nnop\nnop\nnop\n.word 0\n"
           ":done\nnop ; thrend\nnop\nnop\n";
  };
  const std::string args = "--set workload.args.qpus=12 --set workload.args.index_uniform=true";
  RunResult r = run_prog("mutex.qasm", prog(true), args);
  EXPECT_EQ(r.status, 0) << all(r);
  r = run_prog("nomutex.qasm", prog(false), args);
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("v3d.qpu0"), std::string::npos) << all(r);
  EXPECT_NE(all(r).find("software breakpoint"), std::string::npos) << all(r);
}

// --- bad programs: the run stops naming the QPU, its pc and the cause ----------------------------

TEST(QpuPlatformErrors, IllegalEncoding) {
  RunResult r = run_prog("illegal.qasm", "nop\n.word 0x100009e7099e7000\nnop ; thrend\nnop\nnop\n");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("v3d.qpu0: pc 0x08000008"), std::string::npos) << all(r);
  EXPECT_NE(all(r).find("reserved add opcode"), std::string::npos) << all(r);
}

TEST(QpuPlatformErrors, RunningOffTheCode) {
  RunResult r = run_prog("runoff.qasm", "nop\nnop\n");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("v3d.qpu0: pc 0x08000010"), std::string::npos) << all(r);
  EXPECT_NE(all(r).find("run off its code"), std::string::npos) << all(r);
}

TEST(QpuPlatformErrors, VpmDmaOutsideSdram) {
  // VDW setup: 1 row of 16 words from VPM row 0; destination 0x30000000 (SDRAM is 512 MiB).
  const std::string prog = "mov vw_setup, unif\nmov vw_addr, unif\nread vw_wait\nnop ; thrend\nnop\nnop\n";
  RunResult r = run_prog("dma.qasm", prog, "--set workload.args.uniforms=0x80904000,0x30000000");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("v3d.qpu0: pc 0x08000008"), std::string::npos) << all(r);
  EXPECT_NE(all(r).find("VPM DMA store (VDW) writes 0x30000000 (64 bytes) outside SDRAM"), std::string::npos) << all(r);
  // and a load (VCD: 1 row of 16 words into VPM row 0) from beyond SDRAM
  const std::string load = "mov vr_setup, unif\nmov vr_addr, unif\nread vr_wait\nnop ; thrend\nnop\nnop\n";
  r = run_prog("dma2.qasm", load, "--set workload.args.uniforms=0x80011000,0x3ffffff0");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("VPM DMA load (VCD) reads 0x3ffffff0"), std::string::npos) << all(r);
  // Issue #26: a bus address is decoded through its cache alias first; 0xF0000000 is SDRAM
  // 0x30000000 through the 0xC (uncached) alias, still outside, and the message says both.
  r = run_prog("dma3.qasm", prog, "--set workload.args.uniforms=0x80904000,0xF0000000");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("VPM DMA store (VDW) writes bus address 0xf0000000 (64 bytes; SDRAM 0x30000000 through the "
                        "0xc alias)"),
            std::string::npos)
      << all(r);
}

TEST(QpuPlatformErrors, SemaphoreDeadlockOfAllQpus) {
  RunResult r = run_prog("deadlock.qasm", "sacq 9\nnop ; thrend\nnop\nnop\n", "--set workload.args.qpus=12");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("deadlock: every running QPU is blocked"), std::string::npos) << all(r);
  EXPECT_NE(all(r).find("qpu11 at pc 0x08000000 (sacq 9: semaphore 9 is 0)"), std::string::npos) << all(r);
}

TEST(QpuPlatformErrors, ReadAfterWriteTmuAndVpmMisuse) {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"ldi ra3, 1\nadd r0, ra3, 1\nnop ; thrend\nnop\nnop\n", "pc 0x08000008 `add r0, ra3, 1`: reads ra3 written by"},
      {"nop ; ldtmu0\nnop ; thrend\nnop\nnop\n", "ldtmu0 with no TMU0 request outstanding"},
      {".rep 9\nmov tmu0_s, r0\n.endr\nnop ; thrend\nnop\nnop\n", "TMU0 request with 8 requests outstanding"},
      {"mov r0, vpm\nnop ; thrend\nnop\nnop\n", "VPM read with no rows left"},
      {"ldi r0, 0x08000002\nmov tmu0_s, r0\nnop ; thrend\nnop\nnop\n", "not 32-bit aligned"},
      {"mov mutex_rel, 1\nnop ; thrend\nnop\nnop\n", "releases the mutex, which nobody holds"},
      {"ldi vw_setup, 0x1ac0\nmov vpm, r0\nnop ; thrend\nnop\nnop\n", "VPM write of VPM row 192"},
  };
  for (auto& c : cases) {
    RunResult r = run_prog("misuse.qasm", c.text);
    EXPECT_EQ(r.status, 1) << c.text << all(r);
    EXPECT_NE(all(r).find("v3d.qpu0: pc 0x"), std::string::npos) << all(r);
    EXPECT_NE(all(r).find(c.want), std::string::npos) << c.text << all(r);
  }
}

TEST(QpuPlatformErrors, BadConfigAndAssembly) {
  RunResult r = run("--workload qpu_peak --set v3d.qpus=17");
  EXPECT_EQ(r.status, 2) << all(r);
  EXPECT_NE(all(r).find("v3d.qpus"), std::string::npos) << all(r);
  r = run("--workload qpu_peak --set v3d.qpus=13");
  EXPECT_EQ(r.status, 2) << all(r);
  EXPECT_NE(all(r).find("13 QPUs do not fill whole slices of 4"), std::string::npos) << all(r);
  r = run("--workload qpu_peak --set v3d.qpus=6 --set v3d.qpus_per_slice=3");
  EXPECT_EQ(r.status, 0) << all(r);
  EXPECT_NE(r.out.find("6 QPUs"), std::string::npos) << r.out;
  r = run_prog("bad.qasm", "nop\nfadd r0, r1\n");
  EXPECT_EQ(r.status, 2) << all(r);  // assembled with the configuration's validation, before the run
  EXPECT_NE(all(r).find("bad.qasm:2: fadd takes a destination and two sources"), std::string::npos) << all(r);
  r = run_prog("ok.qasm", "nop ; thrend\nnop\nnop\n", "--set workload.args.uniforms=1,x");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("qpu_run: uniforms: stream 0, word 1: 'x' is not a number"), std::string::npos) << all(r);
  r = run("--workload qpu_run --set workload.args.program=/nonexistent.qasm");
  EXPECT_EQ(r.status, 2) << all(r);
  EXPECT_NE(all(r).find("workload.args.program): qpu_run: /nonexistent.qasm: cannot open file: No such file"),
            std::string::npos)
      << all(r);
  r = run_prog("empty.qasm", "\n\n");
  EXPECT_EQ(r.status, 2) << all(r);
  EXPECT_NE(all(r).find("empty.qasm holds no instructions"), std::string::npos) << all(r);
  r = run("--workload qpu_peak --set workload.args.qpus=13");
  EXPECT_EQ(r.status, 1) << all(r);
  EXPECT_NE(all(r).find("13 QPUs asked for, the V3D has 12"), std::string::npos) << all(r);
}
