// The debug tool's script language without hardware (sw/mcu/debug_script.*): regression tests for
// what tests/fuzz/fuzz_debug_script.cpp found.
#include <gtest/gtest.h>

#include "sw/mcu/debug_script.h"
#include "sw/driver/mcu_driver.h"

using namespace hetvp::sw;

TEST(DebugScript, SplitsScriptThenCommandsAndStripsComments) {
  auto lines = debug_script_lines("boot\nread hub 0x800 # status\n", "state hub;expect 1");
  ASSERT_EQ(lines.size(), 4u);
  DebugLine l = parse_debug_line(lines[1], 2);
  EXPECT_EQ(l.words, (std::vector<std::string>{"read", "hub", "0x800"}));
  EXPECT_EQ(l.where(), "debug:2: ");
}

// Found by fuzzing: a bare "echo" (nothing after it) threw std::out_of_range from substr, which the
// debug program's per-line handler does not catch: the run ended without naming the line.
TEST(DebugScript, BareEchoHasEmptyText) {
  EXPECT_EQ(debug_echo_text(parse_debug_line("echo", 1)), "");
  EXPECT_EQ(debug_echo_text(parse_debug_line("  echo", 1)), "");
  EXPECT_EQ(debug_echo_text(parse_debug_line("echo # comment", 1)), "");
  EXPECT_EQ(debug_echo_text(parse_debug_line("echo hello world", 1)), "hello world");
}

// Found by fuzzing: a number beyond 64 bits ("read hub 0x10000000000000000") threw
// std::out_of_range from stoull, which the debug program's per-line handler does not catch.
TEST(DebugScript, NumberBeyond64BitsIsAnErrorNamingIt) {
  DebugValues v;
  EXPECT_EQ(v.value("0xffffffffffffffff"), ~0ull);
  try {
    v.value("0x10000000000000000");
    FAIL() << "no error";
  } catch (const McuError& e) {
    EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("0x10000000000000000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(v.value("12abc"), McuError);
  EXPECT_THROW(v.value("$nothing"), McuError);
}
