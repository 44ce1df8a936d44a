// hetvp tests — a tiny RV32IMC encoder and a test harness around Rv32Core.
#pragma once

#include "models/mcu/rv32/core.h"

#include <cstdlib>
#include <string>

#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace rv32test {

using hetvp::mcu::BusIf;
using hetvp::mcu::MemRegion;
using hetvp::mcu::RunResult;
using hetvp::mcu::rv32::Rv32Core;

// --- 32-bit formats ---
inline uint32_t R(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return (f7 << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
inline uint32_t I(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
  return (static_cast<uint32_t>(imm & 0xfff) << 20) | (rs1 << 15) | (f3 << 12) | (rd << 7) | op;
}
inline uint32_t S(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 5) & 0x7f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) | ((u & 31) << 7) | op;
}
inline uint32_t B(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) | (rs2 << 20) | (rs1 << 15) | (f3 << 12) |
         (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7) | 0x63;
}
inline uint32_t U(uint32_t imm, uint32_t rd, uint32_t op) { return (imm & 0xfffff000u) | (rd << 7) | op; }
inline uint32_t J(int32_t imm, uint32_t rd) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3ff) << 21) | (((u >> 11) & 1) << 20) | (((u >> 12) & 0xff) << 12) |
         (rd << 7) | 0x6f;
}

// --- RV32I / M / Zicsr mnemonics ---
inline uint32_t lui(uint32_t rd, uint32_t imm) { return U(imm, rd, 0x37); }
inline uint32_t auipc(uint32_t rd, uint32_t imm) { return U(imm, rd, 0x17); }
inline uint32_t jal(uint32_t rd, int32_t off) { return J(off, rd); }
inline uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 0, rd, 0x67); }
inline uint32_t beq(uint32_t a, uint32_t b, int32_t off) { return B(off, b, a, 0); }
inline uint32_t bne(uint32_t a, uint32_t b, int32_t off) { return B(off, b, a, 1); }
inline uint32_t blt(uint32_t a, uint32_t b, int32_t off) { return B(off, b, a, 4); }
inline uint32_t bge(uint32_t a, uint32_t b, int32_t off) { return B(off, b, a, 5); }
inline uint32_t bltu(uint32_t a, uint32_t b, int32_t off) { return B(off, b, a, 6); }
inline uint32_t bgeu(uint32_t a, uint32_t b, int32_t off) { return B(off, b, a, 7); }
inline uint32_t lb(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 0, rd, 0x03); }
inline uint32_t lh(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 1, rd, 0x03); }
inline uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 2, rd, 0x03); }
inline uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 4, rd, 0x03); }
inline uint32_t lhu(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 5, rd, 0x03); }
inline uint32_t sb(uint32_t rs2, uint32_t rs1, int32_t imm) { return S(imm, rs2, rs1, 0, 0x23); }
inline uint32_t sh(uint32_t rs2, uint32_t rs1, int32_t imm) { return S(imm, rs2, rs1, 1, 0x23); }
inline uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) { return S(imm, rs2, rs1, 2, 0x23); }
inline uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 0, rd, 0x13); }
inline uint32_t slti(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 2, rd, 0x13); }
inline uint32_t sltiu(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 3, rd, 0x13); }
inline uint32_t xori(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 4, rd, 0x13); }
inline uint32_t ori(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 6, rd, 0x13); }
inline uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm) { return I(imm, rs1, 7, rd, 0x13); }
inline uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t sh) { return R(0, sh, rs1, 1, rd, 0x13); }
inline uint32_t srli(uint32_t rd, uint32_t rs1, uint32_t sh) { return R(0, sh, rs1, 5, rd, 0x13); }
inline uint32_t srai(uint32_t rd, uint32_t rs1, uint32_t sh) { return R(0x20, sh, rs1, 5, rd, 0x13); }
inline uint32_t add(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 0, rd, 0x33); }
inline uint32_t sub(uint32_t rd, uint32_t a, uint32_t b) { return R(0x20, b, a, 0, rd, 0x33); }
inline uint32_t sll(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 1, rd, 0x33); }
inline uint32_t slt(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 2, rd, 0x33); }
inline uint32_t sltu(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 3, rd, 0x33); }
inline uint32_t xor_(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 4, rd, 0x33); }
inline uint32_t srl(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 5, rd, 0x33); }
inline uint32_t sra(uint32_t rd, uint32_t a, uint32_t b) { return R(0x20, b, a, 5, rd, 0x33); }
inline uint32_t or_(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 6, rd, 0x33); }
inline uint32_t and_(uint32_t rd, uint32_t a, uint32_t b) { return R(0, b, a, 7, rd, 0x33); }
inline uint32_t mul(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 0, rd, 0x33); }
inline uint32_t mulh(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 1, rd, 0x33); }
inline uint32_t mulhsu(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 2, rd, 0x33); }
inline uint32_t mulhu(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 3, rd, 0x33); }
inline uint32_t div_(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 4, rd, 0x33); }
inline uint32_t divu(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 5, rd, 0x33); }
inline uint32_t rem(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 6, rd, 0x33); }
inline uint32_t remu(uint32_t rd, uint32_t a, uint32_t b) { return R(1, b, a, 7, rd, 0x33); }
inline uint32_t fence() { return 0x0ff0000f; }
inline uint32_t fence_i() { return 0x0000100f; }
inline uint32_t ecall() { return 0x00000073; }
inline uint32_t ebreak() { return 0x00100073; }
inline uint32_t mret() { return 0x30200073; }
inline uint32_t wfi() { return 0x10500073; }
inline uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return (csr << 20) | (rs1 << 15) | (1 << 12) | (rd << 7) | 0x73;
}
inline uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return (csr << 20) | (rs1 << 15) | (2 << 12) | (rd << 7) | 0x73;
}
inline uint32_t csrrc(uint32_t rd, uint32_t csr, uint32_t rs1) {
  return (csr << 20) | (rs1 << 15) | (3 << 12) | (rd << 7) | 0x73;
}
inline uint32_t csrrwi(uint32_t rd, uint32_t csr, uint32_t z) {
  return (csr << 20) | (z << 15) | (5 << 12) | (rd << 7) | 0x73;
}
inline uint32_t csrrsi(uint32_t rd, uint32_t csr, uint32_t z) {
  return (csr << 20) | (z << 15) | (6 << 12) | (rd << 7) | 0x73;
}
inline uint32_t csrrci(uint32_t rd, uint32_t csr, uint32_t z) {
  return (csr << 20) | (z << 15) | (7 << 12) | (rd << 7) | 0x73;
}

// --- RV32C (16-bit); rd'/rs' arguments are full register numbers 8..15 ---
inline uint16_t cbits(uint32_t v, int hi, int lo) {
  return static_cast<uint16_t>((v >> lo) & ((1u << (hi - lo + 1)) - 1));
}
inline uint16_t c_addi4spn(uint32_t rdp, uint32_t nzuimm) {
  return static_cast<uint16_t>((cbits(nzuimm, 5, 4) << 11) | (cbits(nzuimm, 9, 6) << 7) | (cbits(nzuimm, 2, 2) << 6) |
                               (cbits(nzuimm, 3, 3) << 5) | ((rdp - 8) << 2) | 0);
}
inline uint16_t c_lw(uint32_t rdp, uint32_t rs1p, uint32_t off) {
  return static_cast<uint16_t>((2 << 13) | (cbits(off, 5, 3) << 10) | ((rs1p - 8) << 7) | (cbits(off, 2, 2) << 6) |
                               (cbits(off, 6, 6) << 5) | ((rdp - 8) << 2));
}
inline uint16_t c_sw(uint32_t rs2p, uint32_t rs1p, uint32_t off) {
  return static_cast<uint16_t>((6 << 13) | (cbits(off, 5, 3) << 10) | ((rs1p - 8) << 7) | (cbits(off, 2, 2) << 6) |
                               (cbits(off, 6, 6) << 5) | ((rs2p - 8) << 2));
}
inline uint16_t ci(uint32_t f3, uint32_t rd, int32_t imm6, uint32_t q) {
  const uint32_t u = static_cast<uint32_t>(imm6);
  return static_cast<uint16_t>((f3 << 13) | (cbits(u, 5, 5) << 12) | (rd << 7) | (cbits(u, 4, 0) << 2) | q);
}
inline uint16_t c_nop() { return ci(0, 0, 0, 1); }
inline uint16_t c_addi(uint32_t rd, int32_t imm) { return ci(0, rd, imm, 1); }
inline uint16_t c_li(uint32_t rd, int32_t imm) { return ci(2, rd, imm, 1); }
inline uint16_t c_lui(uint32_t rd, int32_t imm6) { return ci(3, rd, imm6, 1); }  // rd = imm6 << 12
inline uint16_t c_addi16sp(int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return static_cast<uint16_t>((3 << 13) | (cbits(u, 9, 9) << 12) | (2 << 7) | (cbits(u, 4, 4) << 6) |
                               (cbits(u, 6, 6) << 5) | (cbits(u, 8, 7) << 3) | (cbits(u, 5, 5) << 2) | 1);
}
inline uint16_t cj_imm(int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return static_cast<uint16_t>((cbits(u, 11, 11) << 12) | (cbits(u, 4, 4) << 11) | (cbits(u, 9, 8) << 9) |
                               (cbits(u, 10, 10) << 8) | (cbits(u, 6, 6) << 7) | (cbits(u, 7, 7) << 6) |
                               (cbits(u, 3, 1) << 3) | (cbits(u, 5, 5) << 2));
}
inline uint16_t c_jal(int32_t off) { return static_cast<uint16_t>((1 << 13) | cj_imm(off) | 1); }
inline uint16_t c_j(int32_t off) { return static_cast<uint16_t>((5 << 13) | cj_imm(off) | 1); }
inline uint16_t c_srli(uint32_t rdp, uint32_t sh) {
  return static_cast<uint16_t>((4 << 13) | (0 << 10) | ((rdp - 8) << 7) | (sh << 2) | 1);
}
inline uint16_t c_srai(uint32_t rdp, uint32_t sh) {
  return static_cast<uint16_t>((4 << 13) | (1 << 10) | ((rdp - 8) << 7) | (sh << 2) | 1);
}
inline uint16_t c_andi(uint32_t rdp, int32_t imm) {
  const uint32_t u = static_cast<uint32_t>(imm);
  return static_cast<uint16_t>((4 << 13) | (cbits(u, 5, 5) << 12) | (2 << 10) | ((rdp - 8) << 7) |
                               (cbits(u, 4, 0) << 2) | 1);
}
inline uint16_t c_arith(uint32_t f, uint32_t rdp, uint32_t rs2p) {
  return static_cast<uint16_t>((4 << 13) | (3 << 10) | ((rdp - 8) << 7) | (f << 5) | ((rs2p - 8) << 2) | 1);
}
inline uint16_t c_sub(uint32_t rdp, uint32_t rs2p) { return c_arith(0, rdp, rs2p); }
inline uint16_t c_xor(uint32_t rdp, uint32_t rs2p) { return c_arith(1, rdp, rs2p); }
inline uint16_t c_or(uint32_t rdp, uint32_t rs2p) { return c_arith(2, rdp, rs2p); }
inline uint16_t c_and(uint32_t rdp, uint32_t rs2p) { return c_arith(3, rdp, rs2p); }
inline uint16_t cb(uint32_t f3, uint32_t rs1p, int32_t off) {
  const uint32_t u = static_cast<uint32_t>(off);
  return static_cast<uint16_t>((f3 << 13) | (cbits(u, 8, 8) << 12) | (cbits(u, 4, 3) << 10) | ((rs1p - 8) << 7) |
                               (cbits(u, 7, 6) << 5) | (cbits(u, 2, 1) << 3) | (cbits(u, 5, 5) << 2) | 1);
}
inline uint16_t c_beqz(uint32_t rs1p, int32_t off) { return cb(6, rs1p, off); }
inline uint16_t c_bnez(uint32_t rs1p, int32_t off) { return cb(7, rs1p, off); }
inline uint16_t c_slli(uint32_t rd, uint32_t sh) { return static_cast<uint16_t>((rd << 7) | (sh << 2) | 2); }
inline uint16_t c_lwsp(uint32_t rd, uint32_t off) {
  return static_cast<uint16_t>((2 << 13) | (cbits(off, 5, 5) << 12) | (rd << 7) | (cbits(off, 4, 2) << 4) |
                               (cbits(off, 7, 6) << 2) | 2);
}
inline uint16_t c_swsp(uint32_t rs2, uint32_t off) {
  return static_cast<uint16_t>((6 << 13) | (cbits(off, 5, 2) << 9) | (cbits(off, 7, 6) << 7) | (rs2 << 2) | 2);
}
inline uint16_t c_jr(uint32_t rs1) { return static_cast<uint16_t>((4 << 13) | (rs1 << 7) | 2); }
inline uint16_t c_mv(uint32_t rd, uint32_t rs2) {
  return static_cast<uint16_t>((4 << 13) | (rd << 7) | (rs2 << 2) | 2);
}
inline uint16_t c_ebreak() { return static_cast<uint16_t>((4 << 13) | (1 << 12) | 2); }
inline uint16_t c_jalr(uint32_t rs1) { return static_cast<uint16_t>((4 << 13) | (1 << 12) | (rs1 << 7) | 2); }
inline uint16_t c_add(uint32_t rd, uint32_t rs2) {
  return static_cast<uint16_t>((4 << 13) | (1 << 12) | (rd << 7) | (rs2 << 2) | 2);
}

// A bus that serves a small MMIO window and records accesses; faults elsewhere.
struct MockBus : BusIf {
  uint32_t mmio_base = 0x00020000, mmio_size = 0x1000;
  uint32_t regs[0x400] = {};
  uint64_t latency = 0;
  int reads = 0, writes = 0;
  std::function<void(uint32_t addr, uint32_t value)> on_write;
  bool read(uint32_t addr, uint32_t size, uint32_t& value, uint64_t& extra) override {
    ++reads;
    if (addr - mmio_base >= mmio_size) return false;
    uint32_t w = regs[(addr - mmio_base) / 4];
    value = w >> (8 * (addr & 3));
    if (size == 1) value &= 0xff;
    if (size == 2) value &= 0xffff;
    extra = latency;
    return true;
  }
  bool write(uint32_t addr, uint32_t size, uint32_t value, uint64_t& extra) override {
    ++writes;
    if (addr - mmio_base >= mmio_size) return false;
    if (size == 4) regs[(addr - mmio_base) / 4] = value;
    extra = latency;
    if (on_write) on_write(addr, value);
    return true;
  }
};

// Core with IMEM (64 KiB at 0) and DMEM (64 KiB at 0x10000); emits code from 0.
// The ISS's run paths (docs/iss.md): ctest runs these tests three times, with HETVP_TEST_RV32_MODE
// unset (the default: blocks translated to host code), "threaded" (blocks, no translation) and
// "interp" (--no-jit: the per-instruction interpreter).
inline void apply_rv32_test_mode(Rv32Core& core) {
  const char* m = std::getenv("HETVP_TEST_RV32_MODE");
  if (!m) return;
  if (std::string(m) == "interp") core.set_threaded_blocks(false);
  if (std::string(m) == "threaded") core.set_x86_translation(false);
}

struct Harness {
  static constexpr uint32_t kImem = 0x0, kImemSize = 0x10000, kDmem = 0x10000, kDmemSize = 0x10000;
  std::vector<uint8_t> imem = std::vector<uint8_t>(kImemSize, 0);
  std::vector<uint8_t> dmem = std::vector<uint8_t>(kDmemSize, 0);
  MockBus bus;
  Rv32Core core;
  uint32_t at = 0;  // emit position

  Harness() {
    core.add_region(MemRegion{kImem, kImemSize, imem.data(), true, true});
    core.add_region(MemRegion{kDmem, kDmemSize, dmem.data(), true, false});
    core.set_bus(&bus);
    core.set_debug_mode(true);  // ebreak ends a test program
    apply_rv32_test_mode(core);
    core.reset(0);
  }
  Harness& e(uint32_t insn) {
    std::memcpy(&imem[at], &insn, 4);
    at += 4;
    return *this;
  }
  Harness& c(uint16_t insn) {
    std::memcpy(&imem[at], &insn, 2);
    at += 2;
    return *this;
  }
  Harness& org(uint32_t a) {
    at = a;
    return *this;
  }
  // li via lui+addi (always 8 bytes)
  Harness& li(uint32_t rd, uint32_t v) {
    const uint32_t hi = (v + 0x800) & 0xfffff000u;
    e(lui(rd, hi));
    const uint32_t lo = (v - hi) & 0xfff;
    return e(addi(rd, rd, static_cast<int32_t>(lo >= 0x800 ? lo - 0x1000 : lo)));
  }
  Harness& end() { return e(ebreak()); }
  RunResult run(uint64_t budget = 1000000) { return core.run(budget); }
  uint32_t x(unsigned r) const { return core.read_gpr(r); }
  uint32_t csr(uint32_t n) const {
    uint32_t v = 0;
    core.read_csr(n, v);
    return v;
  }
  uint32_t dword(uint32_t addr) const {
    uint32_t v;
    std::memcpy(&v, &dmem[addr - kDmem], 4);
    return v;
  }
  void set_dword(uint32_t addr, uint32_t v) { std::memcpy(&dmem[addr - kDmem], &v, 4); }
};

}  // namespace rv32test
