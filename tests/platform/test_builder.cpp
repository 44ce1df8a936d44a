// The builder: connections, address maps, unconnected ports. Errors happen before sc_start.
#include <gtest/gtest.h>

#include "platform/builder.h"
#include "platform/config.h"

using namespace hetvp;

namespace {
std::string build_error(const std::string& yaml) {
  try {
    Config c = Config::load_string(yaml, "b.yaml");
    RunContext run;
    Builder b(c, run);
    b.build();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
const char* kHead = "workload: {name: boot}\ncpu:\n  type: host_cpu\n  connect: {mem: bus}\n";
}  // namespace

TEST(Builder, OverlappingRangesNameBothEntries) {
  std::string e = build_error(std::string(kHead) +
                              "bus:\n  type: router\n  map:\n    - {to: a, base: 0x0, size: 1 MiB}\n"
                              "    - {to: b, base: 0x80000, size: 1 MiB}\n"
                              "a: {type: memory, size: 1 MiB}\nb: {type: memory, size: 1 MiB}\n");
  EXPECT_NE(e.find("overlaps"), std::string::npos) << e;
  EXPECT_NE(e.find("-> a"), std::string::npos) << e;
  EXPECT_NE(e.find("-> b"), std::string::npos) << e;
  EXPECT_NE(e.find("b.yaml:8:"), std::string::npos) << e;
}

TEST(Builder, UnknownTargetInstance) {
  std::string e =
      build_error(std::string(kHead) + "bus:\n  type: router\n  map:\n    - {to: rma, base: 0, size: 1 MiB}\n" +
                  "ram: {type: memory, size: 1 MiB}\n");
  EXPECT_NE(e.find("no instance named 'rma'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'ram'"), std::string::npos) << e;
}

TEST(Builder, UnknownPortListsTheRealOnes) {
  std::string e =
      build_error(std::string("workload: {name: boot}\ncpu:\n  type: host_cpu\n  connect: {memory: ram}\n") +
                  "ram: {type: memory, size: 1 MiB}\n");
  EXPECT_NE(e.find("has no output port 'memory'"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'mem'"), std::string::npos) << e;
}

TEST(Builder, RequiredPortLeftOpen) {
  std::string e = build_error("workload: {name: boot}\ncpu:\n  type: host_cpu\n");
  EXPECT_NE(e.find("required port 'mem' is not connected"), std::string::npos) << e;
  EXPECT_NE(e.find("b.yaml:2:1: cpu: "), std::string::npos) << e;  // the instance, by file:line:col
}

TEST(Builder, TargetNobodyReaches) {
  std::string e =
      build_error(std::string(kHead) + "bus:\n  type: router\n  map:\n    - {to: ram, base: 0, size: 1 MiB}\n" +
                  "ram: {type: memory, size: 1 MiB}\nlonely: {type: memory, size: 1 MiB}\n");
  EXPECT_NE(e.find("lonely: target port 'in' is not connected"), std::string::npos) << e;
  EXPECT_NE(e.find("b.yaml:10:1: lonely: "), std::string::npos) << e;
}

TEST(Builder, OpenPortOfAnArrayElementNamesTheArray) {
  std::string e =
      build_error(std::string(kHead) + "bus:\n  type: router\n  map:\n    - {to: ram, base: 0, size: 1 MiB}\n" +
                  "ram: {type: memory, size: 1 MiB}\nspare:\n  type: memory\n  size: 1 MiB\n  count: 2\n");
  EXPECT_NE(e.find("b.yaml:10:1: spare_0: target port 'in' is not connected"), std::string::npos) << e;
}

TEST(Builder, ArraysAndRepeatedMapEntries) {
  Config c = Config::load_string(
      std::string(kHead) +
          "bus:\n  type: router\n  map:\n    - {to: 'bank_{i}', base: 0, size: 1 MiB, repeat: 3, stride: 1 MiB}\n"
          "bank: {type: memory, size: 1 MiB, count: 3}\n",
      "b.yaml");
  RunContext run;
  Builder b(c, run);
  b.build();
  EXPECT_NE(b.find("bank_0"), nullptr);
  EXPECT_NE(b.find("bank_2"), nullptr);
  EXPECT_EQ(b.find("bank_3"), nullptr);
}
