// A configuration cannot crash or hang the loader (issue #13): recursive aliases, alias bombs,
// deep nesting, huge files and empty documents are refused with file:line:col, quickly.
// Each load runs in a forked child with a time limit, so that a loader that overflows its stack
// or walks 8^9 nodes fails the test instead of killing or stalling the test program.
#include <gtest/gtest.h>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "common/child_exit.h"
#include "common/text_match.h"
#include "platform/builder.h"
#include "platform/config.h"

using namespace hetvp;

namespace {

// The same small valid platform as test_config.cpp.
const char* kValid = R"(simulation:
  seed: 7
workload:
  name: boot
cpu:
  type: host_cpu
  connect: {mem: bus}
bus:
  type: router
  map:
    - {to: ram, base: 0x0, size: 64 MiB}
ram:
  type: memory
  size: 64 MiB
)";

struct Outcome {
  std::string error;     // the ConfigError's text, "" when the configuration was accepted
  std::string abnormal;  // "killed by signal N", "timed out", ... when the child did not answer
  double seconds = 0;
};

// Loads (file or text), applies overrides, validates and builds in a child process.
Outcome load_in_child(const std::string& text, const std::vector<std::string>& overrides = {}, bool from_file = false,
                      int timeout_s = 10) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string msg = "OK";
    try {
      Config c;
      if (from_file) {
        const std::string path = "/tmp/hetvp-limits-" + std::to_string(getpid()) + ".yaml";
        std::ofstream(path, std::ios::binary) << text;
        try {
          c = Config::load_file(path);
        } catch (...) {
          std::remove(path.c_str());
          throw;
        }
        std::remove(path.c_str());
      } else {
        c = Config::load_string(text, "test.yaml");
      }
      for (auto& o : overrides) c.apply_override(o);
      RunContext run;
      Builder b(c, run);
      b.build();
    } catch (const ConfigError& e) {
      msg = std::string("E") + e.what();
    } catch (const std::exception& e) {
      msg = std::string("X") + e.what();
    }
    // Every object of the load is gone: a leak ends the child (no answer) before it answers.
    test::exit_child(write(fds[1], msg.data(), msg.size()) < 0 ? 3 : 0);
  }
  close(fds[1]);
  Outcome o;
  std::string got;
  pollfd p{fds[0], POLLIN, 0};
  for (;;) {
    const double left = timeout_s - std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (left <= 0) {
      kill(pid, SIGKILL);
      o.abnormal = "timed out after " + std::to_string(timeout_s) + " s";
      break;
    }
    if (poll(&p, 1, int(left * 1000) + 1) <= 0) continue;
    char buf[4096];
    ssize_t n = read(fds[0], buf, sizeof buf);
    if (n <= 0) break;
    got.append(buf, size_t(n));
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (o.abnormal.empty()) {
    if (WIFSIGNALED(status))
      o.abnormal = "killed by signal " + std::to_string(WTERMSIG(status));
    else if (got.empty() || WEXITSTATUS(status) != 0)
      o.abnormal = "exited with status " + std::to_string(WEXITSTATUS(status)) + (got.empty() ? " and no answer" : "");
    else if (got[0] == 'X')
      o.abnormal = "a non-configuration exception: " + got.substr(1);
    else if (got[0] == 'E')
      o.error = got.substr(1);
  }
  return o;
}

using hetvp::test::has;

// 9 levels of 8 aliases: 8^9 (134 million) leaves to any walk of the node tree.
std::string billion_laughs(int levels = 9, int fanout = 8) {
  std::string s = "bomb0: &b0 [";
  for (int k = 0; k < fanout; ++k) s += k ? ", lol" : "lol";
  s += "]\n";
  for (int i = 1; i < levels; ++i) {
    s += "bomb" + std::to_string(i) + ": &b" + std::to_string(i) + " [";
    for (int k = 0; k < fanout; ++k) s += (k ? ", *b" : "*b") + std::to_string(i - 1);
    s += "]\n";
  }
  return s;
}

}  // namespace

TEST(ConfigLimits, ValidConfigStillLoadsAndBuilds) {
  Outcome o = load_in_child(kValid);
  EXPECT_EQ(o.abnormal, "");
  EXPECT_EQ(o.error, "");
}

TEST(ConfigLimits, PlainAliasesAreStillAccepted) {
  // An anchor used a few times is ordinary YAML: a shared size.
  std::string y = kValid;
  y.replace(y.find("size: 64 MiB}"), 13, "size: &ramsize 64 MiB}");
  y.replace(y.rfind("size: 64 MiB"), 12, "size: *ramsize");
  Outcome o = load_in_child(y);
  EXPECT_EQ(o.abnormal, "");
  EXPECT_EQ(o.error, "") << y;
}

TEST(ConfigLimits, SelfReferentialAliasIsRefusedAtTheAlias) {
  // line 15: the alias `*a` is at column 17, its anchor at column 13
  Outcome o = load_in_child(std::string(kValid) + "tag_cycles: &a [*a]\n");
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "test.yaml:15:17: ")) << o.error;
  EXPECT_TRUE(has(o.error, "recursive alias")) << o.error;
  EXPECT_TRUE(has(o.error, "'&a' at 15:13")) << o.error;
}

TEST(ConfigLimits, AliasInsideItsOwnMapIsRefused) {
  Outcome o = load_in_child(std::string(kValid) + "loop:\n  type: memory\n  doc: &m {again: *m}\n");
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "test.yaml:17:19: ")) << o.error;
  EXPECT_TRUE(has(o.error, "recursive alias")) << o.error;
}

TEST(ConfigLimits, BillionLaughsIsRefusedQuicklyAtTheAlias) {
  Outcome o = load_in_child(std::string(kValid) + billion_laughs());
  ASSERT_EQ(o.abnormal, "");
  EXPECT_LT(o.seconds, 2.0);
  // bomb0..bomb4 expand to 42797 nodes, bomb4 alone to 37449: the second alias of bomb5
  // (line 20, column 18) passes the limit of 100000.
  EXPECT_TRUE(has(o.error, "test.yaml:20:18: alias '*b4' (anchor at 19:8) expands to 37449 nodes")) << o.error;
  EXPECT_TRUE(has(o.error, "more than 100000")) << o.error;
}

TEST(ConfigLimits, AliasBombInsideAnInstanceIsRefused) {
  // The bomb hidden in a free-text value of an instance, all in one flow line.
  std::string bomb = "[&x0 [a, a, a, a, a, a, a, a, a, a]";
  for (int i = 1; i < 7; ++i) {
    bomb += ", &x" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) bomb += (k ? ", *x" : "*x") + std::to_string(i - 1);
    bomb += "]";
  }
  bomb += "]";
  std::string y = kValid;
  y.replace(y.find("  type: memory\n"), 15, "  type: memory\n  doc: " + bomb + "\n");
  Outcome o = load_in_child(y);
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "test.yaml:14:")) << o.error;
  EXPECT_TRUE(has(o.error, "alias '*x")) << o.error;
}

TEST(ConfigLimits, AliasThatExpandsTooDeepIsRefused) {
  // Each anchor nests the previous one a level deeper: 70 levels after expansion, 2 in the text.
  std::string y = kValid;
  y += "d0: &d0 [x]\n";
  for (int i = 1; i < 70; ++i)
    y += "d" + std::to_string(i) + ": &d" + std::to_string(i) + " [*d" + std::to_string(i - 1) + "]\n";
  Outcome o = load_in_child(y);
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "expands to maps and lists nested deeper than 64 levels")) << o.error;
  EXPECT_TRUE(has(o.error, "test.yaml:78:12: alias '*d62'")) << o.error;  // d63: [*d62] would be 65 levels deep
}

TEST(ConfigLimits, DeepNestingIsRefused) {
  std::string y = std::string(kValid) + "deep: " + std::string(5000, '[') + std::string(5000, ']') + "\n";
  Outcome o = load_in_child(y);
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "test.yaml:15:70: maps and lists nested deeper than 64 levels")) << o.error;
}

TEST(ConfigLimits, TooManyNodesAreRefused) {
  std::string list = "many: [0";
  for (int i = 1; i < 120000; ++i) list += ",0";
  Outcome o = load_in_child(std::string(kValid) + list + "]\n");
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "test.yaml:15:")) << o.error;
  EXPECT_TRUE(has(o.error, "more than 100000 nodes")) << o.error;
}

TEST(ConfigLimits, HugeFileIsRefusedWithoutReadingItAll) {
  std::string y = std::string(kValid) + "# " + std::string(2 << 20, 'x') + "\n";
  Outcome o = load_in_child(y, {}, true);
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, ".yaml:1:1: the file is larger than 1024 KiB")) << o.error;
}

TEST(ConfigLimits, OverrideValueIsGuardedToo) {
  Outcome o = load_in_child(kValid, {"ram.doc=&q [1, *q]"});
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "test.yaml (--set ram.doc): ")) << o.error;
  EXPECT_TRUE(has(o.error, "recursive alias")) << o.error;
}

TEST(ConfigLimits, EmptyFileIsRefusedWithALocation) {
  for (const char* text : {"", "\n\n", "# nothing but a comment\n"}) {
    Outcome o = load_in_child(text, {}, true);
    ASSERT_EQ(o.abnormal, "");
    EXPECT_TRUE(has(o.error, ".yaml:1:1: the configuration is empty")) << o.error;
  }
}

TEST(ConfigLimits, EmptyDocumentIsRefusedWithALocation) {
  Outcome o = load_in_child("# a document marker and nothing in it\n---\n");
  ASSERT_EQ(o.abnormal, "");
  EXPECT_TRUE(has(o.error, "test.yaml:3:1: the configuration is empty")) << o.error;
}
