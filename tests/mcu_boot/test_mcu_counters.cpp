// Simulated time comes from the cycles a microcontroller core retires, never from mcycle as its
// software sees it (issue #43): three GPC firmware variants that write mcycle at boot and at every
// command — its own value, that value + 10^6, and 0, with the same instructions (firmware/gpc/gpc.c)
// — boot, answer and copy at exactly the same times, and UC_CYCLES reports the same, true count.
#include <gtest/gtest.h>

#include <map>

#include "common/run_hetvp.h"

using namespace hetvp::test;

namespace {
std::string cfg() { return config("default.yaml"); }
std::string fw(const std::string& n) { return binary_dir() + "/firmware/" + n; }
const char* const kImages[] = {"gpc_mcycle_same.elf", "gpc_mcycle_plus.elf", "gpc_mcycle_zero.elf"};
const std::string kFirst = kImages[0];

// The lines of `out` that contain `what`.
std::string lines_with(const std::string& out, const std::string& what) {
  std::string r;
  size_t b = 0;
  while (b < out.size()) {
    size_t e = out.find('\n', b);
    if (e == std::string::npos) e = out.size();
    const std::string l = out.substr(b, e - b);
    if (l.find(what) != std::string::npos) r += l + "\n";
    b = e + 1;
  }
  return r;
}
}  // namespace

TEST(McuCounters, McycleWritesMoveNeitherBootNorTransferTimes) {
  std::map<std::string, std::string> boot, copies, stats;
  for (const char* img : kImages) {
    SCOPED_TRACE(img);
    const std::string json = scratch() + "/boot_" + img + ".json";
    auto b = run_hetvp("run " + cfg() + " --workload mcu_boot --set workload.args.gpc_firmware=" + fw(img) +
                       " --stats " + json);
    ASSERT_EQ(b.status, 0) << b.out << b.err;
    boot[img] = lines_with(b.out, "booted") + lines_with(b.out, "echo answered");
    ASSERT_NE(boot[img].find("HUB + 4 GPCs booted"), std::string::npos) << b.out;
    stats[img] = lines_with(read_file(json), "mcu_");  // upload, start, init-done, echo times
    const std::string csv = scratch() + "/copies_" + img + ".csv";
    auto t = run_hetvp("run " + cfg() +
                       " --workload transfer --quiet --set workload.args.methods=gpc1,gpc4 "
                       "--set workload.args.max_size=4KiB --set workload.args.mcu.gpc_firmware=" +
                       fw(img) + " --csv " + csv);
    ASSERT_EQ(t.status, 0) << t.out << t.err;
    copies[img] = read_file(csv);
    ASSERT_NE(copies[img].find("GPC4"), std::string::npos) << copies[img];
  }
  for (const char* img : kImages) {
    EXPECT_EQ(boot[img], boot[kFirst]) << img;
    EXPECT_EQ(stats[img], stats[kFirst]) << img;
    EXPECT_EQ(copies[img], copies[kFirst]) << img;
  }
}

// UC_CYCLES_LO/HI read the cycles the core ran, whatever the firmware wrote to mcycle.
TEST(McuCounters, UcCyclesReportTheTrueCount) {
  std::map<std::string, std::string> read;
  for (const char* img : kImages) {
    SCOPED_TRACE(img);
    auto r = run_hetvp("debug " + cfg() + " --commands 'load gpcs " + fw(img) + "; load hub " + fw("hub.elf") +
                       "; start gpcs; start hub; wait hub sleeping; cmd gpc1 ping 0x1234; read gpc1 0x128; "
                       "read gpc1 0x12c; read gpc1 0x120'");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    read[img] = lines_with(r.out, "gpc1[0x0000012");
    ASSERT_NE(read[img].find("gpc1[0x0000012c] = 0x00000000"), std::string::npos) << r.out;
    // far below the 10^6 the "+10^6" variant adds to mcycle twice (boot, the ping)
    ASSERT_NE(read[img].find("gpc1[0x00000128] = 0x0000"), std::string::npos) << r.out;
  }
  for (const char* img : kImages) EXPECT_EQ(read[img], read[kFirst]) << img;
}
