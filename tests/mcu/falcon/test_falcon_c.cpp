// hetvp's C on the Falcon core (issue #39, docs/firmware_falcon.md): firmware/falcon/tests/selfcheck.c,
// compiled by GCC for RV32E, translated by firmware/falcon/rv2fuc.py and assembled, runs on the
// Falcon v3 core model; its results are recomputed here from the same inputs. Skipped, with the
// reason, in a build without riscv64-unknown-elf-gcc or python3 (firmware/falcon/CMakeLists.txt).
#include "models/mcu/falcon/core.h"
#include "models/mcu/falcon/image_file.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

using namespace hetvp::mcu;
using namespace hetvp::mcu::falcon;

namespace {

struct NullBus : BusIf {
  bool read(uint32_t, uint32_t, uint32_t& v, uint64_t&) override {
    v = 0;
    return true;
  }
  bool write(uint32_t, uint32_t, uint32_t, uint64_t&) override { return true; }
};

std::string image_path(const char* name) { return std::string(HETVP_FALCON_FW_DIR) + "/" + name + ".fuc3.h"; }

std::string registers(const FalconCore& c) {
  std::ostringstream o;
  o << std::hex;
  for (unsigned i = 0; i < 16; ++i) o << " $r" << std::dec << i << "=0x" << std::hex << c.read_gpr(i);
  return o.str();
}

bool have_image(const char* name) { return std::ifstream(image_path(name)).good(); }

struct ImageRun {
  std::vector<uint8_t> code = std::vector<uint8_t>(0x4000), data = std::vector<uint8_t>(0x800);
  FalconCore core;
  NullBus bus;
  RunResult res;
  explicit ImageRun(const FalconImageFile& img) {
    EXPECT_LE(img.code.size() * 4, code.size());
    EXPECT_LE(img.data.size() * 4, data.size());
    std::memcpy(code.data(), img.code.data(), img.code.size() * 4);
    std::memcpy(data.data(), img.data.data(), img.data.size() * 4);
    core.add_region(MemRegion{0, static_cast<uint32_t>(code.size()), code.data(), false, true});
    core.add_region(MemRegion{0, static_cast<uint32_t>(data.size()), data.data(), true, false});
    core.set_bus(&bus);
    core.reset(0);
    res = core.run(5'000'000);
  }
  uint32_t word(size_t off) const {
    uint32_t v;
    std::memcpy(&v, &data[off], 4);
    return v;
  }
};

// selfcheck.c's computations, on the host.
std::vector<uint32_t> expected() {
  const uint32_t a = 0x12345678u, b = 0x9abcu, c = 0xfffffff9u;
  const int32_t n = -1000;
  const uint8_t bytes[8] = {0x80, 0x7f, 0xff, 0x01, 0x34, 0x12, 0xfe, 0xff};
  auto cmpbits = [](uint32_t x, uint32_t y) {
    int32_t sx = static_cast<int32_t>(x), sy = static_cast<int32_t>(y);
    uint32_t r = 0;
    r |= (x == y) ? 1 : 0;
    r |= (x != y) ? 2 : 0;
    r |= (sx < sy) ? 4 : 0;
    r |= (sx >= sy) ? 8 : 0;
    r |= (x < y) ? 16 : 0;
    r |= (x >= y) ? 32 : 0;
    r |= (sx > sy) ? 64 : 0;
    r |= (sx <= sy) ? 128 : 0;
    r |= (x > y) ? 256 : 0;
    r |= (x <= y) ? 512 : 0;
    r |= static_cast<uint32_t>(sx < sy) << 10;
    r |= static_cast<uint32_t>(x < y) << 11;
    r |= static_cast<uint32_t>(sx < 5) << 12;
    r |= static_cast<uint32_t>(x < 5u) << 13;
    r |= static_cast<uint32_t>(x == 0) << 14;
    r |= static_cast<uint32_t>(x != 0) << 15;
    r |= static_cast<uint32_t>(sx < 0) << 16;
    r |= static_cast<uint32_t>(sx > 0) << 17;
    return r;
  };
  auto classify = [](int32_t x) -> uint32_t {
    switch (x) {
      case -2: return 11;
      case 0: return 22;
      case 3: return 33;
      case 100: return 44;
      case 1000: return 55;
      default: return 66;
    }
  };
  std::vector<uint32_t> v(24);
  v[0] = a + b;
  v[1] = a - b;
  v[2] = (a & 0xff00ffu) | (b ^ 0x5555u);
  v[3] = (a << 7) ^ (a >> 9) ^ static_cast<uint32_t>(static_cast<int32_t>(c) >> 2);
  v[4] = a * b;
  v[5] = a / b + (a % b) * 3u;
  v[6] = static_cast<uint32_t>(n / 7 + n % 7);
  v[7] = static_cast<uint32_t>(static_cast<int32_t>(c) * n);
  const uint64_t w = static_cast<uint64_t>(a) * b + (static_cast<uint64_t>(c) << 33);
  v[8] = static_cast<uint32_t>(w);
  v[9] = static_cast<uint32_t>(w >> 32);
  v[10] = static_cast<uint32_t>(w / 1000003u);
  v[11] = cmpbits(a, b) ^ (cmpbits(c, 5) << 1) ^ (cmpbits(b, b) << 3);
  v[12] = static_cast<uint32_t>(static_cast<int8_t>(bytes[(a & 1) ? 1 : 0])) +
          static_cast<uint32_t>(static_cast<int8_t>(bytes[(b & 3) + 2])) * 256u;
  const uint16_t h2 = static_cast<uint16_t>(bytes[4] | bytes[5] << 8), h3 = static_cast<uint16_t>(bytes[6] | bytes[7] << 8);
  v[13] = h2 | static_cast<uint32_t>(static_cast<int16_t>(h3)) << 16;
  uint32_t bss[5];
  for (uint32_t i = 0; i < 5; ++i) bss[i] = i * a;
  bss[0] = (bss[0] & ~0xff00u) | 0xab00u;      // byte 1
  bss[1] = (bss[1] & 0x0000ffffu) | 0xcdef0000u;  // halfword 3
  v[14] = bss[0] ^ bss[1] ^ bss[4];
  uint32_t s = 0;
  for (const char* p = "Falcon\n"; *p; ++p) s = s * 31u + static_cast<uint8_t>(*p);
  v[15] = s;
  v[16] = 144;
  auto op = [](unsigned k, uint32_t x) { return k ? x * 2 : x + 3; };
  v[17] = op(a & 1, b) + op((a >> 3) & 1, b);
  v[18] = classify(-2) + classify(0) * 10 + classify(3) * 100 + classify(100) * 1000 + classify(1000) * 10000 +
          classify(n) * 100000;
  v[19] = 0x12345678u + a;
  v[20] = a + 0xfff;
  v[21] = a - 2048;
  v[22] = a & 0xfffffff0u;
  v[23] = static_cast<uint32_t>(static_cast<int64_t>(n) * static_cast<int64_t>(static_cast<int32_t>(c)) / 3);
  return v;
}

}  // namespace

TEST(FalconC, SelfcheckProgramComputesWhatTheHostComputes) {
  if (!have_image("selfcheck"))
    GTEST_SKIP() << image_path("selfcheck") << " was not built "
                 << "(firmware/falcon/CMakeLists.txt: needs riscv64-unknown-elf-gcc and python3)";
  const FalconImageFile img = read_falcon_image(image_path("selfcheck"));
  ImageRun run(img);
  ASSERT_EQ(run.res.reason, RunResult::Reason::halted)
      << "the program did not reach its exit: " << to_string(run.res.reason) << " at pc 0x" << std::hex
      << run.core.read_pc() << ": " << run.core.halt_reason() << registers(run.core);
  EXPECT_EQ(run.core.read_gpr(10), 0x600du) << "selfcheck.c's own check number " << run.core.read_gpr(10) << " failed";
  EXPECT_EQ(run.core.read_gpr(0), 0u) << "$r0, the zero register, was written";
  size_t at = run.data.size();
  for (size_t off = 0; off + 8 <= run.data.size(); off += 4)
    if (run.word(off) == 0x464c4143u && run.word(off + 4) == 24) {
      at = off;
      break;
    }
  ASSERT_LT(at, run.data.size()) << "no 'FALC' result block in data memory";
  const std::vector<uint32_t> want = expected();
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(run.word(at + 8 + 4 * i), want[i]) << "result v[" << i << "]";
}
