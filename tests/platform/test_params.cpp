// Scalar parsing with units, and the Params view (defaults, groups, lists).
#include <gtest/gtest.h>

#include "platform/param_set.h"
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
  EXPECT_EQ(parse_size("4 kB"), 4000u);  // the SI spelling (#42: was refused while KB was accepted)
  EXPECT_EQ(parse_size("4 KiB"), 4096u);
  EXPECT_EQ(parse_size("2 MB"), 2000000u);
  EXPECT_EQ(parse_size("2 MiB"), 2097152u);
  EXPECT_EQ(parse_size("2M"), 2097152u);  // a bare M is binary, as the message says
  EXPECT_EQ(parse_size("1 TB"), 1000000000000u);
  try {
    parse_size("4 kb");
    FAIL() << "4 kb accepted";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("unknown size unit 'kb'"), std::string::npos) << m;
    for (const char* u : {"kB", "KB", "MB", "KiB", "MiB", "GiB", "bare K"}) EXPECT_NE(m.find(u), std::string::npos) << u;
  }
}

TEST(Params, ParsesTimesAndFrequencies) {
  EXPECT_EQ(parse_time("250 ns"), sc_core::sc_time(250, sc_core::SC_NS));
  EXPECT_EQ(parse_time("1.7us"), sc_core::sc_time(1700, sc_core::SC_NS));
  EXPECT_EQ(parse_time("0"), sc_core::SC_ZERO_TIME);
  EXPECT_THROW(parse_time("250"), std::invalid_argument);  // a time needs a unit
  EXPECT_DOUBLE_EQ(parse_freq("1.4 GHz"), 1.4e9);
  EXPECT_DOUBLE_EQ(parse_freq("700MHz"), 700e6);
  EXPECT_THROW(parse_freq("3"), std::invalid_argument);  // a forgotten unit, not 3 Hz
  EXPECT_DOUBLE_EQ(parse_freq("1.4e9"), 1.4e9);          // a bare number of at least 1 kHz is Hz (#42)
  EXPECT_EQ(parse_time("10\u00b5s"), sc_core::sc_time(10, sc_core::SC_US));  // micro sign
  EXPECT_EQ(parse_time("10 \u03bcs"), sc_core::sc_time(10, sc_core::SC_US));  // Greek mu
  try {
    parse_freq("3");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a bare number is in Hz and at least 1000"), std::string::npos) << e.what();
  }
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

// The same view read through a parameter set (platform/param_set.h), the only way a model reads it:
// defaults fill what the YAML leaves out, groups and lists nest, given() tells what was written.
namespace {
struct Inner : ParamSet {
  Int<int> x{this, "x", 7, "x"};
};
struct Outer : ParamSet {
  Int<int> a{this, "a", 3, "a"};
  Time t{this, "t", "5 ns", "t"};
  Group<Inner> g{this, "g", "g"};
  List<Inner> l{this, "l", "l"};
};
}  // namespace

TEST(Params, DefaultsGroupsAndLists) {
  const Outer o = load<Outer>(Params(YAML::Load("{a: 9, l: [{x: 1}, {}]}"), Outer{}.schema(), "root"));
  EXPECT_EQ(o.a, 9);
  EXPECT_TRUE(o.a.given());
  EXPECT_EQ(o.t(), sc_core::sc_time(5, sc_core::SC_NS));
  EXPECT_FALSE(o.t.given());
  EXPECT_EQ(o.g.x, 7);
  ASSERT_EQ(o.l.size(), 2u);
  EXPECT_EQ(o.l[0].x, 1);
  EXPECT_EQ(o.l[1].x, 7);
  EXPECT_EQ(o.l[0].x.path(), "root.l[0].x");
  // A copy knows its members (they are found by their offset in the set).
  const Outer copy = o;
  EXPECT_EQ(copy.a.where(), o.a.where());
  EXPECT_EQ(copy.schema()->names(), (std::vector<std::string>{"a", "t", "g", "l"}));
}
