// hetvp tests — the ISS's three run paths (docs/iss.md "How it is fast") give the same results:
// the per-instruction interpreter (set_threaded_blocks(false), `hetvp iss --no-jit`), threaded blocks
// (set_x86_translation(false)) and blocks translated to x86-64 code (the default). Random RV32IM
// programs run on all three with the same sequence of small cycle budgets; after every run() the
// stop reason, counters, pc and registers must agree, so budgets, traps and loops stop at exactly
// the same instruction.
#include <gtest/gtest.h>

#include <random>

#include "rv32_asm.h"

using namespace rv32test;
using hetvp::mcu::RunResult;

namespace {

enum class Path { interp, threaded, translated };

void set_path(Harness& h, Path p) {
  h.core.set_threaded_blocks(p != Path::interp);
  h.core.set_x86_translation(p == Path::translated);
}

constexpr uint32_t kHandler = 0x8000;

// Emits a random program into h (identical for equal seeds): registers x1, x3..x15 are random,
// x2 points into the middle of DMEM; the body mixes ALU, M, loads/stores (some misaligned: they
// trap and the handler skips them), branches both ways and forward jumps, then loops to its start.
void emit_random_program(Harness& h, uint32_t seed) {
  std::mt19937 rng(seed);
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  auto reg = [&] {  // a register the body may write: x1, x3..x15
    const uint32_t r = 1 + pick(15);
    return r == 2 ? 3u : r;
  };
  auto src = [&] { return pick(16); };
  h.org(0);
  h.li(2, Harness::kDmem + 0x800);
  h.li(16, kHandler);
  h.e(csrrw(0, 0x305, 16));  // mtvec
  for (uint32_t r = 1; r < 16; ++r)
    if (r != 2) h.li(r, static_cast<uint32_t>(rng()));
  const uint32_t body = h.at;
  const uint32_t n = 200;
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t kind = pick(20);
    const int32_t mem_off = (static_cast<int32_t>(pick(512)) - 256) * 4 + (pick(10) == 0 ? 1 + pick(3) : 0);
    switch (kind) {
      case 0: h.e(add(reg(), src(), src())); break;
      case 1: h.e(sub(reg(), src(), src())); break;
      case 2: h.e(pick(2) ? xor_(reg(), src(), src()) : or_(reg(), src(), src())); break;
      case 3: h.e(pick(2) ? and_(reg(), src(), src()) : slt(reg(), src(), src())); break;
      case 4: h.e(pick(2) ? sltu(reg(), src(), src()) : sll(reg(), src(), src())); break;
      case 5: h.e(pick(2) ? srl(reg(), src(), src()) : sra(reg(), src(), src())); break;
      case 6: h.e(addi(reg(), src(), static_cast<int32_t>(pick(4096)) - 2048)); break;
      case 7: {
        const uint32_t w = pick(6);
        const int32_t imm = static_cast<int32_t>(pick(4096)) - 2048;
        h.e(w == 0 ? slti(reg(), src(), imm) : w == 1 ? sltiu(reg(), src(), imm) : w == 2 ? xori(reg(), src(), imm)
            : w == 3 ? ori(reg(), src(), imm) : w == 4 ? andi(reg(), src(), imm) : slli(reg(), src(), pick(32)));
        break;
      }
      case 8: h.e(pick(2) ? srli(reg(), src(), pick(32)) : srai(reg(), src(), pick(32))); break;
      case 9: h.e(pick(2) ? lui(reg(), static_cast<uint32_t>(rng())) : auipc(reg(), static_cast<uint32_t>(rng()))); break;
      case 10: {
        const uint32_t w = pick(4);
        h.e(w == 0 ? mul(reg(), src(), src()) : w == 1 ? mulh(reg(), src(), src()) : w == 2 ? mulhsu(reg(), src(), src())
            : mulhu(reg(), src(), src()));
        break;
      }
      case 11: {
        const uint32_t w = pick(4);
        h.e(w == 0 ? div_(reg(), src(), src()) : w == 1 ? divu(reg(), src(), src()) : w == 2 ? rem(reg(), src(), src())
            : remu(reg(), src(), src()));
        break;
      }
      case 12:
      case 13: {
        const uint32_t w = pick(5);
        h.e(w == 0 ? lw(reg(), 2, mem_off & ~0 ) : w == 1 ? lh(reg(), 2, mem_off) : w == 2 ? lhu(reg(), 2, mem_off)
            : w == 3 ? lb(reg(), 2, mem_off) : lbu(reg(), 2, mem_off));
        break;
      }
      case 14:
      case 15: {
        const uint32_t w = pick(3);
        h.e(w == 0 ? sw(src(), 2, mem_off) : w == 1 ? sh(src(), 2, mem_off) : sb(src(), 2, mem_off));
        break;
      }
      case 16:
      case 17: {  // a branch up to 8 instructions either way, inside the body
        int32_t to = static_cast<int32_t>(k) + static_cast<int32_t>(pick(17)) - 8;
        to = std::max<int32_t>(0, std::min<int32_t>(static_cast<int32_t>(n) - 1, to));
        const int32_t off = (to - static_cast<int32_t>(k)) * 4;
        const uint32_t w = pick(6), a = src(), b = src();
        h.e(w == 0 ? beq(a, b, off) : w == 1 ? bne(a, b, off) : w == 2 ? blt(a, b, off) : w == 3 ? bge(a, b, off)
            : w == 4 ? bltu(a, b, off) : bgeu(a, b, off));
        break;
      }
      case 18: {  // a forward jump
        const uint32_t to = std::min(n, k + 1 + pick(4));
        h.e(jal(pick(2) ? reg() : 0, static_cast<int32_t>((to - k) * 4)));
        break;
      }
      default:
        h.e(addi(0, 0, 0));  // nop
    }
  }
  h.e(jal(0, -static_cast<int32_t>(h.at - body)));  // loop forever
  // handler: skip the trapping (4-byte) instruction
  h.org(kHandler).e(csrrs(16, 0x341, 0)).e(addi(16, 16, 4)).e(csrrw(0, 0x341, 16)).e(mret());
}

}  // namespace

TEST(Rv32Blocks, RandomProgramsAgreeOnEveryPathAtEveryBudget) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    Harness h[3];
    const Path paths[3] = {Path::interp, Path::threaded, Path::translated};
    for (int p = 0; p < 3; ++p) {
      set_path(h[p], paths[p]);
      emit_random_program(h[p], seed);
      h[p].core.set_debug_mode(false);
      h[p].core.reset(0);
    }
    std::mt19937 budgets(seed * 7919u);
    for (int step = 0; step < 400; ++step) {
      const uint64_t budget = 1 + budgets() % (step % 10 == 0 ? 2000 : 40);
      RunResult r[3];
      for (int p = 0; p < 3; ++p) r[p] = h[p].core.run(budget);
      for (int p = 1; p < 3; ++p) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " step " + std::to_string(step) + " path " + std::to_string(p));
        ASSERT_EQ(r[p].reason, r[0].reason);
        ASSERT_EQ(r[p].cycles, r[0].cycles);
        ASSERT_EQ(r[p].instructions, r[0].instructions);
        ASSERT_EQ(h[p].core.read_pc(), h[0].core.read_pc());
        ASSERT_EQ(h[p].core.cycles(), h[0].core.cycles());
        ASSERT_EQ(h[p].core.instret(), h[0].core.instret());
        for (unsigned x = 1; x < 32; ++x) ASSERT_EQ(h[p].x(x), h[0].x(x)) << "x" << x;
        ASSERT_EQ(h[p].csr(0x342), h[0].csr(0x342));  // mcause
        ASSERT_EQ(h[p].csr(0x341), h[0].csr(0x341));  // mepc
      }
    }
    EXPECT_EQ(h[1].dmem, h[0].dmem) << "seed " << seed;
    EXPECT_EQ(h[2].dmem, h[0].dmem) << "seed " << seed;
    EXPECT_GT(h[1].core.blocks_built(), 0u);
    if (hetvp::mcu::rv32::jit_supported()) EXPECT_GT(h[2].core.blocks_translated(), 0u);
    EXPECT_EQ(h[0].core.blocks_built(), 0u);
  }
}

// Self-modifying code: the program rewrites an instruction of the loop it is running (a store into
// an executable region), and the host rewrites one between runs (invalidate_code, as the
// microcontroller's CODE port does). Every path must run the new instruction from then on.
TEST(Rv32Blocks, StoresIntoCodeAndHostWritesReplaceBlocks) {
  for (Path p : {Path::interp, Path::threaded, Path::translated}) {
    Harness h;
    set_path(h, p);
    // 0x00: x5 += 1 (patched to x5 += 100 after 3 rounds)
    h.org(0x0).e(addi(5, 5, 1));
    h.e(addi(6, 6, 1));                // round counter
    h.e(addi(7, 0, 3));
    h.e(bne(6, 7, 16));                // 0x0c: not round 3: skip the patch
    h.li(8, addi(5, 5, 100));          // 0x10, 0x14
    h.e(sw(8, 0, 0));                  // 0x18: sw x8, 0(x0) -> code at 0
    h.e(addi(0, 0, 0));                // 0x1c
    h.e(addi(9, 0, 6));                // 0x20
    h.e(bne(6, 9, -0x24));             // 0x24: 6 rounds, then
    h.e(ebreak());                     // 0x28
    const RunResult r = h.run();
    ASSERT_EQ(r.reason, RunResult::Reason::breakpoint);
    EXPECT_EQ(h.x(5), 3u + 3u * 100u) << static_cast<int>(p);
    // host rewrites the first instruction and restarts the loop at 0
    const uint32_t insn = addi(5, 5, 7);
    std::memcpy(&h.imem[0], &insn, 4);
    h.core.invalidate_code(0, 4);
    h.core.write_gpr(6, 5);
    h.core.write_pc(0);
    ASSERT_EQ(h.run().reason, RunResult::Reason::breakpoint);
    EXPECT_EQ(h.x(5), 303u + 7u) << static_cast<int>(p);
  }
}

// fence.i and a change of cycle costs drop every block; costs baked into blocks follow the change.
TEST(Rv32Blocks, CycleCostChangeReachesBuiltBlocks) {
  for (Path p : {Path::interp, Path::threaded, Path::translated}) {
    Harness h;
    set_path(h, p);
    h.org(0).e(addi(5, 5, 1)).e(mul(6, 5, 5)).e(ebreak());
    ASSERT_EQ(h.run().cycles, 1u + 3u);  // alu, mul (a debug-mode ebreak stops before it counts)
    h.core.set_cycle_costs({{"mul", 10}});
    h.core.write_pc(0);
    EXPECT_EQ(h.run().cycles, 1u + 10u) << static_cast<int>(p);
  }
}

// A tight loop (a block that branches to its own start runs inside the translated code) with a load
// and a store in it: every path stops at the same instruction for every budget, and the loop's
// first load (a miss of the last-region cache) leaves the block and comes back.
TEST(Rv32Blocks, SelfLoopStopsAtEveryBudgetLikeTheInterpreter) {
  Harness h[3];
  const Path paths[3] = {Path::interp, Path::threaded, Path::translated};
  for (int p = 0; p < 3; ++p) {
    set_path(h[p], paths[p]);
    h[p].li(2, Harness::kDmem).li(5, 3000);
    // loop: x6 += x5; x7 = mem[x2]; x7 += x6; mem[x2] = x7; x5 -= 1; bne x5, x0, loop
    h[p].e(add(6, 6, 5)).e(lw(7, 2, 0)).e(add(7, 7, 6)).e(sw(7, 2, 0)).e(addi(5, 5, -1)).e(bne(5, 0, -20));
    h[p].end();
    h[p].core.reset(0);
  }
  std::mt19937 budgets(4242);
  for (int step = 0; step < 2000; ++step) {
    const uint64_t budget = 1 + budgets() % 37;
    RunResult r[3];
    for (int p = 0; p < 3; ++p) r[p] = h[p].core.run(budget);
    for (int p = 1; p < 3; ++p) {
      ASSERT_EQ(r[p].reason, r[0].reason) << "step " << step << " path " << p;
      ASSERT_EQ(r[p].cycles, r[0].cycles) << "step " << step << " path " << p;
      ASSERT_EQ(r[p].instructions, r[0].instructions) << "step " << step << " path " << p;
      ASSERT_EQ(h[p].core.read_pc(), h[0].core.read_pc()) << "step " << step << " path " << p;
      for (unsigned x = 1; x < 32; ++x) ASSERT_EQ(h[p].x(x), h[0].x(x)) << "x" << x << " step " << step;
    }
    if (r[0].reason == RunResult::Reason::breakpoint) break;
  }
  EXPECT_EQ(h[0].x(5), 0u);  // the loop ran to its end within the steps
  for (int p = 1; p < 3; ++p) EXPECT_EQ(h[p].dmem, h[0].dmem);
}

// Single-stepping builds (and translates) a block at every pc: 15,000 blocks of up to 64
// instructions overflow the core's translated-code memory several times; each time every block is
// dropped and rebuilt on demand, and the program still computes the same.
TEST(Rv32Blocks, TranslatedCodeMemoryRefillsWhenFull) {
  Harness h;
  const uint32_t n = 15000;
  for (uint32_t k = 0; k < n; ++k) h.e(addi(5, 5, 1));
  h.end();
  for (uint32_t k = 0; k < n; ++k) ASSERT_EQ(h.core.step().instructions, 1u) << k;
  EXPECT_EQ(h.x(5), n);
  if (hetvp::mcu::rv32::jit_supported() && std::getenv("HETVP_TEST_RV32_MODE") == nullptr) {
    EXPECT_GE(h.core.blocks_translated(), n);  // at least one per pc stepped
    EXPECT_GE(h.core.code_memory_refills(), 2u);
  }
  h.core.write_pc(0);
  EXPECT_EQ(h.run().reason, RunResult::Reason::breakpoint);
  EXPECT_EQ(h.x(5), 2 * n);
}
