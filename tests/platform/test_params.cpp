// Scalar parsing with units, and the Params view (defaults, groups, lists).
#include <gtest/gtest.h>

#include "platform/params.h"

using namespace hetvp;

TEST(Params, ParsesSizesWithUnits) {
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("4 KiB"), 4096u);
  EXPECT_EQ(parse_size("1.5 GiB"), 1610612736u);
  EXPECT_EQ(parse_size("64K"), 65536u);
  EXPECT_EQ(parse_size("0x1000"), 4096u);
  EXPECT_THROW(parse_size("4 parsecs"), std::invalid_argument);
  EXPECT_THROW(parse_size("-1"), std::invalid_argument);
  EXPECT_THROW(parse_size("1.5"), std::invalid_argument);
}

TEST(Params, DecimalSizeUnitsArePowersOfTenBinaryUnitsPowersOfTwo) {
  EXPECT_EQ(parse_size("4 KB"), 4000u);
  EXPECT_EQ(parse_size("4 KiB"), 4096u);
}

TEST(Params, ParsesTimesAndFrequencies) {
  EXPECT_EQ(parse_time("250 ns"), sc_core::sc_time(250, sc_core::SC_NS));
  EXPECT_EQ(parse_time("1.7us"), sc_core::sc_time(1700, sc_core::SC_NS));
  EXPECT_EQ(parse_time("0"), sc_core::SC_ZERO_TIME);
  EXPECT_THROW(parse_time("250"), std::invalid_argument);  // a time needs a unit
  EXPECT_DOUBLE_EQ(parse_freq("1.4 GHz"), 1.4e9);
  EXPECT_DOUBLE_EQ(parse_freq("700MHz"), 700e6);
  EXPECT_THROW(parse_freq("3"), std::invalid_argument);
}

TEST(Params, NonFiniteNumbersAndOverflowsAreRefusedWithAReason) {
  auto reason = [](auto parse, const char* text) {
    try {
      parse(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  for (const char* t : {"nan", "inf", "-inf", "1e400"}) {
    EXPECT_EQ(reason(parse_double, t), "'" + std::string(t) + "' is not a finite number");
    EXPECT_EQ(reason(parse_int, t), "'" + std::string(t) + "' is not a finite number");  // was "stoll"
  }
  EXPECT_EQ(parse_size("1e19"), 10000000000000000000ull);
  EXPECT_EQ(reason(parse_size, "1e30"), "size '1e30' is too large (at most 2^64 - 1 bytes)");  // was 0
  EXPECT_EQ(parse_time("1000 s"), sc_core::sc_time(1000, sc_core::SC_SEC));
  EXPECT_NE(reason(parse_time, "1e30 s").find("time '1e30 s' is too large"), std::string::npos);  // overflowed
}

TEST(Params, ParsesIntegersAndBooleans) {
  EXPECT_EQ(parse_int("0xE0000000"), 0xE0000000ll);
  EXPECT_EQ(parse_int("-3"), -3);
  EXPECT_THROW(parse_int("sixteen"), std::invalid_argument);
  EXPECT_THROW(parse_int("1.5"), std::invalid_argument);
  EXPECT_TRUE(parse_bool("yes"));
  EXPECT_FALSE(parse_bool("false"));
  EXPECT_THROW(parse_bool("maybe"), std::invalid_argument);
}

TEST(Params, DefaultsGroupsAndLists) {
  auto inner = std::make_shared<Schema>();
  inner->integer("x", 7, "x");
  auto s = std::make_shared<Schema>();
  s->integer("a", 3, "a");
  s->time("t", std::string("5 ns"), "t");
  s->group("g", inner, "g");
  s->list("l", inner, "l");
  Params p(YAML::Load("{a: 9, l: [{x: 1}, {}]}"), s, "root");
  EXPECT_EQ(p.integer("a"), 9);
  EXPECT_EQ(p.time("t"), sc_core::sc_time(5, sc_core::SC_NS));
  EXPECT_EQ(p.group("g").integer("x"), 7);
  auto l = p.list("l");
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].integer("x"), 1);
  EXPECT_EQ(l[1].integer("x"), 7);
  EXPECT_THROW(p.integer("nope"), std::logic_error);  // a model asking for an undeclared key is a bug
}
