// hetvp tests — RV32IMC instruction semantics on the ISS (programs encoded in C++).
#include "rv32_asm.h"

#include <gtest/gtest.h>

using namespace rv32test;
using hetvp::mcu::rv32::CSR_MCYCLE;

namespace {
constexpr uint32_t D = Harness::kDmem;
}

// Our compressed encoder must agree with GNU as (reference bits from riscv64-unknown-elf-as).
TEST(Rv32Encoder, CompressedMatchesGnuAs) {
  EXPECT_EQ(c_addi4spn(8, 1020), 0x1fe0);
  EXPECT_EQ(c_lw(15, 9, 124), 0x5cfc);
  EXPECT_EQ(c_sw(12, 10, 64), 0xc130);
  EXPECT_EQ(c_nop(), 0x0001);
  EXPECT_EQ(c_addi(10, -32), 0x1501);
  EXPECT_EQ(c_jal(2046), 0x2ffd);
  EXPECT_EQ(c_jal(-2048), 0x3001);
  EXPECT_EQ(c_li(6, 31), 0x437d);
  EXPECT_EQ(c_addi16sp(-512), 0x7101);
  EXPECT_EQ(c_addi16sp(496), 0x617d);
  EXPECT_EQ(c_lui(13, -32), 0x7681);
  EXPECT_EQ(c_lui(13, 31), 0x66fd);
  EXPECT_EQ(c_srli(9, 31), 0x80fd);
  EXPECT_EQ(c_srai(14, 1), 0x8705);
  EXPECT_EQ(c_andi(15, -17), 0x9bbd);
  EXPECT_EQ(c_sub(8, 15), 0x8c1d);
  EXPECT_EQ(c_xor(9, 14), 0x8cb9);
  EXPECT_EQ(c_or(10, 11), 0x8d4d);
  EXPECT_EQ(c_and(12, 13), 0x8e75);
  EXPECT_EQ(c_j(-1024), 0xb101);
  EXPECT_EQ(c_beqz(10, -256), 0xd101);
  EXPECT_EQ(c_bnez(15, 254), 0xeffd);
  EXPECT_EQ(c_slli(7, 17), 0x03c6);
  EXPECT_EQ(c_lwsp(1, 252), 0x50fe);
  EXPECT_EQ(c_swsp(27, 188), 0xdf6e);
  EXPECT_EQ(c_jr(5), 0x8282);
  EXPECT_EQ(c_mv(10, 31), 0x857e);
  EXPECT_EQ(c_ebreak(), 0x9002);
  EXPECT_EQ(c_jalr(17), 0x9882);
  EXPECT_EQ(c_add(18, 19), 0x994e);
}

TEST(Rv32Isa, AluImmediate) {
  Harness h;
  h.e(addi(1, 0, 100))
      .e(addi(2, 1, -200))
      .e(slti(3, 2, 0))
      .e(sltiu(4, 2, 5))
      .e(sltiu(5, 1, -1))
      .e(xori(6, 1, -1))
      .e(ori(7, 1, 0x0f0))
      .e(andi(8, 2, 0xff))
      .e(lui(9, 0xdeadb000))
      .e(auipc(10, 0x1000))
      .e(addi(0, 1, 5))  // write to x0 is dropped
      .end();
  auto r = h.run();
  EXPECT_EQ(r.reason, RunResult::Reason::breakpoint);
  EXPECT_EQ(h.x(1), 100u);
  EXPECT_EQ(h.x(2), static_cast<uint32_t>(-100));
  EXPECT_EQ(h.x(3), 1u);
  EXPECT_EQ(h.x(4), 0u);  // unsigned -100 is huge
  EXPECT_EQ(h.x(5), 1u);  // 100 < 0xffffffff
  EXPECT_EQ(h.x(6), ~100u);
  EXPECT_EQ(h.x(7), 100u | 0xf0u);
  EXPECT_EQ(h.x(8), static_cast<uint32_t>(-100) & 0xffu);
  EXPECT_EQ(h.x(9), 0xdeadb000u);
  EXPECT_EQ(h.x(10), 0x1000u + 9 * 4);
  EXPECT_EQ(h.x(0), 0u);
  EXPECT_EQ(r.instructions, 11u);
}

TEST(Rv32Isa, AluRegisterAndShifts) {
  Harness h;
  h.li(1, 0x80000010)
      .li(2, 4)
      .li(3, 0xffffff00)
      .e(add(4, 1, 2))
      .e(sub(5, 2, 1))
      .e(sll(6, 1, 2))
      .e(srl(7, 1, 2))
      .e(sra(8, 1, 2))
      .e(slt(9, 1, 2))
      .e(sltu(10, 1, 2))
      .e(xor_(11, 1, 3))
      .e(or_(12, 1, 2))
      .e(and_(13, 1, 3))
      .e(slli(14, 1, 31))
      .e(srli(15, 1, 31))
      .e(srai(16, 1, 31))
      .li(17, 33)
      .e(sll(18, 2, 17))  // shift amount uses the low 5 bits only
      .end();
  h.run();
  EXPECT_EQ(h.x(4), 0x80000014u);
  EXPECT_EQ(h.x(5), 4u - 0x80000010u);
  EXPECT_EQ(h.x(6), 0x00000100u);
  EXPECT_EQ(h.x(7), 0x08000001u);
  EXPECT_EQ(h.x(8), 0xf8000001u);
  EXPECT_EQ(h.x(9), 1u);
  EXPECT_EQ(h.x(10), 0u);
  EXPECT_EQ(h.x(11), 0x7fffff10u);
  EXPECT_EQ(h.x(12), 0x80000014u);
  EXPECT_EQ(h.x(13), 0x80000000u);
  EXPECT_EQ(h.x(14), 0u);
  EXPECT_EQ(h.x(15), 1u);
  EXPECT_EQ(h.x(16), 0xffffffffu);
  EXPECT_EQ(h.x(18), 8u);
}

TEST(Rv32Isa, BranchesTakenAndNotTaken) {
  // Each branch either skips an "addi x20, x20, 1" (taken) or not; x21 counts taken ones.
  struct Case {
    uint32_t (*f)(uint32_t, uint32_t, int32_t);
    uint32_t a, b;
    bool taken;
  };
  const Case cases[] = {
      {beq, 5, 5, true},           {beq, 5, 6, false},
      {bne, 5, 6, true},           {bne, 5, 5, false},
      {blt, 0xffffffff, 1, true},  {blt, 1, 0xffffffff, false},
      {bge, 1, 0xffffffff, true},  {bge, 0xffffffff, 1, false},
      {bltu, 1, 0xffffffff, true}, {bltu, 0xffffffff, 1, false},
      {bgeu, 0xffffffff, 1, true}, {bgeu, 3, 3, true},
  };
  for (const auto& c : cases) {
    Harness h;
    h.li(1, c.a).li(2, c.b).e(c.f(1, 2, 12)).e(addi(20, 0, 1)).e(addi(20, 20, 1)).end();
    auto r = h.run();
    EXPECT_EQ(h.x(20), c.taken ? 0u : 2u) << "a=" << c.a << " b=" << c.b;
    // cycles: 4 ALU + branch (taken 2 / not taken 1 + 2 addi); the debug ebreak is not executed
    EXPECT_EQ(r.cycles, c.taken ? 4u + 2u : 4u + 1u + 2u);
  }
  // backward branch loop: sum 1..10
  Harness h;
  h.e(addi(1, 0, 10)).e(addi(2, 0, 0)).e(add(2, 2, 1)).e(addi(1, 1, -1)).e(bne(1, 0, -8)).end();
  h.run();
  EXPECT_EQ(h.x(2), 55u);
}

TEST(Rv32Isa, JalAndJalrClearLowestBit) {
  Harness h;
  h.e(jal(1, 12))        // 0x00 -> 0x0c, ra = 4
      .e(addi(5, 0, 1))  // 0x04 (skipped)
      .e(ebreak())       // 0x08
      .li(6, 0x21)       // 0x0c,0x10: odd target 0x21 -> 0x20
      .e(jalr(7, 6, 0))  // 0x14 -> 0x20, x7 = 0x18
      .e(addi(5, 0, 2))  // 0x18 (skipped)
      .e(ebreak())       // 0x1c
      .e(jalr(8, 6, 3))  // 0x20: target (0x21+3)&~1 = 0x24, x8 = 0x24
      .e(addi(9, 0, 9))  // 0x24
      .e(jalr(0, 1, 4))  // 0x28: back to ra+4 = 0x08 (ebreak)
      ;
  auto r = h.run();
  EXPECT_EQ(r.reason, RunResult::Reason::breakpoint);
  EXPECT_EQ(h.core.read_pc(), 0x08u);
  EXPECT_EQ(h.x(1), 4u);
  EXPECT_EQ(h.x(5), 0u);
  EXPECT_EQ(h.x(7), 0x18u);
  EXPECT_EQ(h.x(8), 0x24u);
  EXPECT_EQ(h.x(9), 9u);
  // jalr with rd == rs1 uses the old rs1
  Harness g;
  g.li(3, 0x10).e(jalr(3, 3, 0)).e(ebreak()).e(ebreak());
  g.run();
  EXPECT_EQ(g.core.read_pc(), 0x10u);
  EXPECT_EQ(g.x(3), 0x0cu);
}

TEST(Rv32Isa, LoadsAndStoresAllWidthsWithSignExtension) {
  Harness h;
  h.set_dword(D + 0x100, 0x8081f2f3);
  h.li(1, D + 0x100)
      .e(lb(2, 1, 0))
      .e(lbu(3, 1, 0))
      .e(lb(4, 1, 3))
      .e(lh(5, 1, 0))
      .e(lhu(6, 1, 0))
      .e(lh(7, 1, 2))
      .e(lw(8, 1, 0))
      .li(9, 0x11223344)
      .e(sw(9, 1, 16))
      .e(sh(9, 1, 20))
      .e(sb(9, 1, 24))
      .e(sb(9, 1, 27))
      .e(sh(9, 1, 30))
      .e(lw(10, 1, -256 + 0x100))  // negative/positive offsets: D + 0x100 again
      .end();
  h.run();
  EXPECT_EQ(h.x(2), 0xfffffff3u);
  EXPECT_EQ(h.x(3), 0xf3u);
  EXPECT_EQ(h.x(4), 0xffffff80u);
  EXPECT_EQ(h.x(5), 0xfffff2f3u);
  EXPECT_EQ(h.x(6), 0xf2f3u);
  EXPECT_EQ(h.x(7), 0xffff8081u);
  EXPECT_EQ(h.x(8), 0x8081f2f3u);
  EXPECT_EQ(h.dword(D + 0x110), 0x11223344u);
  EXPECT_EQ(h.dword(D + 0x114), 0x00003344u);
  EXPECT_EQ(h.dword(D + 0x118), 0x44000044u);
  EXPECT_EQ(h.dword(D + 0x11c), 0x33440000u);
  EXPECT_EQ(h.x(10), 0x8081f2f3u);
}

TEST(Rv32Isa, LoadsFromCodeMemoryAndMmioThroughBus) {
  Harness h;
  h.bus.regs[0x40 / 4] = 0xcafef00d;
  h.bus.latency = 7;
  h.li(1, 0x20040)
      .e(lw(2, 1, 0))
      .e(lhu(3, 1, 2))
      .e(lw(4, 0, 0))  // x4 = first code word (lui)
      .li(5, 0x5555)
      .e(sw(5, 1, 4))
      .end();
  auto r = h.run();
  EXPECT_EQ(h.x(2), 0xcafef00du);
  EXPECT_EQ(h.x(3), 0xcafeu);
  EXPECT_EQ(h.x(4), lui(1, 0x20000));
  EXPECT_EQ(h.bus.regs[0x44 / 4], 0x5555u);
  EXPECT_EQ(h.bus.reads, 2);
  EXPECT_EQ(h.bus.writes, 1);
  // 3 bus accesses x 7 extra cycles are charged
  // li 2 + three loads 3*2 + li 2 + sw 1 = 11, plus 3 bus accesses x 7 extra cycles
  EXPECT_EQ(r.cycles, 11u + 3 * 7);
  EXPECT_EQ(r.instructions, 8u);
}

TEST(Rv32Isa, MultiplyDivideIncludingCornerCases) {
  Harness h;
  h.li(1, 0x80000000)
      .li(2, 0xffffffff)
      .li(3, 7)
      .li(4, 0xfffffff9) /* -7 */.li(5, 2)
      .e(mul(10, 3, 4))
      .e(mulh(11, 4, 3))
      .e(mulhu(12, 2, 2))
      .e(mulhsu(13, 4, 2))
      .e(div_(14, 4, 5))
      .e(rem(15, 4, 5))
      .e(divu(16, 4, 5))
      .e(remu(17, 4, 5))
      .e(div_(18, 3, 0))
      .e(divu(19, 3, 0))
      .e(rem(20, 3, 0))
      .e(remu(21, 3, 0))
      .e(div_(22, 1, 2))
      .e(rem(23, 1, 2))
      .e(mulh(24, 1, 1))
      .e(mul(25, 1, 1))
      .end();
  h.run();
  EXPECT_EQ(h.x(10), static_cast<uint32_t>(-49));
  EXPECT_EQ(h.x(11), 0xffffffffu);                // high word of -49
  EXPECT_EQ(h.x(12), 0xfffffffeu);                // (2^32-1)^2 >> 32
  EXPECT_EQ(h.x(13), 0xfffffff9u);                // -7 * (2^32-1) >> 32 = -7 + carry... = 0xfffffff9
  EXPECT_EQ(h.x(14), static_cast<uint32_t>(-3));  // rounds toward zero
  EXPECT_EQ(h.x(15), static_cast<uint32_t>(-1));
  EXPECT_EQ(h.x(16), 0xfffffff9u / 2);
  EXPECT_EQ(h.x(17), 1u);
  EXPECT_EQ(h.x(18), 0xffffffffu);  // div by zero -> -1
  EXPECT_EQ(h.x(19), 0xffffffffu);  // divu by zero -> 2^32-1
  EXPECT_EQ(h.x(20), 7u);           // rem by zero -> dividend
  EXPECT_EQ(h.x(21), 7u);
  EXPECT_EQ(h.x(22), 0x80000000u);  // overflow: INT_MIN / -1 = INT_MIN
  EXPECT_EQ(h.x(23), 0u);           // INT_MIN % -1 = 0
  EXPECT_EQ(h.x(24), 0x40000000u);  // (-2^31)^2 >> 32
  EXPECT_EQ(h.x(25), 0u);
}

TEST(Rv32Isa, CompressedQuadrant0And2StackOps) {
  Harness h;
  h.li(2, D + 0x800)         // sp
      .c(c_addi4spn(8, 16))  // s0 = sp + 16
      .c(c_li(9, -5))        // s1 = -5 (c.li, quadrant 1)
      .c(c_sw(9, 8, 4))      // [s0+4] = -5
      .c(c_lw(10, 8, 4))     // a0 = [s0+4]
      .c(c_swsp(10, 252))    // [sp+252] = a0
      .c(c_lwsp(11, 252))    // a1 = [sp+252]
      .c(c_addi16sp(-64))    // sp -= 64
      .c(c_addi16sp(32))     // sp += 32
      .c(c_mv(12, 2))        // a2 = sp
      .c(c_add(12, 9))       // a2 += s1
      .c(c_slli(12, 4))
      .c(c_nop())
      .c(c_ebreak());
  auto r = h.run();
  EXPECT_EQ(r.reason, RunResult::Reason::breakpoint);
  EXPECT_EQ(h.x(8), D + 0x810);
  EXPECT_EQ(h.dword(D + 0x814), static_cast<uint32_t>(-5));
  EXPECT_EQ(h.x(10), static_cast<uint32_t>(-5));
  EXPECT_EQ(h.dword(D + 0x800 + 252), static_cast<uint32_t>(-5));
  EXPECT_EQ(h.x(11), static_cast<uint32_t>(-5));
  EXPECT_EQ(h.x(2), D + 0x800 - 32);
  EXPECT_EQ(h.x(12), (D + 0x800 - 32 - 5) << 4);
  EXPECT_EQ(r.instructions, 2u + 12u);
}

TEST(Rv32Isa, CompressedQuadrant1ArithmeticAndLui) {
  Harness h;
  h.c(c_li(8, 31))
      .c(c_addi(8, -32))  // s0 = -1
      .c(c_li(9, 12))
      .c(c_li(10, 10))
      .c(c_sub(9, 10))  // s1 = 2
      .c(c_li(11, 6))
      .c(c_li(12, 3))
      .c(c_xor(11, 12))  // 5
      .c(c_li(13, 4))
      .c(c_or(13, 12))  // 7
      .c(c_li(14, 6))
      .c(c_and(14, 12))  // 2
      .c(c_mv(15, 8))
      .c(c_srli(15, 28))  // 0xf
      .c(c_mv(8, 8))
      .c(c_srai(8, 4))  // -1
      .c(c_li(12, -1))
      .c(c_andi(12, 0x15))  // 0x15
      .c(c_lui(10, -32))    // a0 = 0xfffe0000
      .c(c_lui(6, 1))       // t1 = 0x1000
      .c(c_ebreak());
  h.run();
  EXPECT_EQ(h.x(8), 0xffffffffu);
  EXPECT_EQ(h.x(9), 2u);
  EXPECT_EQ(h.x(11), 5u);
  EXPECT_EQ(h.x(13), 7u);
  EXPECT_EQ(h.x(14), 2u);
  EXPECT_EQ(h.x(15), 0xfu);
  EXPECT_EQ(h.x(12), 0x15u);
  EXPECT_EQ(h.x(10), 0xfffe0000u);
  EXPECT_EQ(h.x(6), 0x1000u);
}

TEST(Rv32Isa, CompressedJumpsAndBranches) {
  Harness h;
  h.c(c_jal(8))          // 0x00 -> 0x08, ra = 2
      .c(c_li(20, 1))    // 0x02 (skipped)
      .c(c_ebreak())     // 0x04 <- final stop
      .c(c_nop())        // 0x06
      .c(c_li(8, 0))     // 0x08
      .c(c_beqz(8, 6))   // 0x0a -> 0x10 (taken)
      .c(c_li(21, 1))    // 0x0c (skipped)
      .c(c_nop())        // 0x0e
      .c(c_bnez(8, 4))   // 0x10 not taken
      .c(c_li(22, 1))    // 0x12 executed
      .c(c_j(4))         // 0x14 -> 0x18
      .c(c_li(23, 1))    // 0x16 (skipped)
      .c(c_li(9, 0x1e))  // 0x18 s1 = 0x1e
      .c(c_jalr(9))      // 0x1a -> 0x1e, ra = 0x1c
      .c(c_ebreak())     // 0x1c
      .c(c_mv(24, 1))    // 0x1e x24 = ra (0x1c)
      .c(c_li(1, 2))     // 0x20
      .c(c_addi(1, 2))   // 0x22 ra = 4
      .c(c_jr(1));       // 0x24 -> 0x04
  auto r = h.run();
  EXPECT_EQ(r.reason, RunResult::Reason::breakpoint);
  EXPECT_EQ(h.core.read_pc(), 0x04u);
  EXPECT_EQ(h.x(20), 0u);
  EXPECT_EQ(h.x(21), 0u);
  EXPECT_EQ(h.x(22), 1u);
  EXPECT_EQ(h.x(23), 0u);
  EXPECT_EQ(h.x(24), 0x1cu);
}

TEST(Rv32Isa, MixedCompressedAnd32BitInstructions) {
  Harness h;
  h.c(c_li(10, 3)).e(addi(11, 10, 100)).c(c_addi(11, 1)).e(slli(11, 11, 1)).c(c_ebreak());
  h.run();
  EXPECT_EQ(h.x(11), 208u);
  EXPECT_EQ(h.core.read_pc(), 12u);
}

TEST(Rv32Isa, ReservedCompressedEncodingsAreIllegal) {
  for (uint16_t bad : {uint16_t(0x0000), c_addi16sp(0) /*nzimm 0*/, uint16_t(c_lwsp(0, 4)), uint16_t(c_jr(0)),
                       uint16_t(0x2000) /*c.fld*/, uint16_t(c_lui(5, 0))}) {
    Harness h;
    h.core.set_debug_mode(false);
    h.org(0x100).e(jal(0, 0));  // handler: spin
    h.org(0).li(1, 0x100).e(csrrw(0, 0x305, 1)).c(bad);
    h.run(50);
    EXPECT_EQ(h.core.read_pc(), 0x100u);
    EXPECT_EQ(h.csr(0x342), 2u) << std::hex << bad;
    EXPECT_EQ(h.csr(0x343), bad) << std::hex << bad;
  }
}

TEST(Rv32Isa, CsrReadWriteSetClearAndImmediates) {
  Harness h;
  h.li(1, 0xf0f0)
      .e(csrrw(2, 0x340, 1))  // mscratch = 0xf0f0, x2 = 0
      .li(3, 0x0f00)
      .e(csrrs(4, 0x340, 3))  // mscratch |= 0x0f00, x4 = 0xf0f0
      .li(5, 0x00f0)
      .e(csrrc(6, 0x340, 5))  // mscratch &= ~0xf0, x6 = 0xfff0
      .e(csrrs(7, 0x340, 0))  // read only
      .e(csrrwi(8, 0x340, 0x1f))
      .e(csrrsi(9, 0x340, 0x20 - 0x20 + 0x0))  // csrrsi with 0: no write
      .e(csrrsi(10, 0x340, 0x10))
      .e(csrrci(11, 0x340, 0x3))
      .e(csrrs(12, 0x340, 0))
      .e(csrrs(13, 0x301, 0))  // misa
      .e(csrrs(14, 0xf14, 0))  // mhartid
      .e(csrrs(15, 0xc02, 0))  // instret (read-only alias)
      .e(csrrs(16, 0xb00, 0))  // mcycle
      .e(csrrs(17, 0xc00, 0))  // cycle
      .end();
  h.core.set_hart_id(3);
  h.run();
  EXPECT_EQ(h.x(2), 0u);
  EXPECT_EQ(h.x(4), 0xf0f0u);
  EXPECT_EQ(h.x(6), 0xfff0u);
  EXPECT_EQ(h.x(7), 0xff00u);
  EXPECT_EQ(h.x(8), 0xff00u);
  EXPECT_EQ(h.x(9), 0x1fu);
  EXPECT_EQ(h.x(10), 0x1fu);
  EXPECT_EQ(h.x(11), 0x1fu);
  EXPECT_EQ(h.x(12), 0x1cu);
  EXPECT_EQ(h.x(13), 0x40001104u);  // RV32 I M C
  EXPECT_EQ(h.x(14), 3u);
  EXPECT_EQ(h.x(15), 17u);  // instructions retired before it
  EXPECT_GE(h.x(16), h.x(15));
  EXPECT_GE(h.x(17), h.x(16));
}

TEST(Rv32Isa, WritingReadOnlyOrUnknownCsrIsIllegal) {
  for (uint32_t insn : {csrrw(1, 0xc00, 2), csrrwi(1, 0xf14, 1), csrrs(1, 0xc02, 3), csrrw(1, 0x7c0, 2)}) {
    Harness h;
    h.org(0x200).e(ebreak());  // handler
    h.org(0).li(5, 0x200).e(csrrw(0, 0x305, 5)).e(addi(3, 0, 1)).e(insn).end();
    auto r = h.run();
    EXPECT_EQ(r.reason, RunResult::Reason::breakpoint);
    EXPECT_EQ(h.core.read_pc(), 0x200u) << std::hex << insn;
    EXPECT_EQ(h.csr(0x342), 2u);
    EXPECT_EQ(h.csr(0x343), insn);
    EXPECT_EQ(h.csr(0x341), 16u);
  }
  // reading a read-only CSR with csrrs x0 is fine
  Harness h;
  h.e(csrrs(1, 0xc00, 0)).end();
  h.run();
  EXPECT_EQ(h.core.read_pc(), 4u);
}

TEST(Rv32Isa, SelfModifyingCodeIsSeenAfterStore) {
  Harness h;
  // Execute the insn at 0x40 once (addi x5,x0,1), overwrite it with addi x5,x0,2, execute again.
  h.org(0x40).e(addi(5, 0, 1)).e(jalr(0, 1, 0));
  h.org(0)
      .e(jal(1, 0x40))         // 0x00 -> call 0x40
      .e(add(6, 0, 5))         // 0x04 x6 = 1
      .li(7, addi(5, 0, 2))    // 0x08,0x0c
      .e(sw(7, 0, 0x40))       // 0x10 store into code memory
      .e(jal(1, 0x40 - 0x14))  // 0x14 call again
      .e(add(8, 0, 5))         // 0x18 x8 = 2
      .end();
  h.run();
  EXPECT_EQ(h.x(6), 1u);
  EXPECT_EQ(h.x(8), 2u);
}

TEST(Rv32Isa, HostWriteNeedsInvalidateCode) {
  Harness h;
  h.e(addi(5, 5, 1)).end();
  h.run();
  EXPECT_EQ(h.x(5), 1u);
  const uint32_t n = addi(5, 5, 10);
  std::memcpy(&h.imem[0], &n, 4);  // host upload behind the core's back
  h.core.invalidate_code(0, 4);
  h.core.write_pc(0);
  h.run();
  EXPECT_EQ(h.x(5), 11u);
}

TEST(Rv32Isa, FenceIAndFenceAreAccepted) {
  Harness h;
  h.e(fence()).e(fence_i()).e(addi(1, 0, 1)).end();
  auto r = h.run();
  EXPECT_EQ(r.reason, RunResult::Reason::breakpoint);
  EXPECT_EQ(h.x(1), 1u);
}

TEST(Rv32Isa, SltiuSignExtendsTheImmediateBeforeTheUnsignedCompare) {
  Harness h;
  h.li(1, 0x1000)
      .e(sltiu(2, 1, -1))     // 0x1000 < 0xffffffff
      .e(sltiu(3, 1, -2048))  // 0x1000 < 0xfffff800
      .e(sltiu(4, 1, 0x7ff))  // 0x1000 < 0x7ff is false
      .end();
  h.run();
  EXPECT_EQ(h.x(2), 1u);
  EXPECT_EQ(h.x(3), 1u);
  EXPECT_EQ(h.x(4), 0u);
}

TEST(Rv32Isa, CompressedAddi4spnUsesEveryImmediateBit) {
  Harness h;
  h.li(2, D)
      .c(c_addi4spn(8, 1020))  // all of nzuimm[9:2]
      .c(c_addi4spn(9, 64))    // nzuimm[6] only
      .c(c_addi4spn(10, 512))  // nzuimm[9] only
      .c(c_addi4spn(11, 4))    // nzuimm[2] only
      .c(c_addi4spn(12, 8))    // nzuimm[3] only
      .c(c_ebreak());
  h.run();
  EXPECT_EQ(h.x(8), D + 1020);
  EXPECT_EQ(h.x(9), D + 64);
  EXPECT_EQ(h.x(10), D + 512);
  EXPECT_EQ(h.x(11), D + 4);
  EXPECT_EQ(h.x(12), D + 8);
}

TEST(Rv32Isa, CompressedShiftWithShamt5IsIllegal) {
  // shamt[5] (bit 12 of c.srli/c.srai/c.slli, bit 25 of slli/srli/srai) is reserved on RV32
  for (uint32_t bad : {uint32_t(c_srli(9, 1) | (1u << 12)), uint32_t(c_srai(9, 1) | (1u << 12)),
                       uint32_t(c_slli(9, 1) | (1u << 12))}) {
    Harness h;
    h.core.set_debug_mode(false);
    h.org(0x100).e(jal(0, 0));  // handler: spin
    h.org(0).li(1, 0x100).e(csrrw(0, 0x305, 1)).c(static_cast<uint16_t>(bad));
    h.run(50);
    EXPECT_EQ(h.core.read_pc(), 0x100u) << std::hex << bad;
    EXPECT_EQ(h.csr(0x342), 2u) << std::hex << bad;
    EXPECT_EQ(h.csr(0x343), bad) << std::hex << bad;
    EXPECT_EQ(h.csr(0x341), 12u) << std::hex << bad;
  }
}

TEST(Rv32Isa, ShiftImmediateWithShamt5IsIllegal) {
  for (uint32_t bad : {slli(9, 9, 32), srli(9, 9, 33), srai(9, 9, 32)}) {
    Harness h;
    h.core.set_debug_mode(false);
    h.org(0x100).e(jal(0, 0));
    h.org(0).li(1, 0x100).e(csrrw(0, 0x305, 1)).e(bad);
    h.run(50);
    EXPECT_EQ(h.core.read_pc(), 0x100u) << std::hex << bad;
    EXPECT_EQ(h.csr(0x342), 2u) << std::hex << bad;
    EXPECT_EQ(h.csr(0x343), bad) << std::hex << bad;
  }
}

TEST(Rv32Isa, CsrrcClearsOnlyTheGivenBitsAndLeavesClearBitsClear) {
  Harness h;
  h.li(1, 0x0f0f)
      .e(csrrw(0, 0x340, 1))  // mscratch = 0x0f0f
      .li(2, 0x00ff)
      .e(csrrc(3, 0x340, 2))  // bits 0..3 clear, bits 4..7 were already 0
      .e(csrrs(4, 0x340, 0))
      .e(csrrwi(0, 0x340, 0x05))
      .e(csrrci(5, 0x340, 0x1f))  // clear 0x1f from 0x05: 0, not 0x1a
      .e(csrrs(6, 0x340, 0))
      .end();
  h.run();
  EXPECT_EQ(h.x(3), 0x0f0fu);
  EXPECT_EQ(h.x(4), 0x0f00u);
  EXPECT_EQ(h.x(5), 0x05u);
  EXPECT_EQ(h.x(6), 0u);
}

TEST(Rv32Isa, SetOrClearWithZeroOperandReadsReadOnlyCsrWithoutTrapping) {
  // csrrs/csrrc with rs1 = x0 and csrrsi/csrrci with uimm = 0 do not write, so a read-only CSR is fine
  for (uint32_t insn : {csrrs(1, 0xf14, 0), csrrc(1, 0xf14, 0), csrrsi(1, 0xf14, 0), csrrci(1, 0xf14, 0)}) {
    Harness h;
    h.org(0x200).e(ebreak());  // handler
    h.org(0).li(5, 0x200).e(csrrw(0, 0x305, 5)).e(insn).end();
    h.core.set_hart_id(7);
    auto r = h.run();
    EXPECT_EQ(r.reason, RunResult::Reason::breakpoint);
    EXPECT_EQ(h.core.read_pc(), 16u) << std::hex << insn;
    EXPECT_EQ(h.x(1), 7u) << std::hex << insn;
  }
}
