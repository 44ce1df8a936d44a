// Raw Falcon images (issue #25, docs/falcon.md "Image files"): workload.args.mcu.falcon_hub_image /
// falcon_gpc_image = "code=CODE.bin[,data=DATA.bin]", each file the segment's bytes with no header.
// A tiny HUB program assembled by hand boots to init-done from such files, and every bad raw input is
// a located error naming the key and the file.
#include "common/run_hetvp.h"
#include "models/mcu/falcon/disasm.h"
#include "models/mcu/falcon/nouveau_fw.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

using namespace hetvp::test;

namespace {

// The HUB program, bytes worked out by hand from envytools' Falcon ISA documentation
// (hwdocs/falcon/isa.txt "Instruction formats" and the opcode tables; io.txt for iowr/iowrs and the
// I[] address of a host register: falcon_base + X is I/O address X << 6).
//   f1 form: O2 R2SD I16   byte 1 = R2 << 4 | subopcode, bytes 2-3 = I16 (little-endian)
//   d0/d1:   O1 R2S R1S I8  byte 0 = 0xd0 | subop (0 iowr, 1 iowrs), byte 1 = R2 (base) << 4 | R1 (source),
//            byte 2 = I8, address = R2 + I8 * 4
//   f8 form: O2             byte 1 = subopcode (2 = exit)
const std::vector<uint8_t> kHubCode = {
    0xf1, 0x17, 0x34, 0x12,  // mov $r1 0x1234         f1, R2 = 1, sub 7 (mov, I16 sign-extended): the context size
    0xf1, 0x27, 0x00, 0x00,  // mov $r2 0x0            f1, R2 = 2, sub 7
    0xf1, 0x23, 0x02, 0x00,  // sethi $r2 0x20000      f1, R2 = 2, sub 3 (sethi: bits 16-31 = I16): I/O 0x20000 = host 0x800
    0xd1, 0x21, 0x40,        // iowrs I[$r2+0x100] $r1 d1 (iowrs), R2 = 2, R1 = 1, I8 0x40 * 4: host 0x804, CC_SCRATCH[1]
    0xf1, 0x37, 0x00, 0x00,  // mov $r3 0x0            f1, R2 = 3, sub 7
    0xf1, 0x33, 0x00, 0x80,  // sethi $r3 0x80000000   f1, R2 = 3, sub 3
    0xd1, 0x23, 0x00,        // iowrs I[$r2] $r3       host 0x800 = CC_SCRATCH[0]: bit 31, init done
    0xf8, 0x02,              // exit                   f8, sub 2: the HUB halts
};
// The GPC program (uploaded to every GPC, never started: the HUB program does not start them): exit.
const std::vector<uint8_t> kGpcCode = {0xf8, 0x02, 0x00, 0x00};

std::string write_bin(const std::string& name, const std::vector<uint8_t>& bytes) {
  const std::string path = ::testing::TempDir() + "/hetvp_raw_" + name;
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  return path;
}

std::string boot(const std::string& hub, const std::string& gpc) {
  return "run " + config("gk104_nouveau.yaml") + " --workload boot --set workload.args.mcu.falcon_hub_image=" + hub +
         " --set workload.args.mcu.falcon_gpc_image=" + gpc;
}

}  // namespace

// The hand-assembled bytes are what the comments say (hetvp's disassembler follows envydis's syntax,
// tests/mcu/falcon/test_falcon_disasm.cpp).
TEST(FalconRawImage, TheHandAssembledProgramDisassemblesAsCommented) {
  const char* expected[] = {"mov $r1 0x1234", "mov $r2 0x0",          "sethi $r2 0x20000", "iowrs I[$r2+0x100] $r1",
                            "mov $r3 0x0",    "sethi $r3 0x80000000", "iowrs I[$r2] $r3",  "exit"};
  std::vector<uint8_t> code = kHubCode;
  code.resize(code.size() + 8, 0);
  uint32_t pc = 0;
  for (const char* want : expected) {
    unsigned len = 0;
    EXPECT_EQ(hetvp::mcu::falcon::disassemble(code.data() + pc, pc, len, 3), want) << "at pc " << pc;
    pc += len;
  }
  EXPECT_EQ(pc, kHubCode.size());
}

// Raw code files for the HUB and the GPCs (and a raw data file): the HUB program writes the context
// size and init-done, which the boot workload reads as it does nouveau's firmware's.
TEST(FalconRawImage, AHandAssembledHubProgramFromARawFileReachesInitDone) {
  ASSERT_EQ(kHubCode.size() % 4, 0u);
  const std::string hub = write_bin("hub.bin", kHubCode), gpc = write_bin("gpc.bin", kGpcCode),
                    data = write_bin("data.bin", {0x78, 0x56, 0x34, 0x12});
  auto r = run_hetvp(boot("code=" + hub + ",data=" + data, "code=" + gpc), 120);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Falcon image files firmware: init-done"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("context size 4660 bytes (0x1234)"), std::string::npos) << r.out;
  // data= first works the same.
  auto d = run_hetvp(boot("data=" + data + ",code=" + hub, "code=" + gpc), 120);
  EXPECT_EQ(d.status, 0) << d.out << d.err;
  EXPECT_NE(d.out.find("context size 4660 bytes (0x1234)"), std::string::npos) << d.out;
  for (const auto& p : {hub, gpc, data}) std::remove(p.c_str());
}

TEST(FalconRawImage, BadRawInputsAreLocatedErrors) {
  const std::string hub = write_bin("ok_hub.bin", kHubCode);
  const std::string odd = write_bin("odd.bin", {0xf8, 0x02, 0x00, 0x00, 0xf8, 0x02});  // 6 bytes
  const std::string empty = write_bin("empty.bin", {});
  const std::string missing = ::testing::TempDir() + "/hetvp_raw_no_such_file.bin";
  struct Bad {
    std::string gpc_spec, message;
  };
  const Bad bad[] = {
      {"code=" + missing, missing + ": "},  // the file layer's message names the file
      {"code=" + odd, odd + ": 6 bytes, not a multiple of 4 (the code segment is uploaded in 32-bit words)"},
      {"code=" + hub + ",data=" + odd, odd + ": 6 bytes, not a multiple of 4 (the data segment"},
      {"code=" + empty, empty + ": empty code file"},
      {"data=" + hub, "no code=FILE (the raw form is code=CODE.bin[,data=DATA.bin])"},
      {"code=" + hub + ",stack=" + hub, "'stack=" + hub + "' is not code=FILE or data=FILE"},
      {"code=" + hub + ",code=" + hub, "code= given twice"},
      {"code=", "code= names no file"},
  };
  for (const Bad& b : bad) {
    auto r = run_hetvp(boot("code=" + hub, b.gpc_spec));
    EXPECT_EQ(r.status, 2) << b.gpc_spec << r.out << r.err;
    EXPECT_NE(r.err.find("falcon_gpc_image"), std::string::npos) << r.err;  // located: the key
    EXPECT_NE(r.err.find(b.message), std::string::npos) << b.gpc_spec << ": " << r.err;
    EXPECT_EQ(r.out.find("init-done"), std::string::npos) << r.out;  // nothing ran
  }
  // Too big for the GPC's code segment (UC_CAPS: 0x2800 bytes on GK104): refused by the driver's upload.
  const std::string big = write_bin("big.bin", std::vector<uint8_t>(0x2800 + 4, 0));
  auto e = run_hetvp(boot("code=" + hub, "code=" + big));
  EXPECT_EQ(e.status, 1) << e.out << e.err;
  EXPECT_NE((e.out + e.err).find("GPC image code=" + big + " image (code 0x2804, data 0x0 bytes) does not fit the Falcon "
                                 "at 0x41a000 (UC_CAPS: code 0x2800, data 0x800 bytes)"),
            std::string::npos)
      << e.out << e.err;
  for (const auto& p : {hub, odd, empty, big}) std::remove(p.c_str());
}

// The keys: gpu0.microcontrollers.hub.image / gpc.image. The controllers hold the images from
// power-on (PTOP MCU_IMAGES), the boot uploads nothing to them and starts the HUB.
TEST(FalconRawImage, GpuImageKeysHoldTheImagesFromPowerOn) {
  const std::string hub = write_bin("gpu_hub.bin", kHubCode), gpc = write_bin("gpu_gpc.bin", kGpcCode);
  auto r = run_hetvp("run " + config("gk104_nouveau.yaml") + " --workload boot --set gpu0.microcontrollers.hub.image=code=" +
                         hub + " --set gpu0.microcontrollers.gpc.image=code=" + gpc,
                     120);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Falcon image files firmware: init-done"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("context size 4660 bytes (0x1234)"), std::string::npos) << r.out;
  // The workload's key wins over the resident image: nouveau's HUB image is uploaded over it.
  const auto& fw = hetvp::mcu::falcon::nouveau_firmware("gk104");
  if (fw.available) {
    auto n = run_hetvp("run " + config("gk104_nouveau.yaml") +
                           " --workload boot --set gpu0.microcontrollers.hub.image=code=" + hub, 120);
    EXPECT_EQ(n.status, 0) << n.out << n.err;
    EXPECT_NE(n.out.find("context size 4660 bytes"), std::string::npos) << n.out;  // GPCs: nouveau's, never started
  }
  for (const auto& p : {hub, gpc}) std::remove(p.c_str());
}

TEST(FalconRawImage, BadGpuImageKeysAreLocatedConfigErrors) {
  const std::string odd = write_bin("gpu_odd.bin", {1, 2, 3, 4, 5});
  const std::string big = write_bin("gpu_big.bin", std::vector<uint8_t>(0x5000 + 4, 0));  // GK104 HUB code: 0x5000
  struct Bad {
    std::string key, value, message;
  };
  const Bad bad[] = {
      {"gpu0.microcontrollers.gpc.image", "code=" + odd, odd + ": 5 bytes, not a multiple of 4"},
      {"gpu0.microcontrollers.hub.image", "code=" + big,
       "HUB image code=" + big +
           " (code 0x5004, data 0x0 bytes) does not fit the Falcon (UC_CAPS: code 0x5000, data 0x1000 bytes)"},
      {"gpu0.microcontrollers.hub.image", "/no/such/hub.fuc3.h", "/no/such/hub.fuc3.h: "},
  };
  for (const Bad& b : bad) {
    auto r = run_hetvp("run " + config("gk104_nouveau.yaml") + " --workload boot --set " + b.key + "=" + b.value);
    EXPECT_EQ(r.status, 2) << b.key << r.out << r.err;
    EXPECT_NE(r.err.find(b.key), std::string::npos) << r.err;  // located: the key
    EXPECT_NE(r.err.find(b.message), std::string::npos) << b.key << ": " << r.err;
  }
  // On the RV32 microcontrollers the key is refused with the key that loads their firmware.
  auto v = run_hetvp("run " + config("default.yaml") + " --workload boot --set gpu0.microcontrollers.hub.image=code=" + odd);
  EXPECT_EQ(v.status, 2) << v.out << v.err;
  EXPECT_NE(v.err.find("a resident image is for core: falcon"), std::string::npos) << v.err;
  EXPECT_NE(v.err.find("workload.args.mcu.hub_firmware"), std::string::npos) << v.err;
  for (const auto& p : {odd, big}) std::remove(p.c_str());
}

// An ELF file or a text file given as a raw segment is refused by name, through both keys (before,
// any multiple of 4 bytes was taken: an ELF file's bytes would have run as Falcon code).
TEST(FalconRawImage, ElfAndTextFilesAreNotRawSegments) {
  std::vector<uint8_t> elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  elf.resize(64, 0);
  std::string text_s = "static uint32_t x_code[] = {\n\t0x000000f8,\n};\nstatic uint32_t x_data[] = {\n};\n";
  text_s.resize((text_s.size() + 3) / 4 * 4, ' ');  // a multiple of 4: only the content gives it away
  const std::string e = write_bin("prog.elf", elf), t = write_bin("hub_h.bin", {text_s.begin(), text_s.end()});
  const std::string hub = write_bin("elf_ok_hub.bin", kHubCode);
  struct Bad {
    std::string key, value, message;
    int status;
  };
  const Bad bad[] = {
      {"gpu0.microcontrollers.hub.image", "code=" + e, e + ": an ELF file, not a raw Falcon code segment", 2},
      {"gpu0.microcontrollers.gpc.image", "code=" + hub + ",data=" + e, e + ": an ELF file, not a raw Falcon data segment", 2},
      {"gpu0.microcontrollers.hub.image", "code=" + t, t + ": text, not a raw Falcon code segment", 2},
      {"workload.args.mcu.falcon_hub_image", "code=" + e, e + ": an ELF file, not a raw Falcon code segment", 2},
  };
  for (const Bad& b : bad) {
    auto r = run_hetvp("run " + config("gk104_nouveau.yaml") + " --workload boot --set " + b.key + "=" + b.value);
    EXPECT_EQ(r.status, b.status) << b.key << r.out << r.err;
    EXPECT_NE(r.err.find(b.key), std::string::npos) << r.err;  // located: the key
    EXPECT_NE(r.err.find(b.message), std::string::npos) << b.key << ": " << r.err;
    EXPECT_EQ(r.out.find("init-done"), std::string::npos) << r.out;  // nothing ran
  }
  for (const auto& p : {e, t, hub}) std::remove(p.c_str());
}
