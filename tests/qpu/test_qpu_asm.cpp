// The QPU assembler and disassembler: known encodings, the disassembler's output assembling back
// to the same word (every instruction of the built-in programs and a list of forms), and located
// errors for bad assembly.
#include <gtest/gtest.h>

#include <iterator>

#include "models/qpu/qpu_isa.h"
#include "qpu/qpu_peak.h"
#include "qpu/qpu_reduce.h"
#include "qpu/qpu_sgemm.h"
#include "qpu/qpu_stride.h"
#include "sw/qpu/qpu_asm.h"

using namespace hetvp::qpu;

// Words that appear in hex dumps of published QPU programs (GPU_FFT's shaders): the nop, the
// program-end nop, and `mov r0, unif`.
TEST(QpuAsm, KnownEncodings) {
  EXPECT_EQ(assemble_line("nop"), 0x100009e7009e7000ull);
  EXPECT_EQ(assemble_line("nop ; thrend"), 0x300009e7009e7000ull);
  EXPECT_EQ(assemble_line("mov r0, unif"), 0x1002082715827d80ull);
  // Field positions (guide 3.1): sig 63:60, waddr_add 43:38, op_add 28:24, small immediate 17:12.
  const uint64_t w = assemble_line("fadd ra5, r1, 2.0");
  const Instr d = decode(w);
  EXPECT_EQ(d.sig, SIG_SMALL_IMM);
  EXPECT_EQ(d.op_add, A_FADD);
  EXPECT_EQ(d.waddr_add, 5);
  EXPECT_EQ(d.raddr_b, 33);
  EXPECT_EQ(d.add_a, MUX_R1);
  EXPECT_EQ(d.add_b, MUX_B);
  EXPECT_EQ(assemble_line("sacq 5") >> 57, 0x74u);
  EXPECT_EQ(assemble_line("srel 5") & 0x1f, 5u);
  EXPECT_EQ(assemble_line("sacq 5") & 0x1f, 0x15u);
  EXPECT_EQ(assemble_line("ldi r1, 0x12345678"), 0xe0024867'12345678ull);
  EXPECT_EQ(encode_branch(B_ALWAYS, true, -32) >> 60, 0xfu);
}

namespace {
template <size_t N>
void round_trip(const uint64_t (&code)[N], const char* name) {
  for (size_t i = 0; i < N; ++i) {
    const std::string text = disassemble(code[i], uint32_t(i * 8));
    uint64_t back = 0;
    try {
      back = assemble_line(text);
    } catch (const AsmError& e) {
      ADD_FAILURE() << name << "[" << i << "] `" << text << "`: " << e.what();
      continue;
    }
    EXPECT_EQ(back, code[i]) << name << "[" << i << "] `" << text << "` -> `" << disassemble(back) << "`";
  }
}
}  // namespace

TEST(QpuAsm, BuiltInProgramsRoundTrip) {
  round_trip(hetvp::qpu::programs::qpu_peak, "qpu_peak");
  round_trip(hetvp::qpu::programs::qpu_sgemm, "qpu_sgemm");
  round_trip(hetvp::qpu::programs::qpu_reduce, "qpu_reduce");
  round_trip(hetvp::qpu::programs::qpu_stride, "qpu_stride");
}

TEST(QpuAsm, FormsRoundTrip) {
  const char* forms[] = {
      "fadd.ifz.setf ra1, r0, rb2 ; fmul.ifnc rb3, r4, ra7",
      "add r0, r1, -16 ; mul24 r2, r3, r3",
      "nop ; v8muld r0, r1, r2 ; pm ; pack 8c",
      "or ra9, ra9, ra9 ; unpack 8d_rep ; pack 16as",
      "nop ; v8min r1, r2, r2 ; rot 7",
      "nop ; v8max r1, r2, r2 ; rot r5",
      "itof r0, r1, r1 ; ldtmu1",
      "mov vw_setup, ra3",
      "mov vr_setup, rb3",
      "mov tmu0_s, r1 ; thrsw",
      "mov r5rep, r0",
      "mov r5quad, r0",
      "nop ; read mutex_acq",
      "mov mutex_rel, 1",
      "fsub sfu_recip, r1, 0.5",
      "ldi.pes ra1, rb2, 0x0001ffff",
      "ldi.ifnn.setf r3, 0x80000000",
      "srel ra1, -, 15",
      "brr.anync ra31, -, -40",
      "bra.allz -, -, ra5+64",
      "clz r0, r1, r1 ; fmul r2, r2, 0.0078125",
  };
  for (const char* f : forms) {
    const uint64_t w = assemble_line(f);
    EXPECT_EQ(assemble_line(disassemble(w)), w) << f << " -> " << disassemble(w);
  }
}

TEST(QpuAsm, ErrorsNameTheLine) {
  struct Case {
    const char* text;
    const char* what;
  } cases[] = {
      {"nop\nfadd r0, r1\n", "prog:2: fadd takes a destination and two sources"},
      {"frobnicate r0, r1, r2\n", "prog:1: unknown signal or modifier"},
      {"add r0, rb1, rb2\n", "prog:1: two different regfile B reads"},
      {"add r0, r1, 99\n", "prog:1: '99' is not a register or a small immediate"},
      {"\n\nbrr :nowhere\n", "prog:3: undefined label 'nowhere'"},
      {"fadd ra1, r0, r0 ; fmul ra2, r0, r0\n", "the add and mul destinations need the same register file"},
      {"sacq 16\n", "semaphore number must be 0..15"},
      {"ldi r0, 0x1ffffffff\n", "bad immediate"},
      {":a\n:a\nnop\n", "prog:2: label 'a' defined twice"},
      {".rep 2\nnop\n", "prog:1: .rep without .endr"},
      {"nop ; ldtmu0 ; thrend\n", "two signals in one instruction"},
      {"add r0, r1, 3 ; ldtmu0\n", "a signal and a small immediate"},
      {"mov r5, r0\n", "write r5 as r5quad"},
      {"add r0, ra1, ra2\n", "two different regfile A reads"},
  };
  for (auto& c : cases) {
    try {
      assemble(c.text, "prog");
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const AsmError& e) {
      EXPECT_NE(std::string(e.what()).find(c.what), std::string::npos) << e.what();
    }
  }
}

TEST(QpuAsm, LabelsRepAndSet) {
  std::map<std::string, uint32_t> labels;
  const auto code = assemble(".set cnt, ra3\n:top\n.rep 3\nadd cnt, cnt, 1\n.endr\nbrr :top\nend:\n", "p", &labels);
  ASSERT_EQ(code.size(), 4u);
  EXPECT_EQ(labels.at("top"), 0u);
  EXPECT_EQ(labels.at("end"), 32u);
  EXPECT_EQ(decode(code[0]).waddr_add, 3);
  EXPECT_EQ(int32_t(decode(code[3]).imm), -(24 + 32));  // relative to the branch's pc + 4 instructions
}
