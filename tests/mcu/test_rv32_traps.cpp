// hetvp tests — RV32 traps, interrupts, wfi, fatal halts, cycle costs, breakpoints, DMI on/off.
#include "rv32_asm.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

using namespace rv32test;
using hetvp::mcu::CoreState;
using hetvp::mcu::IrqLine;
using Reason = hetvp::mcu::RunResult::Reason;

namespace {
constexpr uint32_t D = Harness::kDmem;
constexpr uint32_t MSTATUS = 0x300, MIE = 0x304, MTVEC = 0x305, MEPC = 0x341, MCAUSE = 0x342, MTVAL = 0x343;
constexpr uint32_t kHandler = 0x400;

// Installs mtvec = kHandler (+mode) using x31; 12 bytes.
void install_handler(Harness& h, uint32_t mode = 0) { h.li(31, kHandler | mode).e(csrrw(0, MTVEC, 31)); }
}  // namespace

TEST(Rv32Trap, IllegalInstructionSetsCauseTvalEpc) {
  Harness h;
  h.org(kHandler).e(ebreak());
  h.org(0);
  install_handler(h);
  h.e(addi(1, 0, 1)).e(0xffffffffu).e(addi(1, 0, 2));
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.core.read_pc(), kHandler);
  EXPECT_EQ(h.csr(MCAUSE), 2u);
  EXPECT_EQ(h.csr(MTVAL), 0xffffffffu);
  EXPECT_EQ(h.csr(MEPC), 16u);
  EXPECT_EQ(h.x(1), 1u);
  EXPECT_EQ(h.core.state(), CoreState::running);
}

TEST(Rv32Trap, MisalignedLoadAndStore) {
  struct Case {
    uint32_t insn;
    uint32_t cause;
    uint32_t tval;
  };
  const Case cases[] = {{lw(2, 1, 1), 4, D + 1},
                        {lh(2, 1, 3), 4, D + 3},
                        {lhu(2, 1, 1), 4, D + 1},
                        {sw(2, 1, 2), 6, D + 2},
                        {sh(2, 1, 1), 6, D + 1}};
  for (const auto& c : cases) {
    Harness h;
    h.org(kHandler).e(ebreak());
    h.org(0);
    install_handler(h);
    h.li(1, D).e(c.insn).end();
    h.run();
    EXPECT_EQ(h.core.read_pc(), kHandler);
    EXPECT_EQ(h.csr(MCAUSE), c.cause);
    EXPECT_EQ(h.csr(MTVAL), c.tval);
    EXPECT_EQ(h.csr(MEPC), 20u);
  }
  // byte accesses are never misaligned
  Harness h;
  h.li(1, D + 3).e(lb(2, 1, 0)).e(sb(2, 1, 0)).end();
  h.run();
  EXPECT_EQ(h.core.read_pc(), 16u);
}

TEST(Rv32Trap, AccessFaultsFromBusAndUnmappedFetch) {
  {
    Harness h;  // load from BAR0 window: MockBus returns false there
    h.org(kHandler).e(ebreak());
    h.org(0);
    install_handler(h);
    h.li(1, 0x01000010).e(lw(2, 1, 0)).end();
    h.run();
    EXPECT_EQ(h.csr(MCAUSE), 5u);
    EXPECT_EQ(h.csr(MTVAL), 0x01000010u);
    EXPECT_EQ(h.bus.reads, 1);
  }
  {
    Harness h;
    h.org(kHandler).e(ebreak());
    h.org(0);
    install_handler(h);
    h.li(1, 0x01000010).e(sb(2, 1, 1)).end();
    h.run();
    EXPECT_EQ(h.csr(MCAUSE), 7u);
    EXPECT_EQ(h.csr(MTVAL), 0x01000011u);
  }
  {
    Harness h;  // store to a read-only region
    std::vector<uint8_t> rom(256, 0);
    h.core.add_region({0x30000, 256, rom.data(), false, false});
    h.org(kHandler).e(ebreak());
    h.org(0);
    install_handler(h);
    h.li(1, 0x30000).e(lw(3, 1, 0)).e(sw(2, 1, 0)).end();
    h.run();
    EXPECT_EQ(h.csr(MCAUSE), 7u);
  }
  {
    Harness h;  // fetch from DMEM (not executable) and from nowhere
    h.org(kHandler).e(ebreak());
    h.org(0);
    install_handler(h);
    h.li(1, D).e(jalr(0, 1, 0));
    h.run();
    EXPECT_EQ(h.csr(MCAUSE), 1u);
    EXPECT_EQ(h.csr(MTVAL), D);
    EXPECT_EQ(h.csr(MEPC), D);
  }
}

TEST(Rv32Trap, EcallAndMretRestoreMie) {
  Harness h;
  // handler: x10 = mstatus (inside), mepc += 4, mret
  h.org(kHandler).e(csrrs(10, MSTATUS, 0)).e(csrrs(11, MEPC, 0)).e(addi(11, 11, 4)).e(csrrw(0, MEPC, 11)).e(mret());
  h.org(0);
  install_handler(h);
  h.e(csrrsi(0, MSTATUS, 8))  // MIE = 1
      .e(ecall())
      .e(csrrs(12, MSTATUS, 0))  // after mret
      .end();
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.csr(MCAUSE), 11u);
  EXPECT_EQ(h.x(10) & 0x88u, 0x80u);      // in handler: MIE=0, MPIE=1
  EXPECT_EQ(h.x(12) & 0x88u, 0x88u);      // after mret: MIE=1 (from MPIE), MPIE=1
  EXPECT_EQ(h.x(12) & 0x1800u, 0x1800u);  // MPP reads as machine mode
}

TEST(Rv32Trap, EbreakTrapsWithCause3WhenNotDebugging) {
  Harness h;
  h.core.set_debug_mode(false);
  h.org(kHandler).e(jal(0, 0));
  h.org(0);
  install_handler(h);
  h.e(ebreak());
  h.run(100);
  EXPECT_EQ(h.csr(MCAUSE), 3u);
  EXPECT_EQ(h.csr(MEPC), 12u);
  EXPECT_EQ(h.csr(MTVAL), 12u) << "mtval = the ebreak's pc (docs/iss.md)";
  EXPECT_EQ(h.core.read_pc(), kHandler);
}

TEST(Rv32Interrupt, VectoredMtvecAndPriorities) {
  Harness h;
  // vector table at kHandler: entry n at kHandler + 4n; each entry jumps to a stub setting x20 = n
  h.org(kHandler + 4 * 3).e(jal(0, 0x100 - 12));   // -> kHandler+0x100
  h.org(kHandler + 4 * 7).e(jal(0, 0x110 - 28));   // -> kHandler+0x110
  h.org(kHandler + 4 * 11).e(jal(0, 0x120 - 44));  // -> kHandler+0x120
  h.org(kHandler + 0x100).e(addi(20, 0, 3)).e(ebreak());
  h.org(kHandler + 0x110).e(addi(20, 0, 7)).e(ebreak());
  h.org(kHandler + 0x120).e(addi(20, 0, 11)).e(ebreak());
  h.org(0);
  install_handler(h, 1);
  h.li(1, 0x888)
      .e(csrrw(0, MIE, 1))
      .e(csrrsi(0, MSTATUS, 8))  // 0x0c..0x18
      .e(jal(0, 0));             // 0x1c: spin
  auto r = h.run(100);
  EXPECT_EQ(r.reason, Reason::budget);
  h.core.set_irq(IrqLine::timer, true);
  h.core.set_irq(IrqLine::external, true);
  r = h.run(100);
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.x(20), 11u);  // external has priority over timer
  EXPECT_EQ(h.csr(MCAUSE), 0x8000000bu);
  EXPECT_EQ(h.csr(MEPC), 0x1cu);
  // now only the timer
  h.core.set_irq(IrqLine::external, false);
  h.core.write_pc(0x1c);
  h.core.write_gpr(20, 0);
  uint32_t ms = h.csr(MSTATUS);
  EXPECT_EQ(ms & 8u, 0u);  // still in handler: MIE=0 -> no nested interrupt
  r = h.run(100);
  EXPECT_EQ(r.reason, Reason::budget);  // masked: spins
  EXPECT_EQ(h.x(20), 0u);
  // direct mode: all interrupts go to base
  Harness g;
  g.org(kHandler).e(addi(21, 0, 1)).e(ebreak());
  g.org(0);
  install_handler(g, 0);
  g.li(1, 0x80).e(csrrw(0, MIE, 1)).e(csrrsi(0, MSTATUS, 8)).e(jal(0, 0));
  g.core.set_irq(IrqLine::timer, true);
  g.run(100);
  EXPECT_EQ(g.x(21), 1u);
  EXPECT_EQ(g.csr(MCAUSE), 0x80000007u);
}

TEST(Rv32Interrupt, MaskedWhenMieClearAndTakenWhenEnabled) {
  Harness h;
  h.org(kHandler).e(ebreak());
  h.org(0);
  install_handler(h);
  h.li(1, 0x800)
      .e(csrrw(0, MIE, 1))  // mie.MEIE, mstatus.MIE still 0
      .e(addi(5, 0, 1))
      .e(addi(5, 5, 1))
      .e(addi(5, 5, 1))          // 0x18..0x20
      .e(csrrsi(0, MSTATUS, 8))  // 0x24: enable -> interrupt right after
      .e(addi(6, 0, 1))          // 0x28
      .end();
  h.core.set_irq(IrqLine::external, true);
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.core.read_pc(), kHandler);
  EXPECT_EQ(h.x(5), 3u);
  EXPECT_EQ(h.x(6), 0u);
  EXPECT_EQ(h.csr(MEPC), 0x28u);
  // mie bit clear: never taken even with MIE set
  Harness g;
  g.org(kHandler).e(ebreak());
  g.org(0);
  install_handler(g);
  g.e(csrrsi(0, MSTATUS, 8)).e(addi(5, 0, 1)).end();
  g.core.set_irq(IrqLine::external, true);
  g.run();
  EXPECT_EQ(g.core.read_pc(), 20u);
  EXPECT_EQ(g.x(5), 1u);
}

TEST(Rv32Interrupt, WfiSleepsAndResumesOnInterrupt) {
  Harness h;
  // handler: x6 = 1, clear mie (so the level interrupt does not re-fire), mret
  h.org(kHandler).e(addi(6, 0, 1)).e(csrrw(0, MIE, 0)).e(mret());
  h.org(0);
  install_handler(h);
  h.li(1, 0x800)
      .e(csrrw(0, MIE, 1))
      .e(csrrsi(0, MSTATUS, 8))  // 0x0c..0x18
      .e(wfi())                  // 0x1c
      .e(addi(5, 0, 1))          // 0x20
      .end();
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::wfi);
  EXPECT_EQ(h.core.state(), CoreState::sleeping);
  EXPECT_EQ(h.x(5), 0u);
  const uint64_t c = h.core.cycles();
  r = h.run();  // still nothing pending: returns at once, costs nothing
  EXPECT_EQ(r.reason, Reason::wfi);
  EXPECT_EQ(r.cycles, 0u);
  EXPECT_EQ(h.core.cycles(), c);
  h.core.set_irq(IrqLine::external, true);
  r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.x(6), 1u);
  EXPECT_EQ(h.x(5), 1u);
  EXPECT_EQ(h.csr(MEPC), 0x20u);
  EXPECT_EQ(h.csr(MCAUSE), 0x8000000bu);
}

TEST(Rv32Interrupt, WfiWithPendingButGloballyDisabledInterruptFallsThrough) {
  Harness h;
  h.li(1, 0x80).e(csrrw(0, MIE, 1)).e(wfi()).e(addi(5, 0, 1)).end();
  h.core.set_irq(IrqLine::timer, true);
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.x(5), 1u);
}

TEST(Rv32Fatal, FaultInsideTrapHandlerHaltsWithReasonWithStrictTraps) {
  Harness h;
  h.core.set_strict_traps(true);  // opt-in debugging aid; the default follows the privileged spec
  h.org(kHandler).e(0x0000ffffu /* illegal */);
  h.org(0);
  install_handler(h);
  h.e(ecall());
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::trapped_fatal);
  EXPECT_EQ(h.core.state(), CoreState::fatal);
  const std::string why = h.core.halt_reason();
  EXPECT_NE(why.find("fault in trap handler"), std::string::npos) << why;
  EXPECT_NE(why.find("illegal instruction 0x0000ffff at pc 0x00000400"), std::string::npos) << why;
  EXPECT_NE(why.find("mcause 0x0000000b"), std::string::npos) << why;
  EXPECT_NE(why.find("strict traps"), std::string::npos) << why;
  r = h.run();
  EXPECT_EQ(r.reason, Reason::trapped_fatal);
  EXPECT_EQ(r.cycles, 0u);
  h.core.reset(0);  // reset clears the fatal state
  EXPECT_EQ(h.core.state(), CoreState::running);
}

TEST(Rv32Fatal, HandlerAtUnmappedAddressIsFatal) {
  Harness h;
  h.li(1, 0x00800000).e(csrrw(0, MTVEC, 1)).e(0xffffffffu);
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::trapped_fatal);
  EXPECT_NE(h.core.halt_reason().find("instruction access fault at address 0x00800000"), std::string::npos)
      << h.core.halt_reason();
}

TEST(Rv32Fatal, TrapWithoutAnyHandlerIsFatal) {
  Harness h;
  h.e(addi(1, 0, 1)).e(0xffffffffu);
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::trapped_fatal);
  EXPECT_EQ(h.core.halt_reason(),
            "illegal instruction 0xffffffff at pc 0x00000004 (no trap handler: mtvec was never written)");
  EXPECT_EQ(h.core.read_pc(), 4u);
}

TEST(Rv32Fatal, ReenablingMieLeavesHandlerState) {
  // Strict traps: a handler that re-enables interrupts (nested) is no longer "in handler": an ecall
  // there traps normally.
  Harness h;
  h.core.set_strict_traps(true);
  h.org(kHandler)
      .e(csrrs(7, MCAUSE, 0))
      .e(addi(8, 8, 1))
      .e(csrrsi(0, MSTATUS, 8))
      .e(addi(9, 0, 2))
      .e(bne(8, 9, 8))
      .e(ebreak())
      .e(ecall());
  h.org(0);
  install_handler(h);
  h.e(ecall());
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.x(8), 2u);
}

// Strict traps stop on a fault only: inside a handler an ecall, an ebreak (debug mode off) and a CSR
// probe of an absent CSR are taken as ordinary traps (riscv-tests' env/p probes CSRs and exits
// through ecall from inside its handler); an illegal instruction that is not a CSR access is fatal.
TEST(Rv32Fatal, StrictTrapsDoNotCallEcallEbreakOrCsrProbesFaults) {
  Harness h;
  h.core.set_strict_traps(true);
  h.core.set_debug_mode(false);
  // handler: count entries in x8; the first entry probes satp (absent), the second ecalls, the
  // third ebreaks, the fourth executes an illegal instruction (fatal)
  h.org(kHandler)
      .e(addi(8, 8, 1))
      .e(addi(9, 0, 1))
      .e(bne(8, 9, 8))
      .e(csrrs(1, 0x180, 0))  // satp: absent, illegal -> re-enters the handler
      .e(addi(9, 0, 2))
      .e(bne(8, 9, 8))
      .e(ecall())
      .e(addi(9, 0, 3))
      .e(bne(8, 9, 8))
      .e(ebreak())
      .e(0xffffffffu);
  h.org(0);
  install_handler(h);
  h.e(ecall());
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::trapped_fatal);
  EXPECT_EQ(h.x(8), 4u) << h.core.halt_reason();  // three exempt traps inside the handler, then the fault
  EXPECT_NE(h.core.halt_reason().find("fault in trap handler: illegal instruction 0xffffffff"), std::string::npos)
      << h.core.halt_reason();
}

TEST(Rv32Fatal, StrictTrapsAllowSeparateTrapsEachEndedByMret) {
  // strict: mret leaves handler state, so separate traps, each returned from, are fine.
  Harness h;
  h.core.set_strict_traps(true);
  h.org(kHandler).e(csrrs(11, MEPC, 0)).e(addi(11, 11, 4)).e(csrrw(0, MEPC, 11)).e(addi(8, 8, 1)).e(mret());
  h.org(0);
  install_handler(h);
  h.e(ecall()).e(ecall()).e(csrrs(0, 0x7c0, 0) /* unknown CSR: illegal */).end();
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint) << h.core.halt_reason();  // illegal -> handler skips it too
  EXPECT_EQ(h.x(8), 3u);
}

// The privileged spec has no "fault in a trap handler" rule: a trap taken while handling another one
// simply overwrites mepc/mcause/mtval. The start-up idiom "point mtvec at the next instruction, probe
// an optional CSR" depends on it.
TEST(Rv32NestedTrap, RepeatedCsrProbesWithoutMretAreNotFatal) {
  Harness h;
  // 0x00: mtvec = 0x10 ; 0x0c: csrr x1, satp (0x180, absent here: illegal)
  // 0x10: mtvec = 0x20 ; 0x1c: csrr x2, menvcfg (0x30a)
  // 0x20: mtvec = 0x30 ; 0x2c: csrr x3, medeleg (0x302) ; 0x30: x4 = mcause ; x5 = mepc ; ebreak
  h.li(31, 0x10).e(csrrw(0, MTVEC, 31)).e(csrrs(1, 0x180, 0));
  h.li(31, 0x20).e(csrrw(0, MTVEC, 31)).e(csrrs(2, 0x30a, 0));
  h.li(31, 0x30).e(csrrw(0, MTVEC, 31)).e(csrrs(3, 0x302, 0));
  h.e(csrrs(4, MCAUSE, 0)).e(csrrs(5, MEPC, 0)).e(csrrs(6, MSTATUS, 0)).end();
  h.core.write_gpr(1, 0x111);
  h.core.write_gpr(2, 0x222);
  h.core.write_gpr(3, 0x333);
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint) << h.core.halt_reason();
  EXPECT_EQ(h.core.state(), CoreState::running);
  EXPECT_EQ(h.x(4), 2u);      // illegal instruction
  EXPECT_EQ(h.x(5), 0x2cu);   // the last probe
  EXPECT_EQ(h.x(1), 0x111u);  // a trapping csrr does not write rd
  EXPECT_EQ(h.x(2), 0x222u);
  EXPECT_EQ(h.x(3), 0x333u);
  EXPECT_EQ(h.x(6) & 0x88u, 0u);  // MIE and MPIE both 0 after nested entries with MIE=0
}

TEST(Rv32NestedTrap, FaultInHandlerTrapsAgainAndCanBeHandled) {
  // A handler that faults re-enters itself (mepc overwritten); here it recovers on the second entry.
  Harness h;
  // handler: x8++ ; if x8 == 1: illegal (nested trap) ; else ebreak
  h.org(kHandler).e(addi(8, 8, 1)).e(addi(9, 0, 1)).e(bne(8, 9, 8)).e(0x0000ffffu).end();
  h.org(0);
  install_handler(h);
  h.e(ecall());
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint) << h.core.halt_reason();
  EXPECT_EQ(h.x(8), 2u);
  EXPECT_EQ(h.csr(MCAUSE), 2u);
  EXPECT_EQ(h.csr(MEPC), kHandler + 12);
  EXPECT_EQ(h.csr(MTVAL), 0x0000ffffu);
}

TEST(Rv32Watchdog, FaultingHandlerLoopIsStoppedAndNamed) {
  Harness h;
  h.org(kHandler).e(addi(8, 8, 1)).e(0x0000ffffu);  // handler faults at 0x404 forever
  h.org(0);
  install_handler(h);
  h.e(ecall());
  auto r = h.run(10000000);
  EXPECT_EQ(r.reason, Reason::trapped_fatal);
  EXPECT_EQ(h.core.state(), CoreState::fatal);
  const std::string why = h.core.halt_reason();
  EXPECT_EQ(why,
            "trap loop: illegal instruction 0x0000ffff at pc 0x00000404 (mcause 0x00000002) taken 1000 times "
            "in a row with no progress (trap watchdog)");
  EXPECT_EQ(h.x(8), 1000u);  // the ecall entry + 999 faulting entries (the 1000th is not taken)
  EXPECT_EQ(h.core.read_pc(), kHandler + 4);
  EXPECT_EQ(h.csr(MCAUSE), 2u);
  EXPECT_EQ(h.csr(MEPC), kHandler + 4);
}

TEST(Rv32Watchdog, LimitIsConfigurableAndZeroTurnsItOff) {
  auto prog = [](Harness& h) {
    h.org(kHandler).e(mret());  // retries the faulting instruction forever
    h.org(0);
    install_handler(h);
    h.e(0xffffffffu);
  };
  {
    Harness h;
    h.core.set_trap_watchdog(5);
    prog(h);
    auto r = h.run(1000000);
    EXPECT_EQ(r.reason, Reason::trapped_fatal);
    EXPECT_EQ(h.core.halt_reason(),
              "trap loop: illegal instruction 0xffffffff at pc 0x0000000c (mcause 0x00000002) "
              "taken 5 times in a row with no progress (trap watchdog)");
    EXPECT_EQ(r.instructions, 3u + 4u);  // li + csrw, then 4 handler mrets
  }
  {
    Harness h;
    h.core.set_trap_watchdog(0);
    prog(h);
    auto r = h.run(1000000);
    EXPECT_EQ(r.reason, Reason::budget);  // spins, as real hardware would
    EXPECT_EQ(h.core.state(), CoreState::running);
  }
}

TEST(Rv32Watchdog, SameTrapWithProgressInBetweenNeverFires) {
  Harness h;
  h.core.set_trap_watchdog(10);
  // (a) 50 ecalls from one pc, handler returns past it (mret to elsewhere)
  // (b) 50 loads from one pc that fault, handler fixes the base register and retries (mret to the
  //     same pc, the load then retires)
  h.org(kHandler)
      .e(csrrs(11, MCAUSE, 0))
      .e(addi(12, 0, 11))
      .e(bne(11, 12, 20))
      .e(csrrs(11, MEPC, 0))
      .e(addi(11, 11, 4))
      .e(csrrw(0, MEPC, 11))
      .e(mret())
      .li(1, D)
      .e(mret());  // load fault: x1 = D, retry
  h.org(0);
  install_handler(h);
  h.li(20, 50)
      .e(ecall())
      .e(addi(20, 20, -1))
      .e(bne(20, 0, -8))  // 0x14: loop of ecalls
      .li(20, 50)
      .li(1, 0x00800000)
      .e(lw(2, 1, 0))
      .e(addi(20, 20, -1))
      .e(bne(20, 0, -16))  // fault, fixed, retried
      .end();
  auto r = h.run(1000000);
  EXPECT_EQ(r.reason, Reason::breakpoint) << h.core.halt_reason();
  EXPECT_EQ(h.x(20), 0u);
}

TEST(Rv32Watchdog, InterruptsNeitherCountNorReset) {
  // An illegal instruction retried by a handler that only mrets (x8 counts those entries); a timer
  // interrupt arrives in the middle of the loop (its handler masks it and mrets to the same pc).
  Harness h;
  h.core.set_trap_watchdog(20);
  h.org(kHandler)
      .e(csrrs(11, MCAUSE, 0))
      .e(blt(11, 0, 12))
      .e(addi(8, 8, 1))
      .e(mret())
      .e(csrrw(0, MIE, 0))
      .e(addi(9, 9, 1))
      .e(mret());
  h.org(0);
  install_handler(h);
  h.li(1, 0x80).e(csrrw(0, MIE, 1)).e(csrrsi(0, MSTATUS, 8)).e(0xffffffffu);
  auto r = h.run(40);
  EXPECT_EQ(r.reason, Reason::budget);
  EXPECT_GT(h.x(8), 1u);
  EXPECT_LT(h.x(8), 10u);
  h.core.set_irq(IrqLine::timer, true);
  r = h.run(1000000);
  EXPECT_EQ(r.reason, Reason::trapped_fatal) << h.core.halt_reason();
  EXPECT_EQ(h.x(9), 1u);   // one interrupt was taken
  EXPECT_EQ(h.x(8), 19u);  // 20 identical traps, the last fatal: the interrupt did not restart the count
  EXPECT_NE(h.core.halt_reason().find("taken 20 times"), std::string::npos) << h.core.halt_reason();
}

// A CSR write to a counter replaces that instruction's own increment: the next instruction reads
// the value written (instret counts instructions retired before the reading one).
TEST(Rv32Counters, WriteToMinstretAndMcycleIsReadBackByTheNextInstruction) {
  Harness h;
  h.li(1, 1000)
      .li(2, 7)
      .e(csrrw(0, 0xb02, 1))
      .e(csrrs(3, 0xb02, 0))  // minstret = 1000; x3 = minstret
      .e(csrrs(4, 0xc02, 0))  // instret: 1001
      .e(csrrw(0, 0xb82, 2))
      .e(csrrs(5, 0xb82, 0))
      .e(csrrs(6, 0xb02, 0))  // minstreth = 7; x5 = 7; x6 = 1003
      .e(csrrw(0, 0xb00, 1))
      .e(csrrs(7, 0xb00, 0))  // mcycle = 1000; x7 = mcycle
      .e(csrrw(0, 0xb80, 2))
      .e(csrrs(8, 0xb80, 0))  // mcycleh = 7
      .e(csrrwi(0, 0xb02, 0))
      .e(csrrs(9, 0xb02, 0))  // csrwi minstret, 0
      .e(csrrsi(0, 0xb00, 3))
      .e(csrrs(10, 0xb00, 0))  // csrsi mcycle: read-modify-write
      .end();
  h.run();
  EXPECT_EQ(h.x(3), 1000u);
  EXPECT_EQ(h.x(4), 1001u);
  EXPECT_EQ(h.x(5), 7u);
  EXPECT_EQ(h.x(6), 1003u);
  EXPECT_EQ(h.x(7), 1000u);
  EXPECT_EQ(h.x(8), 7u);
  EXPECT_EQ(h.x(9), 0u);
  EXPECT_EQ(h.csr(0xb82), 7u);  // writing the low word keeps the high word
  EXPECT_EQ(h.x(10) & 3u, 3u);
}

TEST(Rv32Costs, OverrideChangesMeasuredCycles) {
  auto prog = [](Harness& h) { h.li(1, 100).li(2, 7).e(div_(3, 1, 2)).e(rem(4, 1, 2)).e(lw(5, 0, 0)).end(); };
  Harness a;
  prog(a);
  auto ra = a.run();
  EXPECT_EQ(ra.cycles, 4u + 33u * 2 + 2u);
  Harness b;
  b.core.set_cycle_costs(std::map<std::string, uint64_t>{{"div", 20}, {"load", 3}});
  prog(b);
  auto rb = b.run();
  EXPECT_EQ(rb.cycles, 4u + 20u * 2 + 3u);
  EXPECT_EQ(a.x(3), b.x(3));
  EXPECT_EQ(b.core.cycle_costs().div, 20u);
  // taken-branch and jump classes
  Harness c;
  c.core.set_cycle_costs(std::map<std::string, uint64_t>{{"branch_taken", 9}, {"jump", 5}, {"alu", 2}});
  c.e(beq(0, 0, 8)).e(0).e(jal(0, 4)).end();
  EXPECT_EQ(c.run().cycles, 9u + 5u);
}

TEST(Rv32Costs, OverrideAppliesToAlreadyDecodedCode) {
  Harness h;
  h.e(div_(3, 1, 2)).end();
  EXPECT_EQ(h.run().cycles, 33u);
  h.core.set_cycle_costs(std::map<std::string, uint64_t>{{"div", 4}});
  h.core.write_pc(0);
  EXPECT_EQ(h.run().cycles, 4u);
}

TEST(Rv32Costs, UnknownClassRejectedListingValidNames) {
  Harness h;
  try {
    h.core.set_cycle_costs(std::map<std::string, uint64_t>{{"divide", 20}});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("unknown instruction class 'divide'"), std::string::npos) << m;
    EXPECT_NE(m.find("alu, load, store, branch, branch_taken, jump, mul, div, csr, system, trap"), std::string::npos)
        << m;
  }
  EXPECT_THROW(h.core.set_cycle_costs(std::map<std::string, uint64_t>{{"div", 0}}), std::invalid_argument);
  EXPECT_EQ(h.core.cycle_costs().div, 33u);  // unchanged after a rejected override
}

TEST(Rv32Debug, BreakpointStopsBeforeInstructionAndResumes) {
  Harness h;
  h.e(addi(1, 0, 1)).e(addi(2, 0, 2)).e(addi(3, 0, 3)).end();
  h.core.set_breakpoint(4);
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.core.read_pc(), 4u);
  EXPECT_EQ(r.instructions, 1u);
  EXPECT_EQ(h.x(2), 0u);
  r = h.run();  // resumes over the breakpoint
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.core.read_pc(), 12u);  // the ebreak
  EXPECT_EQ(h.x(2), 2u);
  EXPECT_EQ(h.x(3), 3u);
  // loop back: the breakpoint fires again; clear it and it does not
  h.core.write_pc(0);
  r = h.run();
  EXPECT_EQ(h.core.read_pc(), 4u);
  h.core.clear_breakpoint(4);
  h.core.write_pc(0);
  r = h.run();
  EXPECT_EQ(h.core.read_pc(), 12u);
}

TEST(Rv32Debug, SingleStepAndRegisterAccess) {
  Harness h;
  h.e(addi(1, 0, 5)).c(c_addi(1, 1)).e(add(2, 1, 1)).end();
  auto r = h.core.step();
  EXPECT_EQ(r.instructions, 1u);
  EXPECT_EQ(h.core.read_pc(), 4u);
  r = h.core.step();
  EXPECT_EQ(h.core.read_pc(), 6u);
  EXPECT_EQ(h.x(1), 6u);
  h.core.write_gpr(1, 100);
  h.core.write_gpr(0, 100);  // ignored
  h.core.step();
  EXPECT_EQ(h.x(2), 200u);
  EXPECT_EQ(h.x(0), 0u);
  EXPECT_EQ(h.core.instret(), 3u);
  uint32_t v = 0;
  EXPECT_TRUE(h.core.read_csr(0xb02, v));
  EXPECT_EQ(v, 3u);
  EXPECT_FALSE(h.core.read_csr(0x123, v));
}

TEST(Rv32Run, BudgetStopsAnInfiniteLoop) {
  Harness h;
  h.e(addi(1, 1, 1)).e(jal(0, -4));
  auto r = h.run(1000);
  EXPECT_EQ(r.reason, Reason::budget);
  EXPECT_GE(r.cycles, 1000u);
  EXPECT_LE(r.cycles, 1001u);
  EXPECT_EQ(r.instructions, h.core.instret());
  EXPECT_EQ(h.x(1), (r.instructions + 1) / 2);
}

TEST(Rv32Run, HaltAndStopFromBusCallback) {
  Harness h;
  h.bus.on_write = [&](uint32_t addr, uint32_t v) {
    if (addr == 0x2010c) h.core.halt("firmware exit " + std::to_string(v));
  };
  h.li(1, 0x2010c).e(addi(2, 0, 7)).e(sw(2, 1, 0)).e(addi(3, 0, 1)).e(jal(0, 0));
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::halted);
  EXPECT_EQ(r.instructions, 4u);  // the store completes; nothing after it runs
  EXPECT_EQ(h.x(3), 0u);
  EXPECT_EQ(h.core.halt_reason(), "firmware exit 7");
  EXPECT_EQ(h.core.run(100).reason, Reason::halted);

  Harness g;
  g.bus.on_write = [&](uint32_t, uint32_t) { g.core.request_stop(); };
  g.li(1, 0x20000).e(sw(0, 1, 0)).e(addi(3, 0, 1)).e(jal(0, 0));
  r = g.run(100000);
  EXPECT_EQ(r.reason, Reason::budget);
  EXPECT_EQ(r.instructions, 3u);
  r = g.run(10);  // continues normally
  EXPECT_EQ(g.x(3), 1u);

  // an interrupt raised together with halt() is not taken: the core stops right after the store
  Harness k;
  k.bus.on_write = [&](uint32_t, uint32_t) {
    k.core.set_irq(IrqLine::external, true);
    k.core.halt("exit");
  };
  k.org(kHandler).e(ebreak());
  k.org(0);
  install_handler(k);
  k.li(1, 0x800).e(csrrw(0, MIE, 1)).e(csrrsi(0, MSTATUS, 8)).li(1, 0x20000).e(sw(0, 1, 0)).e(jal(0, 0));
  r = k.run(1000);
  EXPECT_EQ(r.reason, Reason::halted);
  EXPECT_EQ(k.core.read_pc(), 0x28u);  // after the sw at 0x24
  EXPECT_EQ(k.csr(MCAUSE), 0u);
}

namespace {
// Serves DMEM through the bus (what an owner does with DMI off).
struct MemBus : MockBus {
  std::vector<uint8_t>* dmem = nullptr;
  bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra) override {
    if (addr - Harness::kDmem < Harness::kDmemSize) {
      ++reads;
      value = 0;
      std::memcpy(&value, &(*dmem)[addr - Harness::kDmem], size);
      extra = 1;
      return true;
    }
    return MockBus::read(addr, size, value, extra);
  }
  bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra) override {
    if (addr - Harness::kDmem < Harness::kDmemSize) {
      ++writes;
      std::memcpy(&(*dmem)[addr - Harness::kDmem], &value, size);
      extra = 1;
      return true;
    }
    return MockBus::write(addr, size, value, extra);
  }
};
}  // namespace

TEST(Rv32Run, DmiOffSendsEveryDataAccessThroughTheBus) {
  for (bool dmi : {true, false}) {
    Harness h;
    MemBus bus;
    bus.dmem = &h.dmem;
    h.core.set_bus(&bus);
    h.core.set_dmi(dmi);
    h.set_dword(D + 8, 0x1234);
    h.li(1, D).e(lw(2, 1, 8)).e(addi(2, 2, 1)).e(sw(2, 1, 12)).e(lb(3, 1, 12)).end();
    auto r = h.run();
    EXPECT_EQ(h.x(2), 0x1235u);
    EXPECT_EQ(h.x(3), 0x35u);
    EXPECT_EQ(h.dword(D + 12), 0x1235u);
    EXPECT_EQ(bus.reads, dmi ? 0 : 2);
    EXPECT_EQ(bus.writes, dmi ? 0 : 1);
    EXPECT_EQ(r.cycles, 2u + 2 + 1 + 1 + 2 + (dmi ? 0u : 3u));
  }
}

TEST(Rv32Run, WithoutCompressedMisalignedJumpTraps) {
  Harness h;
  h.core.set_compressed(false);
  h.org(kHandler).e(ebreak());
  h.org(0);
  install_handler(h);
  h.li(1, 0x102).e(jalr(5, 1, 0)).end();
  h.run();
  EXPECT_EQ(h.csr(MCAUSE), 0u);
  EXPECT_EQ(h.csr(MTVAL), 0x102u);
  EXPECT_EQ(h.csr(MEPC), 20u);
  EXPECT_EQ(h.x(5), 0u);  // rd not written
  EXPECT_EQ(h.csr(0x301) & 4u, 0u);
  // and a 16-bit encoding is illegal
  Harness g;
  g.core.set_compressed(false);
  g.org(kHandler).e(ebreak());
  g.org(0);
  install_handler(g);
  g.c(c_nop()).c(c_nop());
  g.run();
  EXPECT_EQ(g.csr(MCAUSE), 2u);
}

TEST(Rv32Run, RegionSetupIsValidated) {
  Harness h;
  std::vector<uint8_t> m(64);
  EXPECT_THROW(h.core.add_region({0x8000, 64, m.data(), true, true}), std::invalid_argument);  // overlaps IMEM
  EXPECT_THROW(h.core.add_region({0x40000, 3, m.data(), true, false}), std::invalid_argument);
  EXPECT_THROW(h.core.add_region({0x40000, 64, nullptr, true, false}), std::invalid_argument);
  EXPECT_NO_THROW(h.core.add_region({0x40000, 64, m.data(), true, false}));
}

// Random instruction streams must never crash or hang the simulator. With a trap handler that
// returns past the faulting instruction (mepc += 2: keeps things chaotic) every program traps and
// runs until its budget is spent; every tenth program has a handler that itself faults, and the
// trap-loop watchdog stops exactly those as fatal, naming the loop. The per-instruction interpreter
// ends each program exactly where the block path does (same reason, counters, pc, registers).
TEST(Rv32Run, RandomProgramsNeverCrashTheSimulator) {
  std::mt19937 rng(7);
  int fatal = 0, budget = 0, trapped = 0;
  for (int iter = 0; iter < 300; ++iter) {
    const bool broken_handler = iter % 10 == 9;
    std::vector<uint32_t> words, regs(31);
    for (uint32_t a = 0; a < 0x1000; a += 4) words.push_back(static_cast<uint32_t>(rng()));
    for (int k = 1; k < 31; ++k) regs[k] = (k & 1) ? Harness::kDmem + (rng() % 0x8000) : rng();
    RunResult r[2];
    uint32_t x[2][32] = {}, pc[2] = {}, mcause[2] = {};
    std::string why[2];
    for (int path = 0; path < 2; ++path) {
      Harness h;
      h.core.set_threaded_blocks(path == 0);
      h.core.set_debug_mode(iter % 2 == 0);
      if (broken_handler)
        h.org(0x8000).e(0xffffffffu);  // the handler faults: it re-enters itself at once, forever
      else
        h.org(0x8000).e(csrrs(30, MEPC, 0)).e(addi(30, 30, 2)).e(csrrw(0, MEPC, 30)).e(mret());
      h.org(0).li(31, 0x8000).e(csrrw(0, MTVEC, 31));
      for (size_t i = h.at / 4; i < words.size(); ++i) h.e(words[i]);
      for (int k = 1; k < 31; ++k) h.core.write_gpr(k, regs[k]);
      r[path] = h.run(20000);
      for (unsigned k = 0; k < 32; ++k) x[path][k] = h.x(k);
      pc[path] = h.core.read_pc();
      why[path] = h.core.halt_reason();
      mcause[path] = h.csr(MCAUSE);
      EXPECT_EQ(r[path].cycles, h.core.cycles()) << iter;
      EXPECT_EQ(r[path].instructions, h.core.instret()) << iter;
      if (path == 0 && (h.csr(MEPC) != 0 || h.csr(MCAUSE) != 0)) ++trapped;
    }
    if (broken_handler) {
      EXPECT_EQ(r[0].reason, Reason::trapped_fatal) << iter;
      EXPECT_NE(why[0].find("trap loop"), std::string::npos) << iter << ": " << why[0];
    } else {
      // a run that did not stop early spent its budget (a trap loop would have been fatal)
      EXPECT_EQ(r[0].reason, Reason::budget) << iter << ": " << why[0];
      EXPECT_GE(r[0].cycles, 20000u) << iter;
    }
    fatal += r[0].reason == Reason::trapped_fatal;
    budget += r[0].reason == Reason::budget;
    EXPECT_LE(r[0].cycles, 20000u + 65535u);
    EXPECT_EQ(r[1].reason, r[0].reason) << iter;
    EXPECT_EQ(r[1].cycles, r[0].cycles) << iter;
    EXPECT_EQ(r[1].instructions, r[0].instructions) << iter;
    EXPECT_EQ(pc[1], pc[0]) << iter;
    EXPECT_EQ(why[1], why[0]) << iter;
    EXPECT_EQ(mcause[1], mcause[0]) << iter;
    for (unsigned k = 0; k < 32; ++k) EXPECT_EQ(x[1][k], x[0][k]) << iter << " x" << k;
  }
  EXPECT_EQ(fatal, 30);   // exactly the broken handlers
  EXPECT_EQ(budget, 270);  // every other program
  EXPECT_GE(trapped, 290);  // random code traps: the handler paths were exercised
}

TEST(Rv32Run, FactoryMakesCoresByIsaName) {
  auto c = hetvp::mcu::make_core("rv32imc");
  EXPECT_STREQ(c->isa(), "rv32imc_zicsr");
  EXPECT_STREQ(hetvp::mcu::make_core("rv32im")->isa(), "rv32im_zicsr");
  auto f = hetvp::mcu::make_core("falcon");
  EXPECT_STREQ(f->isa(), "falcon3");
  // Capabilities: the Falcon has no DMI switch, no debug mode and no GDB layout; RV32 has all three.
  EXPECT_EQ(f->dmi_control(), nullptr);
  EXPECT_EQ(f->debug_control(), nullptr);
  EXPECT_EQ(f->gdb_layout(), hetvp::mcu::GdbLayout::none);
  EXPECT_NE(c->dmi_control(), nullptr);
  EXPECT_EQ(c->gdb_layout(), hetvp::mcu::GdbLayout::riscv32);
  try {
    hetvp::mcu::make_core("m68k");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown microcontroller core ISA 'm68k'; valid: rv32imc, rv32im, falcon"),
              std::string::npos)
        << e.what();
  }
  // drive it purely through CoreIf
  std::vector<uint8_t> imem(256, 0);
  const uint32_t prog[] = {addi(1, 0, 7), ebreak()};
  std::memcpy(imem.data(), prog, sizeof prog);
  c->add_region({0, 256, imem.data(), false, true});
  ASSERT_NE(c->debug_control(), nullptr);  // RV32 has the debug-mode capability
  c->debug_control()->set_debug_mode(true);
  c->reset(0);
  auto r = c->run(100);
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(c->read_gpr(1), 7u);
}

TEST(Rv32Trap, TrapWithInterruptsDisabledLeavesMpieClear) {
  Harness h;
  h.org(kHandler).e(csrrs(10, MSTATUS, 0)).e(ebreak());
  h.org(0);
  install_handler(h);
  h.e(ecall());  // mstatus.MIE = 0 (reset)
  auto r = h.run();
  EXPECT_EQ(r.reason, Reason::breakpoint);
  EXPECT_EQ(h.csr(MCAUSE), 11u);
  EXPECT_EQ(h.x(10) & 0x88u, 0u);  // MPIE = old MIE = 0, MIE = 0
}

TEST(Rv32Trap, MepcWriteClearsBit0OnlyWithCompressedAndBits1To0Without) {
  Harness h;
  h.li(1, 0x103).e(csrrw(0, MEPC, 1)).e(csrrs(2, MEPC, 0)).end();
  h.run();
  EXPECT_EQ(h.x(2), 0x102u);  // IALIGN=16: bit 1 is kept
  Harness g;
  g.core.set_compressed(false);
  g.li(1, 0x103).e(csrrw(0, MEPC, 1)).e(csrrs(2, MEPC, 0)).end();
  g.run();
  EXPECT_EQ(g.x(2), 0x100u);  // IALIGN=32: bits 1..0 read as 0
}

TEST(Rv32Trap, MieKeepsOnlyTheMachineInterruptEnableBits) {
  Harness h;
  h.li(1, 0xffffffff).e(csrrw(0, MIE, 1)).e(csrrs(2, MIE, 0)).end();
  h.run();
  EXPECT_EQ(h.x(2), 0x888u);
}
