// An interrupted run ends cleanly (#42): SIGINT / SIGTERM / --wall-limit stop the simulation at a
// safe point, and the stats, the CSV and the trace hold what was done until then, the trace whole
// in each of its formats (.json, .json.gz, Perfetto's .pftrace).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <yaml-cpp/yaml.h>

#include "common/run_hetvp.h"
#include "common/trace_files.h"

using namespace hetvp::test;

namespace {

struct Child {
  pid_t pid = -1;
  std::string out, err;
};

// Starts `hetvp run ARGS` with stdout and stderr in files (not a terminal: no progress line).
Child start(const std::vector<std::string>& args, const std::string& tag) {
  Child c;
  c.out = scratch() + "/" + tag + ".out";
  c.err = scratch() + "/" + tag + ".err";
  c.pid = fork();
  if (c.pid == 0) {
    if (!freopen(c.out.c_str(), "w", stdout) || !freopen(c.err.c_str(), "w", stderr)) _exit(99);
    std::vector<std::string> all = {binary_dir() + "/hetvp", "run"};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(98);
  }
  return c;
}

// Waits until the run's header is in its stdout: the simulation has started.
bool wait_for_header(const Child& c) {
  for (int i = 0; i < 600; ++i) {
    if (read_file(c.out).find("hetvp: ") != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

int wait_status(const Child& c) {
  int ws = 0;
  waitpid(c.pid, &ws, 0);
  return WIFEXITED(ws) ? WEXITSTATUS(ws) : 1000 + WTERMSIG(ws);
}

void interrupt_and_check(int sig, int want_status, const char* name, const std::string& ext = "json") {
  const std::string s = scratch() + "/s_" + name + ext + ".json", csv = scratch() + "/c_" + name + ext + ".csv",
                    t = scratch() + "/t_" + name + "." + ext;
  Child c = start({config("default.yaml"), "--stats", s, "--csv", csv, "--trace", t, "--trace-window", "0:200us"},
                  name);
  ASSERT_TRUE(wait_for_header(c)) << read_file(c.err);
  std::this_thread::sleep_for(std::chrono::milliseconds(800));  // the main job takes seconds
  kill(c.pid, sig);
  const int status = wait_status(c);
  const std::string err = read_file(c.err);
  EXPECT_EQ(status, want_status) << err;
  EXPECT_NE(err.find(std::string("FAILED: interrupted by ") + name + " at "), std::string::npos) << err;
  EXPECT_EQ(err.find("Sanitizer"), std::string::npos) << err;
  EXPECT_EQ(err.find("runtime error"), std::string::npos) << err;
  // The stats: valid JSON (YAML reads JSON), marked interrupted, with the simulated time reached.
  YAML::Node stats = YAML::LoadFile(s);
  EXPECT_TRUE(stats["run"]["interrupted"].as<bool>());
  EXPECT_EQ(stats["run"]["status"].as<std::string>(), "fail");
  EXPECT_GT(stats["run"]["simulated_ns"].as<double>(), 0);
  EXPECT_TRUE(stats["components"]["pcie0"]);
  // The CSV: its header and the rows done (the first sizes finish within a fraction of a second).
  const std::string rows = read_file(csv);
  EXPECT_NE(rows.find("size_bytes"), std::string::npos) << rows;
  // The trace: closed, so a reader takes it whole.
  if (ext == "pftrace") {
    std::vector<std::string> packets;
    EXPECT_EQ(perfetto_packets(read_file(t), packets), "");
    EXPECT_GT(packets.size(), 10u);
    return;
  }
  bool whole = true;
  YAML::Node trace = YAML::Load(ext == "json.gz" ? gunzip(t, whole) : read_file(t));
  EXPECT_TRUE(whole) << t;
  EXPECT_TRUE(trace["traceEvents"].IsSequence());
}

}  // namespace

TEST(Interrupt, SigintEndsTheRunWithItsOutputsAndStatus130) { interrupt_and_check(SIGINT, 130, "SIGINT"); }

TEST(Interrupt, SigtermEndsTheRunWithItsOutputsAndStatus143) { interrupt_and_check(SIGTERM, 143, "SIGTERM"); }

TEST(Interrupt, SigintLeavesAWholeGzipTrace) { interrupt_and_check(SIGINT, 130, "SIGINT", "json.gz"); }

TEST(Interrupt, SigintLeavesAWholePerfettoTrace) { interrupt_and_check(SIGINT, 130, "SIGINT", "pftrace"); }

TEST(Interrupt, WallLimitEndsTheRunAsTheTimeLimitDoes) {
  const std::string s = scratch() + "/s_wall.json";
  Child c = start({config("default.yaml"), "--wall-limit", "0.5", "--stats", s}, "wall");
  const int status = wait_status(c);
  const std::string err = read_file(c.err);
  EXPECT_EQ(status, 1) << err;
  EXPECT_NE(err.find("FAILED: the workload did not finish within --wall-limit 0.5 s (wall clock); simulated time "
                     "reached "),
            std::string::npos)
      << err;
  EXPECT_FALSE(YAML::LoadFile(s)["run"]["interrupted"].as<bool>());
  // The header came first, at the start (#42: it used to appear only at the end).
  EXPECT_EQ(read_file(c.out).rfind("hetvp: ", 0), 0u) << read_file(c.out);
}
