// QPU instruction-set tests, one group per instruction class, with expected values from the
// VideoCore IV 3D Architecture Reference Guide (2013), section 3 (cited per test). The core runs
// on a harness QpuIo (code from a vector, uniforms from a list, semaphores counted here).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

#include "models/qpu/qpu_core.h"
#include "sw/qpu/qpu_asm.h"

using namespace hetvp::qpu;

namespace {

uint32_t fb(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

struct Harness : QpuIo {
  std::vector<Instr> code;
  std::vector<uint32_t> unifs;
  size_t next_unif = 0;
  int sem[16] = {};
  std::vector<uint32_t> host_ints;
  QpuCore q{3, *this};

  const Instr& fetch(QpuCore&, uint32_t pc) override {
    if (pc / 8 >= code.size()) throw QpuFault("fetch beyond the test program");
    return code[pc / 8];
  }
  uint32_t uniform(QpuCore&) override { return next_unif < unifs.size() ? unifs[next_unif++] : 0xdeadbeef; }
  void uniforms_address(QpuCore&, uint32_t) override {}
  void tmu_request(QpuCore&, unsigned, const Vec&, const uint8_t*) override { throw QpuFault("no TMU here"); }
  void tmu_load(QpuCore&, unsigned, Vec&) override { throw QpuFault("no TMU here"); }
  void vpm_read(QpuCore&, Vec&) override { throw QpuFault("no VPM here"); }
  void vpm_write(QpuCore&, const Vec&, const uint8_t*) override { throw QpuFault("no VPM here"); }
  void vpm_setup(QpuCore&, bool, uint32_t) override {}
  void vpm_dma(QpuCore&, bool, uint32_t) override {}
  void vpm_wait(QpuCore&, bool) override {}
  uint32_t vpm_busy(QpuCore&, bool) override { return 0; }
  bool mutex_acquire(QpuCore&) override { return true; }
  void mutex_release(QpuCore&) override {}
  bool semaphore(QpuCore&, unsigned n, bool down) override {
    if (down && sem[n] == 0) return false;
    sem[n] += down ? -1 : 1;
    return true;
  }
  void host_interrupt(QpuCore& c) override { host_ints.push_back(c.pc()); }

  // Assembles `lines` (plus program end and its two delay slots) and runs them.
  void run(const std::vector<std::string>& lines, std::function<void(QpuCore&)> init = nullptr) {
    std::string text;
    for (auto& l : lines) text += l + "\n";
    text += "nop ; thrend\nnop\nnop\n";
    code.clear();
    for (uint64_t w : assemble(text, "test")) code.push_back(decode(w));
    q.reset(0);
    if (init) init(q);
    for (int i = 0; i < 10000; ++i) {
      const QpuCore::Status st = q.step();
      if (st == QpuCore::Status::Ended) return;
      if (st == QpuCore::Status::Blocked) throw QpuFault("blocked");
    }
    FAIL() << "program did not end";
  }
  void set(unsigned acc, std::function<uint32_t(unsigned)> f) {
    for (unsigned i = 0; i < 16; ++i) q.acc[acc].v[i] = f(i);
  }
};

// r0 = a, r1 = b in every element; runs "<op> r2, r0, r1" and returns element 0 of r2.
uint32_t binop(const std::string& op, uint32_t a, uint32_t b) {
  Harness h;
  h.run({op + " r2, r0, r1"}, [&](QpuCore& q) {
    for (unsigned i = 0; i < 16; ++i) {
      q.acc[0].v[i] = a;
      q.acc[1].v[i] = b;
    }
  });
  return h.q.acc[2].v[0];
}

}  // namespace

// Guide 3.3 (add ALU opcodes 1..8: floating point).
TEST(QpuAddOps, FloatOps) {
  EXPECT_EQ(bf(binop("fadd", fb(1.5f), fb(2.25f))), 3.75f);
  EXPECT_EQ(bf(binop("fsub", fb(1.5f), fb(2.25f))), -0.75f);
  EXPECT_EQ(bf(binop("fmin", fb(-3.0f), fb(2.0f))), -3.0f);
  EXPECT_EQ(bf(binop("fmax", fb(-3.0f), fb(2.0f))), 2.0f);
  EXPECT_EQ(bf(binop("fminabs", fb(-3.0f), fb(2.0f))), 2.0f);  // min(|a|, |b|)
  EXPECT_EQ(bf(binop("fmaxabs", fb(-3.0f), fb(2.0f))), 3.0f);
  EXPECT_EQ(binop("ftoi", fb(-7.75f), 0), uint32_t(-7));  // truncation towards zero
  EXPECT_EQ(bf(binop("itof", uint32_t(-12), 0)), -12.0f);
}

// Guide 3.3 (add ALU opcodes 12..24, 30, 31: integer and bitwise).
TEST(QpuAddOps, IntegerOps) {
  EXPECT_EQ(binop("add", 0xfffffff0u, 0x20u), 0x10u);
  EXPECT_EQ(binop("sub", 5u, 7u), uint32_t(-2));
  EXPECT_EQ(binop("shr", 0x80000000u, 35u), 0x10000000u);  // shift by b & 31
  EXPECT_EQ(binop("asr", 0x80000000u, 4u), 0xf8000000u);
  EXPECT_EQ(binop("ror", 0x00000001u, 1u), 0x80000000u);
  EXPECT_EQ(binop("shl", 0x00000003u, 30u), 0xc0000000u);
  EXPECT_EQ(binop("min", uint32_t(-5), 3u), uint32_t(-5));  // signed
  EXPECT_EQ(binop("max", uint32_t(-5), 3u), 3u);
  EXPECT_EQ(binop("and", 0xf0f0u, 0xff00u), 0xf000u);
  EXPECT_EQ(binop("or", 0xf0f0u, 0xff00u), 0xfff0u);
  EXPECT_EQ(binop("xor", 0xf0f0u, 0xff00u), 0x0ff0u);
  EXPECT_EQ(binop("not", 0xf0f0f0f0u, 0u), 0x0f0f0f0fu);
  EXPECT_EQ(binop("clz", 0x00010000u, 0u), 15u);
  EXPECT_EQ(binop("clz", 0u, 0u), 32u);
  EXPECT_EQ(binop("v8adds", 0x80ff1002u, 0x90022003u), 0xffff3005u);  // per byte, saturating
  EXPECT_EQ(binop("v8subs", 0x80011003u, 0x90022001u), 0x00000002u);
}

// Guide 3.3 (mul ALU opcodes).
TEST(QpuMulOps, AllOps) {
  EXPECT_EQ(bf(binop("nop ; fmul", fb(1.5f), fb(-4.0f))), -6.0f);
  EXPECT_EQ(binop("nop ; mul24", 0x01000003u, 0x00000005u), 15u);  // the low 24 bits of each input
  EXPECT_EQ(binop("nop ; mul24", 0x00ffffffu, 0x00000002u), 0x01fffffeu);
  EXPECT_EQ(binop("nop ; v8muld", 0xff8040ffu, 0xffff8000u), 0xff802000u);  // x*y/255, rounded
  EXPECT_EQ(binop("nop ; v8min", 0x10203040u, 0x40302010u), 0x10202010u);
  EXPECT_EQ(binop("nop ; v8max", 0x10203040u, 0x40302010u), 0x40303040u);
  EXPECT_EQ(binop("nop ; v8adds", 0xf0000001u, 0x20000001u), 0xff000002u);
  EXPECT_EQ(binop("nop ; v8subs", 0x10000005u, 0x20000001u), 0x00000004u);
}

TEST(QpuAluInputs, AccumulatorsRegfilesAndDualIssue) {
  Harness h;
  h.unifs = {fb(2.0f), fb(3.0f)};
  h.run({"mov ra5, unif", "mov rb6, unif", "nop", "fadd r0, ra5, rb6 ; fmul r1, ra5, rb6", "mov r2, elem_num",
         "mov r3, qpu_num"});
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(bf(h.q.acc[0].v[i]), 5.0f);
    EXPECT_EQ(bf(h.q.acc[1].v[i]), 6.0f);
    EXPECT_EQ(h.q.acc[2].v[i], i);   // element number
    EXPECT_EQ(h.q.acc[3].v[i], 3u);  // QPU number
  }
  EXPECT_EQ(h.q.instructions, 9u);
  EXPECT_EQ(h.q.cycle, 36u);  // one instruction per 4 clocks
  EXPECT_EQ(h.q.flops, 32u);  // one fadd and one fmul on 16 elements
}

// Guide 3.5 / table 5: small immediates 0..15, -16..-1, 1.0..128.0, 1/256..1/2; 48..63 rotate.
TEST(QpuSmallImmediates, Table) {
  EXPECT_EQ(small_imm_value(0), 0u);
  EXPECT_EQ(small_imm_value(15), 15u);
  EXPECT_EQ(small_imm_value(16), uint32_t(-16));
  EXPECT_EQ(small_imm_value(31), uint32_t(-1));
  EXPECT_EQ(bf(small_imm_value(32)), 1.0f);
  EXPECT_EQ(bf(small_imm_value(39)), 128.0f);
  EXPECT_EQ(bf(small_imm_value(40)), 1.0f / 256);
  EXPECT_EQ(bf(small_imm_value(47)), 0.5f);
  Harness h;
  h.run({"add r0, r1, -3", "fadd r2, r1, 0.125", "nop ; fmul r3, r3, 4.0"}, [](QpuCore& q) {
    for (unsigned i = 0; i < 16; ++i) {
      q.acc[1].v[i] = 10;
      q.acc[3].v[i] = fb(1.5f);
    }
  });
  EXPECT_EQ(h.q.acc[0].v[7], 7u);
  EXPECT_EQ(h.q.acc[3].v[0], fb(6.0f));
}

// Guide 3.5: small immediates 48..63 rotate the mul ALU inputs by 1..15 elements (48: by r5).
TEST(QpuSmallImmediates, VectorRotation) {
  Harness h;
  h.run({"nop ; v8min r1, r0, r0 ; rot 3", "nop ; v8min r2, r0, r0 ; rot r5"}, [](QpuCore& q) {
    for (unsigned i = 0; i < 16; ++i) {
      q.acc[0].v[i] = 100 + i;
      q.acc[5].v[i] = 5;
    }
  });
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(h.q.acc[1].v[i], 100 + ((i - 3) & 15)) << i;
    EXPECT_EQ(h.q.acc[2].v[i], 100 + ((i - 5) & 15)) << i;
  }
}

// Guide 3.3: write conditions on Z/N/C; flags set by .setf from the add ALU, or from the mul ALU
// when the add ALU does nothing.
TEST(QpuFlags, ConditionsAndFlags) {
  Harness h;
  h.run({"sub.setf r1, r0, 8",  // element i: i - 8: N for i < 8, Z for i = 8
         "mov.ifz r2, 1", "mov.ifn r3, 1", "mov.ifnn ra1, 7", "nop.setf ; fmul r0, r5, 2.0"},
        [](QpuCore& q) {
          for (unsigned i = 0; i < 16; ++i) {
            q.acc[0].v[i] = i;
            q.acc[5].v[i] = fb(float(i) - 1.0f);
          }
        });
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(h.q.acc[3].v[i], i < 8 ? 1u : 0u) << i;
    EXPECT_EQ(h.q.ra[1].v[i], i >= 8 ? 7u : 0u) << i;
  }
  EXPECT_EQ(h.q.acc[2].v[8], 1u);
  EXPECT_EQ(h.q.acc[2].v[9], 0u);
  // The last instruction set the flags from the mul ALU (the add ALU was a nop): (i - 1) * 2.
  EXPECT_EQ(h.q.n[0], 1);
  EXPECT_EQ(h.q.z[1], 1);
  EXPECT_EQ(h.q.n[2] | h.q.z[2], 0);
}

TEST(QpuFlags, CarryOfAddAndSub) {
  Harness h;
  h.run({"add.setf r1, r0, r0", "mov.ifc r2, 1"}, [](QpuCore& q) {
    for (unsigned i = 0; i < 16; ++i) q.acc[0].v[i] = i < 4 ? 0x80000000u : 1u;
  });
  EXPECT_EQ(h.q.acc[2].v[0], 1u);  // carry out
  EXPECT_EQ(h.q.acc[2].v[5], 0u);
}

// Guide 3.6 (regfile A pack, pm = 0) and 3.7 (unpack of regfile A reads, and of r4 with pm = 1).
TEST(QpuPack, RegfileAPackModes) {
  Harness h;
  h.run({"ldi ra1, 0x11223344", "ldi ra2, 0x11223344", "ldi ra3, 0x11223344", "ldi ra4, 0", "nop",
         "or ra1, r0, r0 ; pack 8b",     // byte 1 only
         "or ra2, r0, r0 ; pack 16b",    // high half only (integer)
         "or ra3, r0, r0 ; pack 8888",   // low byte replicated
         "fadd ra4, r1, r1 ; pack 16a",  // float -> half in the low half
         "or ra5, r2, r2 ; pack 8as",    // saturate to 0..255
         "or ra6, r3, r3 ; pack 16as"},  // saturate to int16
        [](QpuCore& q) {
          for (unsigned i = 0; i < 16; ++i) {
            q.acc[0].v[i] = 0xabcd12feu;
            q.acc[1].v[i] = fb(0.75f);  // 1.5 -> half 0x3e00
            q.acc[2].v[i] = 300;
            q.acc[3].v[i] = uint32_t(-40000);
          }
        });
  EXPECT_EQ(h.q.ra[1].v[0], 0x1122fe44u);
  EXPECT_EQ(h.q.ra[2].v[0], 0x12fe3344u);
  EXPECT_EQ(h.q.ra[3].v[0], 0xfefefefeu);
  EXPECT_EQ(h.q.ra[4].v[0], 0x00003e00u);
  EXPECT_EQ(h.q.ra[5].v[0], 0x000000ffu);
  EXPECT_EQ(h.q.ra[6].v[0], 0x00008000u);
}

TEST(QpuPack, MulColourPack) {
  Harness h;
  h.run({"nop ; fmul r1, r0, 1.0 ; pm ; pack 8888", "nop ; fmul r2, r0, 1.0 ; pm ; pack 8c"}, [](QpuCore& q) {
    for (unsigned i = 0; i < 16; ++i) {
      q.acc[0].v[i] = fb(0.5f);
      q.acc[2].v[i] = 0x11111111u;
    }
  });
  EXPECT_EQ(h.q.acc[1].v[0], 0x80808080u);  // 0.5 * 255 rounded = 128
  EXPECT_EQ(h.q.acc[2].v[0], 0x11801111u);
}

TEST(QpuUnpack, RegfileAAndR4) {
  Harness h;
  h.run({"ldi ra1, 0x3c00c000", "nop",  // half 1.0 (high), -2.0 (low)
         "fadd r0, ra1, 0 ; unpack 16a", "fadd r1, ra1, 0 ; unpack 16b", "or r2, ra1, ra1 ; unpack 16a",
         "ldi ra2, 0x80ff4020", "nop", "fadd r3, ra2, 0 ; unpack 8b", "or ra3, ra2, ra2 ; unpack 8d_rep",
         "or ra4, ra2, ra2 ; unpack 8c"});
  EXPECT_EQ(bf(h.q.acc[0].v[0]), -2.0f);
  EXPECT_EQ(bf(h.q.acc[1].v[0]), 1.0f);
  EXPECT_EQ(h.q.acc[2].v[0], 0xffffc000u);         // integer op: sign-extended
  EXPECT_EQ(bf(h.q.acc[3].v[0]), 64.0f / 255.0f);  // float op: byte / 255
  EXPECT_EQ(h.q.ra[3].v[0], 0x80808080u);
  EXPECT_EQ(h.q.ra[4].v[0], 0xffu);
  Harness r;
  r.run({"or r1, r4, r4 ; pm ; unpack 8a"}, [](QpuCore& q) {
    for (unsigned i = 0; i < 16; ++i) q.acc[4].v[i] = 0x123456abu;
  });
  EXPECT_EQ(r.q.acc[1].v[0], 0xabu);
}

// Guide 3.4: load immediate, 32-bit and per-element (2-bit signed / unsigned per element).
TEST(QpuLoadImmediate, ThirtyTwoBitAndPerElement) {
  const int v[16] = {0, 1, -2, -1, 1, 0, -1, -2, 0, 0, 1, 1, -2, -2, -1, -1};
  const uint32_t imm = per_element_imm(v);
  Harness h;
  h.code.clear();
  h.run({"ldi ra1, r1, 0x12345678", "ldi.pes r2, " + std::to_string(imm), "ldi.peu r3, " + std::to_string(imm),
         "ldi.setf r0, 0"});
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(h.q.ra[1].v[i], 0x12345678u);
    EXPECT_EQ(h.q.acc[1].v[i], 0x12345678u);
    EXPECT_EQ(int32_t(h.q.acc[2].v[i]), v[i]) << i;
    EXPECT_EQ(h.q.acc[3].v[i], uint32_t(v[i]) & 3) << i;
    EXPECT_EQ(h.q.z[i], 1);
  }
}

// Guide 3.4: branches take effect after three delay slots; the link register receives the
// address of the instruction after them (pc + 4 instructions); relative targets count from there.
TEST(QpuBranch, DelaySlotsLinkAndConditions) {
  Harness h;
  h.run({"ldi r0, 0",          // 0x00
         "brr ra3, -, :skip",  // 0x08: link = 0x28
         "add r0, r0, 1",      // 0x10 delay slot 1
         "add r0, r0, 1",      // 0x18 delay slot 2
         "add r0, r0, 1",      // 0x20 delay slot 3
         "add r0, r0, 8",      // 0x28 skipped
         ":skip",
         "mov r1, ra3",               // 0x30
         "sub.setf -, elem_num, 15",  // Z only in element 15
         "brr.allz :never",           // not taken: not all Z
         "nop",
         "nop",
         "nop",
         "brr.anyz :taken",  // taken: element 15 has Z
         "nop",
         "nop",
         "nop",
         ":never",
         "ldi r2, 99",
         ":taken",
         "nop"});
  EXPECT_EQ(h.q.acc[0].v[0], 3u);
  EXPECT_EQ(h.q.acc[1].v[0], 0x28u);
  EXPECT_EQ(h.q.acc[2].v[0], 0u);
}

TEST(QpuBranch, AbsoluteWithRegister) {
  Harness h;
  h.run({"ldi ra4, 0x38", "nop", "bra -, -, ra4+8", "nop", "nop", "nop", "ldi r0, 1", "ldi r1, 1",  // 0x30, 0x38
         "nop"});                                                                                   // 0x40: target
  EXPECT_EQ(h.q.acc[0].v[0], 0u);
  EXPECT_EQ(h.q.acc[1].v[0], 0u);
}

// Guide 3.2: program end executes two more instructions.
TEST(QpuSignals, ProgramEndDelaySlotsAndHostInterrupt) {
  Harness h;
  h.code.clear();
  for (uint64_t w : assemble("nop ; thrend\nldi r0, 5\nmov host_int, 1\nldi r1, 6\n")) h.code.push_back(decode(w));
  h.q.reset(0);
  int steps = 0;
  while (h.q.step() != QpuCore::Status::Ended) ++steps;
  EXPECT_EQ(steps, 2);
  EXPECT_EQ(h.q.acc[0].v[0], 5u);
  EXPECT_EQ(h.host_ints.size(), 1u);
  EXPECT_EQ(h.q.acc[1].v[0], 0u);  // not executed
}

TEST(QpuSignals, ThreadSwitchAndScoreboardAreNoOps) {
  Harness h;
  h.run({"ldi r0, 1", "nop ; thrsw", "nop ; sbwait", "nop ; sbdone", "nop ; lthrsw"});
  EXPECT_EQ(h.q.acc[0].v[0], 1u);
}

// Guide 3.4: semaphore instructions (0x74 in bits 63:57), 4-bit counters; acquire blocks at 0.
TEST(QpuSemaphore, IncrementDecrementAndBlock) {
  Harness h;
  h.run({"srel 3", "srel 3", "sacq 3"});
  EXPECT_EQ(h.sem[3], 1);
  h.code.clear();
  for (uint64_t w : assemble("sacq 7\nnop ; thrend\nnop\nnop\n")) h.code.push_back(decode(w));
  h.q.reset(0);
  EXPECT_EQ(h.q.step(), QpuCore::Status::Blocked);
  EXPECT_EQ(h.q.pc(), 0u);  // not executed
  h.sem[7] = 1;
  EXPECT_EQ(h.q.step(), QpuCore::Status::Ran);
  EXPECT_EQ(h.sem[7], 0);
}

// Guide 3.2: a register-file location written by one instruction cannot be read by the next.
TEST(QpuRules, ReadAfterWriteIsAnError) {
  Harness h;
  try {
    h.run({"ldi rb7, 3", "add r0, rb7, r1"});
    FAIL() << "no error";
  } catch (const QpuFault& e) {
    EXPECT_NE(std::string(e.what()).find("reads rb7 written by the previous instruction"), std::string::npos)
        << e.what();
    EXPECT_EQ(h.q.pc(), 8u);
  }
  Harness ok;  // one instruction in between is enough; accumulators have no such rule
  ok.run({"ldi rb7, 3", "nop", "add r0, rb7, r1", "ldi r1, 1", "add r2, r1, 1"});
  EXPECT_EQ(ok.q.acc[0].v[0], 3u);
  EXPECT_EQ(ok.q.acc[2].v[0], 2u);
}

// Guide 3.2/4: an SFU result is in r4 only from the third instruction after the write.
TEST(QpuRules, SfuResultTiming) {
  Harness h;
  h.run({"ldi r0, 4.0", "mov sfu_recipsqrt, r0", "nop", "nop", "mov r1, r4", "mov sfu_exp, r0", "nop", "nop",
         "mov r2, r4", "mov sfu_log, r0", "nop", "nop", "mov r3, r4", "mov sfu_recip, r0", "nop", "nop",
         "fadd r0, r4, r4"});
  EXPECT_EQ(bf(h.q.acc[1].v[0]), 0.5f);
  EXPECT_EQ(bf(h.q.acc[2].v[0]), 16.0f);
  EXPECT_EQ(bf(h.q.acc[3].v[0]), 2.0f);
  EXPECT_EQ(bf(h.q.acc[0].v[0]), 0.5f);
  Harness early;
  try {
    early.run({"mov sfu_recip, r0", "nop", "mov r1, r4"});
    FAIL() << "no error";
  } catch (const QpuFault& e) {
    EXPECT_NE(std::string(e.what()).find("reads r4 2 instruction(s) after an SFU write"), std::string::npos)
        << e.what();
    EXPECT_EQ(early.q.pc(), 16u);
  }
}

TEST(QpuRules, IllegalEncodings) {
  const uint64_t reserved_add = (uint64_t(SIG_NONE) << 60) | (uint64_t(W_NOP) << 38) | (uint64_t(W_NOP) << 32) |
                                (uint64_t(9) << 24) | (uint64_t(R_NOP) << 18) | (uint64_t(R_NOP) << 12);
  const uint64_t reserved_ldi = (uint64_t(SIG_LOAD_IMM) << 60) | (uint64_t(2) << 57);
  const uint64_t reserved_branch = (uint64_t(SIG_BRANCH) << 60) | (uint64_t(13) << 52);
  const uint64_t reserved_mul_pack = assemble_line("nop ; fmul r0, r1, r2") | (1ull << 56) | (9ull << 52);
  struct Case {
    uint64_t w;
    const char* why;
  } cases[] = {{reserved_add, "reserved add opcode"},
               {reserved_ldi, "reserved load-immediate type"},
               {reserved_branch, "reserved branch condition"},
               {reserved_mul_pack, "reserved mul pack mode"}};
  for (auto& c : cases) {
    Harness h;
    h.code = {decode(nop()), decode(c.w)};
    h.q.reset(0);
    h.q.step();
    try {
      h.q.step();
      FAIL() << "no error for " << c.why;
    } catch (const QpuFault& e) {
      EXPECT_NE(std::string(e.what()).find(c.why), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("illegal instruction 0x"), std::string::npos) << e.what();
      EXPECT_EQ(h.q.pc(), 8u);
    }
  }
}

TEST(QpuRules, RunningOffTheCodeMeetsABreakpoint) {
  Harness h;
  h.code = {decode(nop()), decode(0)};  // an all-zero word
  h.q.reset(0);
  h.q.step();
  try {
    h.q.step();
    FAIL() << "no error";
  } catch (const QpuFault& e) {
    EXPECT_NE(std::string(e.what()).find("run off its code"), std::string::npos) << e.what();
  }
}

TEST(QpuRules, UnmodelledIoIsAnError) {
  Harness h;
  EXPECT_THROW(h.run({"mov tlb_z, r0"}), QpuFault);
  EXPECT_THROW(h.run({"mov tmu0_t, r0"}), QpuFault);
  EXPECT_THROW(h.run({"mov r0, vary"}), QpuFault);
}

// Issue #26: both ALUs writing one accumulator in one instruction is legal (the guide's "Summary of
// Instruction Restrictions" has no such rule, nor does Mesa's vc4_qpu_validate.c). Each write
// applies per element under its own condition, the add ALU's first, the mul ALU's second. Values
// derived by hand: elem_num & 1 sets Z on even elements, so `mov.ifz r0, ra0` (100) fills the
// even elements and `mov.ifnz r0, rb0` (200) the odd ones; the old r0 (7) survives nowhere.
TEST(QpuDualWrite, ComplementaryConditionsMergePerElement) {
  Harness h;
  h.run({"ldi ra0, 100", "ldi rb0, 200", "mov r1, elem_num", "and.setf -, r1, 1",
         "mov.ifz r0, ra0 ; mov.ifnz r0, rb0",
         // Float ops under complementary conditions into r3: even elements i + i, odd ones i * 4.
         "itof r2, r1", "nop", "fadd.ifz r3, r2, r2 ; fmul.ifnz r3, r2, 4.0",
         // Only one condition holds anywhere: the other elements keep their old value (r2).
         "mov r1, r2", "mov.ifz r1, 1.0 ; nop"},
        [](QpuCore& q) {
          for (unsigned i = 0; i < 16; ++i) q.acc[0].v[i] = 7;
        });
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(h.q.acc[0].v[i], i % 2 == 0 ? 100u : 200u) << i;
    EXPECT_EQ(bf(h.q.acc[3].v[i]), i % 2 == 0 ? float(i) + float(i) : float(i) * 4.0f) << i;
    EXPECT_EQ(bf(h.q.acc[1].v[i]), i % 2 == 0 ? 1.0f : float(i)) << i;
  }
  // flops count per element whose condition held: 8 fadds + 8 fmuls, not 0 nor 32.
  EXPECT_EQ(h.q.flops, 16u);
}

// Where both conditions hold, the mul ALU's write (applied second) is the value that stays
// (assumption, docs/qpu.md "Rules"); a condition that holds nowhere writes nothing.
TEST(QpuDualWrite, BothConditionsHoldMulWriteStays) {
  Harness h;
  h.run({"ldi ra0, 100", "ldi rb0, 200", "nop", "mov r0, ra0 ; mov r0, rb0", "mov r1, ra0 ; mov.never r1, rb0"});
  for (unsigned i = 0; i < 16; ++i) {
    EXPECT_EQ(h.q.acc[0].v[i], 200u) << i;
    EXPECT_EQ(h.q.acc[1].v[i], 100u) << i;
  }
}

// The guide: one closely coupled peripheral access per instruction (TMU write/read, SFU write,
// mutex read, ...): two are an error naming both.
TEST(QpuRules, TwoCoupledAccessesInOneInstructionAreAnError) {
  Harness h;
  try {
    h.run({"mov sfu_recip, r0 ; mov sfu_exp, r1"});
    FAIL() << "no error";
  } catch (const QpuFault& e) {
    EXPECT_NE(std::string(e.what()).find("performs an SFU write and an SFU write in one instruction"),
              std::string::npos)
        << e.what();
  }
  Harness t;
  try {
    t.run({"mov sfu_recip, r0 ; ldtmu0"});
    FAIL() << "no error";
  } catch (const QpuFault& e) {
    EXPECT_NE(std::string(e.what()).find("an SFU write and a TMU read (ldtmu)"), std::string::npos) << e.what();
  }
}
