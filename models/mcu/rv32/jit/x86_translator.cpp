// hetvp — RV32 ISS: x86-64 translation of pre-decoded blocks (see x86_translator.h for the contract).
// A deliberately small translator: one fixed instruction pattern per RV32 op, eax/ecx/edx as
// scratch, the block's most used guest registers in host registers, no cross-block chaining.
#include "models/mcu/rv32/jit/x86_translator.h"

#include "models/mcu/rv32/core.h"
#include "models/mcu/rv32/ops.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#if defined(__x86_64__) && defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#define HETVP_JIT_X86 1
#else
#define HETVP_JIT_X86 0
#endif

namespace hetvp::mcu::rv32 {

#if HETVP_JIT_X86

namespace {
constexpr size_t kBufferSize = 4u << 20;  // per core; full = drop every block and start over
constexpr size_t kMaxBlockCode = 16u << 10;

// host registers
enum : uint8_t { RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSP = 4, RBP = 5, RSI = 6, RDI = 7, R8 = 8 };
// host registers that may hold guest registers: caller-saved first (no push/pop needed)
constexpr uint8_t kPool[] = {8, 9, 10, 11, RBX, RBP, 12, 13, 14, 15};
constexpr uint8_t kNoReg = 0xff;

struct Asm {
  uint8_t* p;
  uint8_t* const start;
  explicit Asm(uint8_t* at) : p(at), start(at) {}
  void b(uint8_t v) { *p++ = v; }
  void d(uint32_t v) {
    std::memcpy(p, &v, 4);
    p += 4;
  }
  size_t size() const { return static_cast<size_t>(p - start); }
  // REX prefix when needed: w = 64-bit operand, r = modrm.reg, bx = modrm.rm/base
  void rex(bool w, uint8_t r, uint8_t bx, bool force = false) {
    const uint8_t v = 0x40 | (w ? 8 : 0) | ((r & 8) ? 4 : 0) | ((bx & 8) ? 1 : 0);
    if (v != 0x40 || force) b(v);
  }
  // op reg, [base + disp8]  (base is rdi or rsi: no SIB)
  void rm_mem(uint8_t opc, uint8_t reg, uint8_t base, int8_t disp, bool w = false) {
    rex(w, reg, base);
    b(opc);
    b(static_cast<uint8_t>(0x40 | ((reg & 7) << 3) | (base & 7)));
    b(static_cast<uint8_t>(disp));
  }
  // op rm(dst), reg(src) register-register, 32-bit (opc is the "op r/m32, r32" form)
  void rr(uint8_t opc, uint8_t dst, uint8_t src, bool w = false) {
    rex(w, src, dst);
    b(opc);
    b(static_cast<uint8_t>(0xC0 | ((src & 7) << 3) | (dst & 7)));
  }
  void mov_rr(uint8_t dst, uint8_t src) {
    if (dst != src) rr(0x89, dst, src);
  }
  void mov_imm(uint8_t dst, uint32_t v) {
    if (v == 0) {
      rr(0x31, dst, dst);  // xor
      return;
    }
    rex(false, 0, dst);
    b(static_cast<uint8_t>(0xB8 | (dst & 7)));
    d(v);
  }
  // 81 /digit id on eax-family register
  void alu_imm(uint8_t digit, uint8_t dst, uint32_t v) {
    rex(false, 0, dst);
    b(0x81);
    b(static_cast<uint8_t>(0xC0 | (digit << 3) | (dst & 7)));
    d(v);
  }
  // jcc rel32 to be patched; returns the position of the rel32
  uint8_t* jcc(uint8_t cc) {
    b(0x0F);
    b(static_cast<uint8_t>(0x80 | cc));
    uint8_t* at = p;
    d(0);
    return at;
  }
  uint8_t* jmp() {
    b(0xE9);
    uint8_t* at = p;
    d(0);
    return at;
  }
  static void patch(uint8_t* at, const uint8_t* target) {
    const int32_t rel = static_cast<int32_t>(target - (at + 4));
    std::memcpy(at, &rel, 4);
  }
};

enum Cc : uint8_t { CC_B = 2, CC_AE = 3, CC_E = 4, CC_NE = 5, CC_L = 0xC, CC_GE = 0xD, CC_G = 0xF };

constexpr int8_t off(size_t o) { return static_cast<int8_t>(o); }
const int8_t kCur = off(offsetof(JitCtx, cur)), kCyc = off(offsetof(JitCtx, cyc)), kIns = off(offsetof(JitCtx, ins)),
             kLimit = off(offsetof(JitCtx, limit)), kNextPc = off(offsetof(JitCtx, next_pc)),
             kLbase = off(offsetof(JitCtx, lbase)), kLlim1 = off(offsetof(JitCtx, llim1)),
             kLlim2 = off(offsetof(JitCtx, llim2)), kLlim4 = off(offsetof(JitCtx, llim4)),
             kLhost = off(offsetof(JitCtx, lhost)), kSbase = off(offsetof(JitCtx, sbase)),
             kSlim1 = off(offsetof(JitCtx, slim1)), kSlim2 = off(offsetof(JitCtx, slim2)),
             kSlim4 = off(offsetof(JitCtx, slim4)), kShost = off(offsetof(JitCtx, shost));
static_assert(sizeof(JitCtx) < 128, "JitCtx fields are addressed with 8-bit displacements");

bool translatable(uint8_t op) {
  switch (op) {
    case OP_DIV:
    case OP_DIVU:
    case OP_REM:
    case OP_REMU:
      return false;
    default:
      return op >= OP_NOP && op <= OP_REMU;
  }
}
bool is_branch(uint8_t op) { return op >= OP_BEQ && op <= OP_BGEU; }

struct Gen {
  Asm a;
  std::array<uint8_t, 33> host{};  // guest reg -> host reg (kNoReg: in memory)
  std::array<bool, 33> written{};
  std::vector<uint8_t> saved;                         // callee-saved host registers pushed by the prologue
  std::vector<std::pair<uint8_t*, uint32_t>> deopts;  // (jcc rel32 position, op index)
  std::vector<uint8_t*> to_epilogue;
  std::vector<uint8_t*> to_chain;  // jumps to the epilogue that ends in `jmp rax`
  JitSlots slots;

  explicit Gen(uint8_t* at) : a(at) { host.fill(kNoReg); }

  // guest register g into host register h (scratch)
  void get(uint8_t h, uint8_t g) {
    if (g == 0) {
      a.mov_imm(h, 0);
    } else if (host[g] != kNoReg) {
      a.mov_rr(h, host[g]);
    } else {
      a.rm_mem(0x8B, h, RDI, static_cast<int8_t>(4 * g));
    }
  }
  void put(uint8_t g, uint8_t h) {
    if (g == 0 || g == 32) return;  // writes to x0 go nowhere
    written[g] = true;
    if (host[g] != kNoReg)
      a.mov_rr(host[g], h);
    else
      a.rm_mem(0x89, h, RDI, static_cast<int8_t>(4 * g));
  }
  void deopt_if(uint8_t cc, uint32_t k) { deopts.emplace_back(a.jcc(cc), k); }
  void ret_code(int32_t code) {  // mov eax, code; jmp epilogue
    a.mov_imm(RAX, static_cast<uint32_t>(code));
    to_epilogue.push_back(a.jmp());
  }
  // The block is done, going to static target t after `cycles` cycles and n instructions: account
  // them, set next_pc, chain to t's translated code when it exists and may start, else return -1.
  void exit_to(uint32_t t, uint64_t cycles, uint32_t n) {
    a.b(0x48), a.b(0x81), a.b(0x46), a.b(static_cast<uint8_t>(kCyc)), a.d(static_cast<uint32_t>(cycles));
    a.b(0x48), a.b(0x81), a.b(0x46), a.b(static_cast<uint8_t>(kIns)), a.d(n);
    a.b(0xC7);  // mov dword [rsi+next_pc], t
    a.b(static_cast<uint8_t>(0x40 | RSI));
    a.b(static_cast<uint8_t>(kNextPc));
    a.d(t);
    if (slots.slots && t - slots.base < slots.size) {
      const uint64_t slot = reinterpret_cast<uint64_t>(slots.slots + ((t - slots.base) >> 1));
      a.b(0x48), a.b(0xB8);  // mov rax, imm64 (the slot's address)
      std::memcpy(a.p, &slot, 8);
      a.p += 8;
      a.b(0x48), a.b(0x8B), a.b(0x00);  // mov rax, [rax]
      a.b(0x48), a.b(0x85), a.b(0xC0);  // test rax, rax
      uint8_t* none = a.jcc(CC_E);
      a.rm_mem(0x8B, RDX, RSI, kCyc, true);        // mov rdx, [c->cyc]
      a.b(0x48), a.b(0x03), a.b(0x50), a.b(0xF8);  // add rdx, [rax - 8]  (target's cost_before_last)
      a.rm_mem(0x3B, RDX, RSI, kLimit, true);      // cmp rdx, [c->limit]
      to_chain.push_back(a.jcc(CC_B));
      Asm::patch(none, a.p);
    }
    ret_code(-1);
  }
  // eax = guest effective address - base; exits at op k unless within [0, lim] and aligned
  void mem_check(const BOp& o, uint32_t k, uint32_t size, int8_t base, int8_t lim) {
    get(RAX, o.rs1);
    if (o.imm) a.alu_imm(0, RAX, static_cast<uint32_t>(o.imm));
    a.rm_mem(0x2B, RAX, RSI, base);       // sub eax, [c->base]  (zero-extends into rax)
    a.rm_mem(0x3B, RAX, RSI, lim, true);  // cmp rax, [c->lim]
    deopt_if(CC_G, k);
    if (size > 1) {
      a.b(0xA8);  // test al, size-1
      a.b(static_cast<uint8_t>(size - 1));
      deopt_if(CC_NE, k);
    }
  }
};

}  // namespace

JitBuffer::~JitBuffer() {
  if (mem_) munmap(mem_, cap_);
  if (exec_) munmap(const_cast<uint8_t*>(exec_), cap_);
}

// Two views of one anonymous memory file: written through the read-write one, run through the
// read-execute one (W^X; no mprotect flips, so translation costs no system call per block).
bool JitBuffer::ensure() {
  if (mem_) return true;
  if (failed_) return false;
  failed_ = true;
  const int fd = memfd_create("hetvp-jit", MFD_CLOEXEC);
  if (fd < 0) return false;
  void* w = MAP_FAILED;
  void* x = MAP_FAILED;
  if (ftruncate(fd, static_cast<off_t>(kBufferSize)) == 0) {
    w = mmap(nullptr, kBufferSize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    x = mmap(nullptr, kBufferSize, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
  }
  close(fd);  // the mappings keep the memory
  if (w == MAP_FAILED || x == MAP_FAILED) {
    if (w != MAP_FAILED) munmap(w, kBufferSize);
    if (x != MAP_FAILED) munmap(x, kBufferSize);
    return false;
  }
  failed_ = false;
  mem_ = static_cast<uint8_t*>(w);
  exec_ = static_cast<const uint8_t*>(x);
  cap_ = kBufferSize;
  used_ = 0;
  return true;
}

bool jit_supported() { return true; }

JitFn jit_translate(const Block& b, uint32_t mmask, const JitSlots& slots, JitBuffer& buf) {
  if (!buf.ensure() || buf.room() < kMaxBlockCode) return nullptr;
  if (b.n == 0 || b.ops.size() * 200 + 512 > kMaxBlockCode) return nullptr;
  for (uint32_t k = 0; k < b.n; ++k)
    if (!translatable(b.ops[k].opc)) return nullptr;
  const BOp& last = b.ops[b.n - 1];
  const bool self_loop = is_branch(last.opc) && last.pc + static_cast<uint32_t>(last.imm) == b.start;

  // header: 8 int3 bytes, then cost_before_last (read by chaining blocks at entry - 8)
  uint8_t* const header = buf.cursor();
  std::memset(header, 0xCC, 8);
  const uint64_t cbl = b.cost_before_last;
  std::memcpy(header + 8, &cbl, 8);
  Gen g(header + 16);
  g.slots = slots;
  Asm& a = g.a;

  // register caching: the most used guest registers (x1..x31) get host registers
  std::array<uint32_t, 33> uses{};
  for (uint32_t k = 0; k < b.n; ++k) {
    const BOp& o = b.ops[k];
    ++uses[o.rd];
    ++uses[o.rs1];
    ++uses[o.rs2];
  }
  uses[0] = uses[32] = 0;
  std::vector<uint8_t> order;
  for (uint8_t r = 1; r < 32; ++r)
    if (uses[r] >= (self_loop ? 1u : 2u)) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](uint8_t p, uint8_t q) { return uses[p] > uses[q]; });
  if (order.size() > std::size(kPool)) order.resize(std::size(kPool));
  for (size_t k = 0; k < order.size(); ++k) {
    g.host[order[k]] = kPool[k];
    if (kPool[k] < 8 || kPool[k] >= 12) g.saved.push_back(kPool[k]);  // rbx, rbp, r12..r15
  }
  // prologue: save callee-saved registers, load cached guest registers
  for (uint8_t h : g.saved) {
    a.rex(false, 0, h);
    a.b(static_cast<uint8_t>(0x50 | (h & 7)));  // push
  }
  {  // c->cur = &b
    const uint64_t bp = reinterpret_cast<uint64_t>(&b);
    a.b(0x48), a.b(0xB8);  // mov rax, imm64
    std::memcpy(a.p, &bp, 8);
    a.p += 8;
    a.rm_mem(0x89, RAX, RSI, kCur, true);  // mov [c->cur], rax
  }
  for (uint8_t r : order) a.rm_mem(0x8B, g.host[r], RDI, static_cast<int8_t>(4 * r));
  uint8_t* const loop_head = a.p;

  for (uint32_t k = 0; k < b.ops.size(); ++k) {
    const BOp& o = b.ops[k];
    if (k == b.n) {  // the END op: fall through to the next block
      g.exit_to(o.pc, b.cost, b.n);
      break;
    }
    const uint32_t uimm = static_cast<uint32_t>(o.imm);
    switch (o.opc) {
      case OP_NOP:
        break;
      case OP_LI:  // auipc is built as LI with pc folded in
        a.mov_imm(RAX, uimm);
        g.put(o.rd, RAX);
        break;
      case OP_ADDI:
      case OP_XORI:
      case OP_ORI:
      case OP_ANDI: {
        static const uint8_t digit[] = {0 /*ADDI*/, 0, 0, 6 /*XORI*/, 1 /*ORI*/, 4 /*ANDI*/};
        g.get(RAX, o.rs1);
        if (uimm || o.opc == OP_ANDI) a.alu_imm(digit[o.opc - OP_ADDI], RAX, uimm);
        g.put(o.rd, RAX);
        break;
      }
      case OP_SLTI:
      case OP_SLTIU:
        g.get(RAX, o.rs1);
        a.alu_imm(7, RAX, uimm);  // cmp eax, imm
        a.b(0x0F);
        a.b(o.opc == OP_SLTI ? 0x9C : 0x92);  // setl / setb al
        a.b(0xC0);
        a.b(0x0F);
        a.b(0xB6);
        a.b(0xC0);  // movzx eax, al
        g.put(o.rd, RAX);
        break;
      case OP_SLLI:
      case OP_SRLI:
      case OP_SRAI: {
        g.get(RAX, o.rs1);
        const uint8_t digit = o.opc == OP_SLLI ? 4 : o.opc == OP_SRLI ? 5 : 7;
        if (uimm & 31) {
          a.b(0xC1);
          a.b(static_cast<uint8_t>(0xC0 | (digit << 3)));
          a.b(static_cast<uint8_t>(uimm & 31));
        }
        g.put(o.rd, RAX);
        break;
      }
      case OP_ADD:
      case OP_SUB:
      case OP_XOR:
      case OP_OR:
      case OP_AND: {
        const uint8_t opc = o.opc == OP_ADD   ? 0x01
                            : o.opc == OP_SUB ? 0x29
                            : o.opc == OP_XOR ? 0x31
                            : o.opc == OP_OR  ? 0x09
                                              : 0x21;
        g.get(RAX, o.rs1);
        g.get(RCX, o.rs2);
        a.rr(opc, RAX, RCX);
        g.put(o.rd, RAX);
        break;
      }
      case OP_SLL:
      case OP_SRL:
      case OP_SRA: {  // x86 masks the count in cl to 5 bits, as RV32 does
        g.get(RCX, o.rs2);
        g.get(RAX, o.rs1);
        const uint8_t digit = o.opc == OP_SLL ? 4 : o.opc == OP_SRL ? 5 : 7;
        a.b(0xD3);
        a.b(static_cast<uint8_t>(0xC0 | (digit << 3)));
        g.put(o.rd, RAX);
        break;
      }
      case OP_SLT:
      case OP_SLTU:
        g.get(RAX, o.rs1);
        g.get(RCX, o.rs2);
        a.rr(0x39, RAX, RCX);  // cmp eax, ecx
        a.b(0x0F);
        a.b(o.opc == OP_SLT ? 0x9C : 0x92);
        a.b(0xC0);
        a.b(0x0F);
        a.b(0xB6);
        a.b(0xC0);
        g.put(o.rd, RAX);
        break;
      case OP_MUL:
        g.get(RAX, o.rs1);
        g.get(RCX, o.rs2);
        a.b(0x0F);
        a.b(0xAF);
        a.b(0xC1);  // imul eax, ecx
        g.put(o.rd, RAX);
        break;
      case OP_MULH:
      case OP_MULHU:
        g.get(RAX, o.rs1);
        g.get(RCX, o.rs2);
        a.b(0xF7);
        a.b(o.opc == OP_MULH ? 0xE9 : 0xE1);  // imul ecx / mul ecx -> edx:eax
        g.put(o.rd, RDX);
        break;
      case OP_MULHSU:
        g.get(RAX, o.rs1);
        g.get(RCX, o.rs2);  // 32-bit mov zero-extends rcx
        a.b(0x48);
        a.b(0x63);
        a.b(0xC0);  // movsxd rax, eax
        a.b(0x48);
        a.b(0x0F);
        a.b(0xAF);
        a.b(0xC1);  // imul rax, rcx
        a.b(0x48);
        a.b(0xC1);
        a.b(0xE8);
        a.b(32);  // shr rax, 32
        g.put(o.rd, RAX);
        break;
      case OP_LB:
      case OP_LH:
      case OP_LW:
      case OP_LBU:
      case OP_LHU: {
        const uint32_t size = (o.opc == OP_LW) ? 4 : (o.opc == OP_LH || o.opc == OP_LHU) ? 2 : 1;
        g.mem_check(o, k, size, kLbase, size == 4 ? kLlim4 : size == 2 ? kLlim2 : kLlim1);
        a.rm_mem(0x8B, RDX, RSI, kLhost, true);  // mov rdx, [c->lhost]
        switch (o.opc) {                         // load from [rdx + rax] into eax
          case OP_LB:
            a.b(0x0F), a.b(0xBE);
            break;
          case OP_LBU:
            a.b(0x0F), a.b(0xB6);
            break;
          case OP_LH:
            a.b(0x0F), a.b(0xBF);
            break;
          case OP_LHU:
            a.b(0x0F), a.b(0xB7);
            break;
          default:
            a.b(0x8B);
        }
        a.b(0x04);
        a.b(0x02);
        g.put(o.rd, RAX);
        break;
      }
      case OP_SB:
      case OP_SH:
      case OP_SW: {
        const uint32_t size = o.opc == OP_SW ? 4 : o.opc == OP_SH ? 2 : 1;
        g.mem_check(o, k, size, kSbase, size == 4 ? kSlim4 : size == 2 ? kSlim2 : kSlim1);
        a.rm_mem(0x8B, RDX, RSI, kShost, true);  // mov rdx, [c->shost]
        g.get(RCX, o.rs2);
        if (size == 2) a.b(0x66);
        a.b(size == 1 ? 0x88 : 0x89);  // mov [rdx + rax], cl / cx / ecx
        a.b(0x0C);
        a.b(0x02);
        break;
      }
      case OP_JAL: {
        const uint32_t t = o.pc + uimm;
        if (t & mmask) return nullptr;  // traps: leave it to the interpreter
        a.mov_imm(RAX, o.pc + o.len);
        g.put(o.rd, RAX);
        g.exit_to(t, b.cost, b.n);
        break;
      }
      case OP_JALR:
        g.get(RAX, o.rs1);
        if (uimm) a.alu_imm(0, RAX, uimm);
        a.alu_imm(4, RAX, ~1u);  // and eax, ~1
        if (mmask) {
          a.b(0xA8);
          a.b(static_cast<uint8_t>(mmask));
          g.deopt_if(CC_NE, k);
        }
        a.rm_mem(0x89, RAX, RSI, kNextPc);  // mov [c->next_pc], eax
        a.mov_imm(RAX, o.pc + o.len);
        g.put(o.rd, RAX);
        a.b(0x48), a.b(0x81), a.b(0x46), a.b(static_cast<uint8_t>(kCyc)), a.d(b.cost);
        a.b(0x48), a.b(0x81), a.b(0x46), a.b(static_cast<uint8_t>(kIns)), a.d(b.n);
        g.ret_code(-1);
        break;
      case OP_BEQ:
      case OP_BNE:
      case OP_BLT:
      case OP_BGE:
      case OP_BLTU:
      case OP_BGEU: {
        const uint32_t t = o.pc + uimm;
        if (t & mmask) return nullptr;
        static const uint8_t cc[] = {CC_E, CC_NE, CC_L, CC_GE, CC_B, CC_AE};
        g.get(RAX, o.rs1);
        g.get(RCX, o.rs2);
        a.rr(0x39, RAX, RCX);  // cmp eax, ecx
        const uint64_t iter = static_cast<uint64_t>(b.cost) + static_cast<int64_t>(o.tdelta);
        if (iter > 0x7fffffffu || b.cost > 0x7fffffffu || b.cost_before_last > 0x7fffffffu) return nullptr;
        uint8_t* taken = a.jcc(cc[o.opc - OP_BEQ]);
        g.exit_to(o.pc + o.len, b.cost, b.n);  // not taken
        Asm::patch(taken, a.p);
        if (self_loop) {
          // back edge: account the iteration, go round again if the next one may start
          a.b(0x48), a.b(0x81), a.b(0x46), a.b(static_cast<uint8_t>(kCyc)), a.d(static_cast<uint32_t>(iter));
          a.b(0x48), a.b(0x81), a.b(0x46), a.b(static_cast<uint8_t>(kIns)), a.d(b.n);
          a.rm_mem(0x8B, RAX, RSI, kCyc, true);           // mov rax, [c->cyc]
          a.b(0x48), a.b(0x05), a.d(b.cost_before_last);  // add rax, cbl
          a.rm_mem(0x3B, RAX, RSI, kLimit, true);         // cmp rax, [c->limit]
          Asm::patch(a.jcc(CC_B), loop_head);
          a.b(0xC7);
          a.b(static_cast<uint8_t>(0x40 | RSI));
          a.b(static_cast<uint8_t>(kNextPc));
          a.d(t);
          g.ret_code(-1);
        } else {
          g.exit_to(t, iter, b.n);
        }
        break;
      }
      default:
        return nullptr;
    }
  }
  // deopt stubs: mov eax, k; jmp epilogue
  for (auto& [at, k] : g.deopts) {
    Asm::patch(at, a.p);
    g.ret_code(static_cast<int32_t>(k));
  }
  // epilogues: store written cached registers, restore callee-saved ones, then return eax or (chain)
  // jump to the next block's code in rax
  for (int chain = 0; chain < 2; ++chain) {
    auto& from = chain ? g.to_chain : g.to_epilogue;
    if (from.empty()) continue;
    for (auto* at : from) Asm::patch(at, a.p);
    for (uint8_t r : order)
      if (g.written[r]) a.rm_mem(0x89, g.host[r], RDI, static_cast<int8_t>(4 * r));
    for (auto it = g.saved.rbegin(); it != g.saved.rend(); ++it) {
      a.rex(false, 0, *it);
      a.b(static_cast<uint8_t>(0x58 | (*it & 7)));  // pop
    }
    if (chain)
      a.b(0xFF), a.b(0xE0);  // jmp rax
    else
      a.b(0xC3);  // ret
  }
  if (a.size() + 16 > kMaxBlockCode) std::abort();  // cannot happen: bounded per op above
  while (a.size() & 15) a.b(0xCC);                  // int3 padding up to the next block
  buf.commit(16 + a.size());
  return reinterpret_cast<JitFn>(const_cast<uint8_t*>(buf.to_exec(header + 16)));
}

#else  // no translator on this host: the threaded blocks run

JitBuffer::~JitBuffer() = default;
bool JitBuffer::ensure() { return false; }
bool jit_supported() { return false; }
JitFn jit_translate(const Block&, uint32_t, const JitSlots&, JitBuffer&) { return nullptr; }

#endif

}  // namespace hetvp::mcu::rv32
