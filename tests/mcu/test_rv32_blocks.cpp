// hetvp tests — the ISS's three run paths (docs/iss.md "How it is fast") give the same results:
// the per-instruction interpreter (set_threaded_blocks(false), `hetvp iss --no-jit`), threaded blocks
// (set_x86_translation(false)) and blocks translated to x86-64 code (the default). Random RV32IM
// programs run on all three with the same sequence of small cycle budgets; after every run() the
// stop reason, counters, pc and registers must agree, so budgets, traps and loops stop at exactly
// the same instruction.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rv32_asm.h"

using namespace rv32test;
using hetvp::mcu::IrqLine;
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

// W^X (issue #43): translated code is written through a read-write mapping and run through a
// read-execute one of the same memory; no mapping of the process is ever writable and executable,
// before translation, while code runs, after a store into code and after a refill of the buffer.
namespace {
struct Maps {
  std::vector<std::string> wx;           // mappings both writable and executable
  int jit_exec = 0, jit_write = 0;       // the translator's views
};
Maps read_maps() {
  Maps m;
  std::ifstream f("/proc/self/maps");
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream in(line);
    std::string range, perms;
    in >> range >> perms;
    if (perms.size() >= 3 && perms[1] == 'w' && perms[2] == 'x') m.wx.push_back(line);
    if (line.find("memfd:hetvp-jit") != std::string::npos) {
      if (perms.compare(0, 3, "r-x") == 0) ++m.jit_exec;
      if (perms.compare(0, 3, "rw-") == 0) ++m.jit_write;
    }
  }
  return m;
}
}  // namespace

TEST(Rv32Jit, CodeBufferIsNeverWritableAndExecutable) {
  auto check = [](const char* when) {
    const Maps m = read_maps();
    EXPECT_TRUE(m.wx.empty()) << when << ": " << (m.wx.empty() ? "" : m.wx[0]);
    return m;
  };
  check("before any translation");
  Harness h;
  set_path(h, Path::translated);
  // a loop that rewrites one of its own instructions (x5 += 1 becomes x5 += 100), then stops
  h.li(6, 5).li(8, 0x06428293 /* addi x5, x5, 100 */).li(9, 0);
  const uint32_t loop = h.at;
  h.e(addi(5, 5, 1)).e(addi(6, 6, -1)).e(bne(6, 0, -8));
  h.e(sw(8, 9, static_cast<int32_t>(loop))).e(addi(10, 10, 1)).e(addi(6, 0, 2)).e(addi(11, 0, 2));
  h.e(bne(10, 11, -28)).end();
  EXPECT_EQ(h.run().reason, RunResult::Reason::breakpoint);
  EXPECT_EQ(h.x(5), 5u + 2 * 100u);
  const Maps m = check("after translated code ran and code was stored into");
  if (hetvp::mcu::rv32::jit_supported() && std::getenv("HETVP_TEST_RV32_MODE") == nullptr) {
    EXPECT_GT(h.core.blocks_translated(), 0u);
    EXPECT_GE(m.jit_exec, 1) << "no read-execute view of the code buffer";
    EXPECT_GE(m.jit_write, 1) << "no read-write view of the code buffer";
  }
  // a refill of the buffer reuses the same two views
  Harness g;
  set_path(g, Path::translated);
  for (uint32_t k = 0; k < 15000; ++k) g.e(addi(5, 5, 1));
  g.end();
  for (uint32_t k = 0; k < 15000; ++k) g.core.step();
  check("after the code buffer refilled");
}

// The wider differential test (issue #43): random RV32IMC programs — 16- and 32-bit code mixed, x1..x31
// in use, jalr/c.jr/c.jalr to computed targets, stores that rewrite instructions of the running
// program, CSR reads and writes (mscratch, mstatus.MIE, mie, mcycle, minstret, mcause, mepc), loads and
// stores to a bus device with latency (one register of which drives the external interrupt line from
// inside the access), ecall/c.ebreak and misaligned accesses into a length-aware handler, and
// interrupts raised and lowered between runs — on the three paths at random budgets. After every
// run() everything architectural must agree, and so must the device's registers and access counts.
namespace {
constexpr uint32_t kMmio = 0x20000;  // MockBus's device
constexpr uint32_t kIrqReg = kMmio + 0x10;

// Reserved registers: x2 DMEM pointer, x25 the MEIE bit, x26/x27 code-store value/address, x28 jump
// target, x29 device base, x30/x31 the handler's scratch. The body writes only these:
constexpr uint32_t kPool[] = {1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};

struct ImcProgram {
  Harness& h;
  std::mt19937 rng;
  std::vector<uint32_t> starts;     // address of each body item
  std::vector<size_t> patchable;    // items that are one 32-bit ALU instruction (a code store may replace them)
  enum Kind { kBranch, kJal, kCj, kCb, kJalr, kCjr, kCodeAddr };
  struct Fix {
    Kind kind;
    uint32_t at;        // where the instruction(s) to patch start
    size_t target;      // body item
    uint32_t a = 0, b = 0, f = 0;  // operands
  };
  std::vector<Fix> fixes;

  ImcProgram(Harness& harness, uint32_t seed) : h(harness), rng(seed) {}
  uint32_t pick(uint32_t n) { return static_cast<uint32_t>(rng() % n); }
  uint32_t dst() { return kPool[pick(std::size(kPool))]; }
  uint32_t src() { return pick(32); }
  uint32_t dstc() { return 8 + pick(8); }  // x8..x15 (compressed rd'), all in the pool

  static uint16_t half(uint32_t v) { return static_cast<uint16_t>(v); }
  void put32(uint32_t at, uint32_t v) { std::memcpy(&h.imem[at], &v, 4); }
  void put16(uint32_t at, uint16_t v) { std::memcpy(&h.imem[at], &v, 2); }
  void li_at(uint32_t at, uint32_t rd, uint32_t v) {  // as Harness::li, 8 bytes
    const uint32_t hi = (v + 0x800) & 0xfffff000u, lo = (v - hi) & 0xfff;
    put32(at, lui(rd, hi));
    put32(at + 4, addi(rd, rd, static_cast<int32_t>(lo >= 0x800 ? lo - 0x1000 : lo)));
  }
  size_t near(size_t k, size_t n, bool forward_only) {
    const int64_t lo = forward_only ? int64_t(k) + 1 : std::max<int64_t>(0, int64_t(k) - 8);
    const int64_t hi = std::min<int64_t>(int64_t(n) - 1, int64_t(k) + 8);
    return size_t(lo + pick(uint32_t(std::max<int64_t>(1, hi - lo + 1))));
  }

  void emit(uint32_t n) {
    h.org(0);
    h.li(2, Harness::kDmem + 0x800).li(25, 0x800).li(29, kMmio).li(31, 0x8000);
    h.e(csrrw(0, 0x305, 31));  // mtvec
    h.e(csrrs(0, 0x304, 25));  // mie.MEIE
    for (uint32_t r : kPool) h.li(r, (r % 3 == 0) ? Harness::kDmem + 0x800 + 4 * pick(64) : static_cast<uint32_t>(rng()));
    const uint32_t body = h.at;
    for (uint32_t k = 0; k < n; ++k) {
      starts.push_back(h.at);
      const int32_t imm12 = static_cast<int32_t>(pick(4096)) - 2048;
      const int32_t moff = static_cast<int32_t>(pick(64)) * 4 - 128 + (pick(8) == 0 ? 1 + pick(3) : 0);
      switch (pick(22)) {
        case 0: case 1: case 2: {
          patchable.push_back(k);
          const uint32_t w = pick(8);
          h.e(w == 0 ? add(dst(), src(), src()) : w == 1 ? sub(dst(), src(), src()) : w == 2 ? xor_(dst(), src(), src())
              : w == 3 ? sll(dst(), src(), src()) : w == 4 ? sra(dst(), src(), src()) : w == 5 ? addi(dst(), src(), imm12)
              : w == 6 ? sltiu(dst(), src(), imm12) : srli(dst(), src(), pick(32)));
          break;
        }
        case 3: {
          const uint32_t w = pick(4);
          h.e(w == 0 ? mul(dst(), src(), src()) : w == 1 ? mulhu(dst(), src(), src()) : w == 2 ? div_(dst(), src(), src())
              : remu(dst(), src(), src()));
          break;
        }
        case 4: {
          const uint32_t w = pick(4);
          h.e(w == 0 ? lw(dst(), 2, moff) : w == 1 ? lh(dst(), 2, moff) : w == 2 ? lbu(dst(), 2, moff) : lhu(dst(), 2, moff));
          break;
        }
        case 5: {
          const uint32_t w = pick(3);
          h.e(w == 0 ? sw(src(), 2, moff) : w == 1 ? sh(src(), 2, moff) : sb(src(), 2, moff));
          break;
        }
        case 6: case 7: {  // compressed ALU
          const uint32_t w = pick(9);
          const int32_t i6 = static_cast<int32_t>(pick(63)) - 31;
          if (w == 0) h.c(c_addi(dst(), i6 ? i6 : 1));
          else if (w == 1) h.c(c_li(dst(), i6));
          else if (w == 2) h.c(c_mv(dst(), 1 + pick(31)));
          else if (w == 3) h.c(c_add(dst(), 1 + pick(31)));
          else if (w == 4) h.c(c_slli(dst(), 1 + pick(31)));
          else if (w == 5) h.c(c_srli(dstc(), 1 + pick(31)));
          else if (w == 6) h.c(c_srai(dstc(), 1 + pick(31)));
          else if (w == 7) h.c(c_andi(dstc(), i6));
          else {
            const uint32_t o = pick(4), rd = dstc(), rs = 8 + pick(8);
            h.c(o == 0 ? c_sub(rd, rs) : o == 1 ? c_xor(rd, rs) : o == 2 ? c_or(rd, rs) : c_and(rd, rs));
          }
          break;
        }
        case 8:
          if (pick(2)) h.c(c_lwsp(dst(), 4 * pick(64)));
          else h.c(c_swsp(src(), 4 * pick(64)));
          break;
        case 9: case 10:
          fixes.push_back({kBranch, h.at, near(k, n, false), src(), src(), pick(6)});
          h.e(0);
          break;
        case 11:
          fixes.push_back({kCb, h.at, near(k, n, false), dstc(), 0, pick(2)});
          h.c(0);
          break;
        case 12:
          if (pick(2)) {
            fixes.push_back({kJal, h.at, near(k, n, true), pick(2) ? dst() : 0});
            h.e(0);
          } else {
            fixes.push_back({kCj, h.at, near(k, n, true)});
            h.c(0);
          }
          break;
        case 13:  // auipc x28 + jalr rd, x28, off
          fixes.push_back({kJalr, h.at, near(k, n, true), pick(2) ? dst() : 0});
          h.e(0).e(0);
          break;
        case 14:  // auipc x28 + addi x28 + c.jr / c.jalr
          fixes.push_back({kCjr, h.at, near(k, n, true), 0, 0, pick(2)});
          h.e(0).e(0).c(0);
          break;
        case 15:  // rewrite an instruction of the program: li x26, new; li x27, its address; sw x26, 0(x27)
          fixes.push_back({kCodeAddr, h.at + 8, 0});
          h.li(26, addi(dst(), src(), static_cast<int32_t>(pick(4096)) - 2048)).e(0).e(0).e(sw(26, 27, 0));
          break;
        case 16: case 17: {  // CSRs
          const uint32_t w = pick(9);
          if (w == 0) h.e(csrrw(dst(), 0x340, src()));                 // mscratch
          else if (w == 1) h.e(csrrs(dst(), 0xB00, 0));                // mcycle
          else if (w == 2) h.e(csrrs(dst(), 0xB02, 0));                // minstret
          else if (w == 3) h.e(csrrs(dst(), pick(2) ? 0x342 : 0x341, 0));  // mcause / mepc
          else if (w == 4) h.e(csrrsi(0, 0x300, 8));                   // mstatus.MIE on
          else if (w == 5) h.e(csrrci(0, 0x300, 8));                   // ... off
          else if (w == 6) h.e(csrrs(0, 0x304, 25));                   // mie.MEIE on again
          else if (w == 7) h.e(csrrw(0, 0xB00, src()));                // write mcycle
          else h.e(csrrw(0, 0xB02, src()));                            // write minstret
          break;
        }
        case 18: case 19: {  // the device: loads, stores, the interrupt register
          const int32_t off = 4 * static_cast<int32_t>(pick(16));
          if (pick(3) == 0) h.e(sw(src(), 29, 0x10));
          else if (pick(2)) h.e(lw(dst(), 29, off));
          else h.e(sw(src(), 29, off));
          break;
        }
        case 20:
          if (pick(2)) h.e(ecall());
          else h.c(c_ebreak());
          break;
        default:
          if (pick(2)) h.e(addi(0, 0, 0));
          else h.c(c_nop());
      }
    }
    starts.push_back(h.at);
    h.e(jal(0, -static_cast<int32_t>(h.at - body)));  // loop forever
    for (const Fix& f : fixes) {
      const uint32_t t = starts[f.target];
      const int32_t off = static_cast<int32_t>(t - f.at);
      switch (f.kind) {
        case kBranch: {
          const uint32_t a = f.a, b = f.b;
          put32(f.at, f.f == 0 ? beq(a, b, off) : f.f == 1 ? bne(a, b, off) : f.f == 2 ? blt(a, b, off)
                      : f.f == 3 ? bge(a, b, off) : f.f == 4 ? bltu(a, b, off) : bgeu(a, b, off));
          break;
        }
        case kCb:
          put16(f.at, f.f ? c_bnez(f.a, off) : c_beqz(f.a, off));
          break;
        case kJal:
          put32(f.at, jal(f.a, off));
          break;
        case kCj:
          put16(f.at, c_j(off));
          break;
        case kJalr:
          put32(f.at, auipc(28, 0));
          put32(f.at + 4, jalr(f.a, 28, off));
          break;
        case kCjr:
          put32(f.at, auipc(28, 0));
          put32(f.at + 4, addi(28, 28, off));
          put16(f.at + 8, f.f ? c_jalr(28) : c_jr(28));
          break;
        case kCodeAddr:
          li_at(f.at, 27, patchable.empty() ? Harness::kDmem : starts[patchable[pick(uint32_t(patchable.size()))]]);
          break;
      }
    }
    // handler: an interrupt turns MEIE off (the body turns it on again); an exception is skipped
    // (2 or 4 bytes, from the instruction's low bits)
    h.org(0x8000)
        .e(csrrs(31, 0x342, 0))
        .e(blt(31, 0, 0x2c - 0x04))
        .e(csrrs(31, 0x341, 0))
        .e(lhu(30, 31, 0))
        .e(andi(30, 30, 3))
        .e(addi(31, 31, 2))
        .e(addi(30, 30, -3))
        .e(bne(30, 0, 8))
        .e(addi(31, 31, 2))
        .e(csrrw(0, 0x341, 31))
        .e(mret())
        .e(csrrc(0, 0x304, 25))
        .e(mret());
  }
};
}  // namespace

TEST(Rv32Blocks, RandomImcProgramsWithJalrCodeStoresCsrsMmioAndInterruptsAgree) {
  uint64_t code_stores = 0, irqs_taken = 0, device_writes = 0, translated = 0;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    Harness h[3];
    const Path paths[3] = {Path::interp, Path::threaded, Path::translated};
    for (int p = 0; p < 3; ++p) {
      set_path(h[p], paths[p]);
      ImcProgram(h[p], seed).emit(160);
      h[p].core.set_debug_mode(false);
      h[p].bus.latency = 3;
      hetvp::mcu::rv32::Rv32Core* core = &h[p].core;
      h[p].bus.on_write = [core](uint32_t addr, uint32_t v) {
        if (addr == kIrqReg) core->set_irq(IrqLine::external, v & 1);
      };
      h[p].core.reset(0);
    }
    std::mt19937 budgets(seed * 104729u);
    for (int step = 0; step < 300; ++step) {
      if (step % 13 == 0)
        for (auto& x : h) x.core.set_irq(IrqLine::external, (step / 13) & 1);
      const uint64_t budget = 1 + budgets() % (step % 10 == 0 ? 3000 : 50);
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
        for (uint32_t csr : {0x300u, 0x304u, 0x340u, 0x341u, 0x342u, 0x343u, 0xB00u, 0xB02u})
          ASSERT_EQ(h[p].csr(csr), h[0].csr(csr)) << "csr " << csr;
        ASSERT_EQ(h[p].bus.reads, h[0].bus.reads);
        ASSERT_EQ(h[p].bus.writes, h[0].bus.writes);
      }
      if ((h[0].csr(0x342) & 0x80000000u) != 0) ++irqs_taken;
    }
    for (int p = 1; p < 3; ++p) {
      EXPECT_EQ(h[p].dmem, h[0].dmem) << "seed " << seed;
      EXPECT_EQ(h[p].imem, h[0].imem) << "seed " << seed;
      EXPECT_EQ(0, std::memcmp(h[p].bus.regs, h[0].bus.regs, sizeof h[0].bus.regs)) << "seed " << seed;
    }
    std::vector<uint8_t> fresh(Harness::kImemSize, 0);
    {
      Harness g;
      ImcProgram(g, seed).emit(160);
      fresh = g.imem;
    }
    if (fresh != h[0].imem) ++code_stores;
    device_writes += static_cast<uint64_t>(h[0].bus.writes);
    translated += h[2].core.blocks_translated();
  }
  // The programs did what they are for: code rewritten, interrupts taken, the device written.
  EXPECT_GT(code_stores, 5u);
  EXPECT_GT(irqs_taken, 5u);
  EXPECT_GT(device_writes, 30u);
  if (hetvp::mcu::rv32::jit_supported() && std::getenv("HETVP_TEST_RV32_MODE") == nullptr) EXPECT_GT(translated, 0u);
}
