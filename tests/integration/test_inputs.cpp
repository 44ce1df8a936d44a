// Every file a user names is read through one bounded reader (platform/file_input.h): regular
// files only, a size limit per kind. A device (/dev/zero), a directory or a FIFO exits with status
// 2 within a second, the file named, before anything is simulated. And `hetvp check` refuses what
// `hetvp run` would fail on: an address map larger than its memory, a clock above the time
// resolution, a quantum below its bound, an empty arena.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sys/stat.h>

#include "common/run_hetvp.h"
#include "common/text_match.h"

using namespace hetvp::test;

namespace {

using hetvp::test::has;

// A FIFO nobody writes: opening it for reading would block forever.
std::string fifo() {
  const std::string p = scratch() + "/fifo";
  mkfifo(p.c_str(), 0600);
  return p;
}

struct Timed {
  RunResult r;
  double seconds;
};
Timed timed(const std::string& args) {
  const auto t0 = std::chrono::steady_clock::now();
  RunResult r = run_hetvp(args, 10);  // killed after 10 s: status 124
  return {r, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
}

// Exit status 2 within a second (a generous bound: a refused input reads nothing), naming `file`.
void expect_refused(const std::string& args, const std::string& file, const std::string& why) {
  Timed t = timed(args);
  EXPECT_EQ(t.r.status, 2) << args << "\n" << t.r.err;
  EXPECT_LT(t.seconds, 1.0) << args;
  EXPECT_TRUE(has(t.r.err, file + ": " + why)) << args << "\n" << t.r.err;
}

std::string default_run() { return "run " + config("default.yaml"); }

}  // namespace

TEST(FileInputs, IssRefusesDevicesDirectoriesAndFifos) {
  expect_refused("iss /dev/zero", "/dev/zero", "is a character device, not a regular file (an ELF executable expected)");
  expect_refused("iss " + scratch(), scratch(), "is a directory, not a regular file");
  expect_refused("iss " + fifo(), scratch() + "/fifo", "is a FIFO, not a regular file");
  expect_refused("iss /nonexistent.elf", "/nonexistent.elf", "cannot open file: No such file or directory");
}

TEST(FileInputs, FirmwareImagesAreCheckedBeforeTheRun) {
  expect_refused(default_run() + " --workload mcu_boot --set workload.args.hub_firmware=/dev/zero", "/dev/zero",
                 "is a character device");
  Timed t = timed(default_run() + " --workload mcu_boot --set workload.args.gpc_firmware=" + scratch());
  EXPECT_EQ(t.r.status, 2) << t.r.err;
  EXPECT_TRUE(has(t.r.err, "(--set workload.args.gpc_firmware): " + scratch() + ": is a directory")) << t.r.err;
  // The transfer workload's images (its `mcu` group) too.
  expect_refused(default_run() + " --set workload.args.mcu.hub_firmware=" + fifo(), scratch() + "/fifo", "is a FIFO");
}

// A wrong firmware_dir is refused like a wrong hub_firmware (exit 2, before the run; issue #42 item 9):
// a folder that does not exist, a file that is not a folder, a folder without gpc.elf.
TEST(FileInputs, FirmwareFolderIsCheckedBeforeTheRun) {
  Timed t = timed(default_run() + " --set workload.args.mcu.firmware_dir=/nonexistent-fw");
  EXPECT_EQ(t.r.status, 2) << t.r.err;
  EXPECT_LT(t.seconds, 1.0);
  EXPECT_TRUE(has(t.r.err, "(--set workload.args.mcu.firmware_dir): '/nonexistent-fw' does not exist (the folder of "
                           "the microcontroller images)"))
      << t.r.err;
  const std::string file = write_file("not_a_folder", "x");
  t = timed(default_run() + " --workload mcu_boot --set workload.args.firmware_dir=" + file);
  EXPECT_EQ(t.r.status, 2) << t.r.err;
  EXPECT_TRUE(has(t.r.err, "'" + file + "' is not a folder")) << t.r.err;
  // An existing folder without the GPC image: the image it implies is named.
  t = timed(default_run() + " --workload mcu_boot --set workload.args.firmware_dir=" + scratch());
  EXPECT_EQ(t.r.status, 2) << t.r.err;
  EXPECT_TRUE(has(t.r.err, scratch() + "/gpc.elf: cannot open file: No such file or directory")) << t.r.err;
  EXPECT_FALSE(has(t.r.err, "Sanitizer")) << t.r.err;
}

TEST(FileInputs, DebugScriptsAreCheckedBeforeTheRun) {
  expect_refused("debug " + config("default.yaml") + " --script /dev/zero", "/dev/zero", "is a character device");
  expect_refused("debug " + config("default.yaml") + " --script " + scratch(), scratch(), "is a directory");
  expect_refused("debug " + config("default.yaml") + " --script " + fifo(), scratch() + "/fifo", "is a FIFO");
  // Over the limit: 1 MiB + 1 byte of comments.
  const std::string big = write_file("big.dbg", std::string((1 << 20) + 1, '#'));
  expect_refused("debug " + config("default.yaml") + " --script " + big, big,
                 "is 1048577 bytes, more than the 1 MiB limit (a debug script expected)");
}

TEST(FileInputs, QpuProgramsAreCheckedBeforeTheRun) {
  const std::string run = "run " + config("videocore4.yaml") + " --workload qpu_run --set workload.args.program=";
  expect_refused(run + "/dev/zero", "/dev/zero", "is a character device");
  expect_refused(run + scratch(), scratch(), "is a directory");
  expect_refused(run + fifo(), scratch() + "/fifo", "is a FIFO");
  const std::string empty = write_file("empty.qasm", "");  // not "ran off its code" at run time
  Timed t = timed(run + empty);
  EXPECT_EQ(t.r.status, 2) << t.r.err;
  EXPECT_TRUE(has(t.r.err, "(--set workload.args.program): qpu_run: " + empty + " holds no instructions")) << t.r.err;
}

TEST(FileInputs, SweepSpecsAndPluginsRefuseFifosAndDirectories) {
  expect_refused("sweep " + fifo() + " --out " + scratch() + "/sw", scratch() + "/fifo", "is a FIFO");
  expect_refused("check " + config("default.yaml") + " --plugin " + scratch(), scratch(), "is a directory");
}

// ---- hetvp check runs what hetvp run validates ---------------------------------------------------
// The line of default.yaml that maps host_mem into host_bus (found, so comments may move it).
std::string host_mem_map_line() {
  std::ifstream in(config("default.yaml"));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find("{to: host_mem,") != std::string::npos) return "default.yaml:" + std::to_string(n) + ":";
  ADD_FAILURE() << "default.yaml has no host_mem map entry";
  return "?";
}

TEST(CheckValidates, MapLargerThanItsMemory) {
  const std::string where = host_mem_map_line();
  for (const char* cmd : {"check ", "run "}) {
    RunResult r = run_hetvp(std::string(cmd) + config("default.yaml") + " --set host_mem.size=12");
    EXPECT_EQ(r.status, 2) << cmd << r.err;
    EXPECT_TRUE(has(r.err, where)) << where << "\n" << r.err;  // the map entry's location
    EXPECT_TRUE(has(r.err, "host_bus: range [0x0, 0x40000000) reaches offset 0x40000000, but host_mem has only 12 "
                           "bytes (its size)"))
        << r.err;
  }
}

TEST(CheckValidates, ClockAboveTheTimeResolution) {
  RunResult r = run_hetvp("check " + config("default.yaml") + " --set gpu0.microcontrollers.gpc.clock=1e30GHz");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "frequency '1e30GHz' is too high: its period is below the 1 ps time resolution (at most "
                         "1000 GHz)"))
      << r.err;
}

TEST(CheckValidates, QuantumHasALowerBound) {
  RunResult r = run_hetvp("check " + config("default.yaml") + " --set simulation.quantum=0s");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "simulation.quantum: value 0s is out of range [1e-09, inf]")) << r.err;
  EXPECT_EQ(run_hetvp("check " + config("default.yaml") + " --set 'simulation.quantum=1 ns'").status, 0);
}

TEST(CheckValidates, CoherenceArenaOfZero) {
  RunResult r = run_hetvp("check " + config("coherence.yaml") + " --set workload.args.rt.arena=0");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_TRUE(has(r.err, "workload.args.rt.arena: value 0 is out of range [4096, inf]")) << r.err;
}
