// hetvp — the Falcon instruction forms (isa_forms.h). Sources: envytools docs/hw/falcon/isa.rst (the
// "Sized" and "Unsized" opcode tables and each instruction's forms) for v0-v4; v5's re-encodings as
// read off envydis' listings of nouveau's fuc5 images (models/mcu/falcon/decode.cpp says which). The
// order inside each group is the one envyas tries: 8-bit immediate before 16-bit, sized forms before
// unsized ones, as checked word for word against nouveau's headers (tests/mcu/falcon/falcon_as/).
#include "models/mcu/falcon/asm/isa_forms.h"

#include <cstring>

namespace hetvp::mcu::falcon::isa {

namespace {

// Register fields.
constexpr uint8_t R0 = 0, RL = 8, RH = 12, R3 = 20;

Operand reg(uint8_t pos) { return {Kind::Reg, pos}; }
Operand sreg(uint8_t pos) { return {Kind::SReg, pos}; }
Operand imm(uint8_t pos, uint8_t width, uint8_t flags = 0, uint8_t shift = 0) {
  return {Kind::Imm, pos, width, flags, shift};
}
Operand pcrel(uint8_t pos, uint8_t width) { return {Kind::PcRel, pos, width, kSigned}; }
Operand mem(Mem m, uint8_t pos = 0, uint8_t pos2 = 0) { return {Kind::Mem, pos, 0, 0, 0, m, pos2}; }
Operand word(const char* w) { return {Kind::Word, 0, 0, 0, 0, 0, 0, w}; }
const Operand SZ{Kind::Size}, SP{Kind::Sp}, FLAGS{Kind::Flags}, COND{Kind::Cond, 8};
Operand flag(uint8_t pos) { return {Kind::Flag, pos}; }
Operand bitfield(uint8_t hi_width) { return {Kind::BitField, 16, hi_width}; }

struct Sub {
  const char* mnemonic;
  unsigned code;
  uint8_t versions;
};

std::vector<Form> build() {
  std::vector<Form> t;
  auto add = [&](const char* mn, uint8_t v, uint8_t len, uint64_t bits, std::vector<Operand> ops) {
    t.push_back({mn, v, len, bits, std::move(ops)});
  };
  const Sub arith8[] = {{"add", 0, kAll}, {"adc", 1, kAll}, {"sub", 2, kAll}, {"sbb", 3, kAll},
                        {"shl", 4, kAll}, {"shr", 5, kAll}, {"sar", 7, kAll}, {"shlc", 0xc, kAll},
                        {"shrc", 0xd, kAll}};
  const Sub addsub[] = {{"add", 0, kAll}, {"adc", 1, kAll}, {"sub", 2, kAll}, {"sbb", 3, kAll}};

  // ---- sized (bits 6-7 the size) ----
  add("st", kOld, 3, 0x00, {SZ, mem(D_RI, RH), reg(RL)});
  add("mov", V5, 2, 0x00, {reg(R0), imm(8, 8, kSigned)});
  add("mov", V5, 3, 0x40, {reg(R0), imm(8, 16, kSigned)});
  add("mov", V5, 4, 0x80, {reg(R0), imm(8, 24, kSigned)});
  for (const Sub& s : arith8) {
    add(s.mnemonic, s.versions, 3, 0x10 + s.code, {SZ, reg(RL), reg(RH), imm(16, 8)});
    if (s.code == 7) add("ld", kAll, 3, 0x18, {SZ, reg(RL), mem(D_RI, RH)});
  }
  for (const Sub& s : addsub) add(s.mnemonic, kOld, 4, 0x20 + s.code, {SZ, reg(RL), reg(RH), imm(16, 16)});
  add("st", V5, 2, 0x20, {SZ, mem(D_R, RH), reg(RL)});
  add("st", V5, 2, 0x21, {SZ, mem(D_SPR, RL), reg(RH)});
  add("cmpu", V5, 2, 0x24, {SZ, reg(RH), reg(RL)});
  add("cmps", V5, 2, 0x25, {SZ, reg(RH), reg(RL)});
  add("cmp", V5, 2, 0x26, {SZ, reg(RH), reg(RL)});
  add("st", kAll, 3, 0x0130, {SZ, mem(D_SPI), reg(RH)});
  add("cmpu", kAll, 3, 0x0430, {SZ, reg(RH), imm(16, 8)});
  add("cmpu", kAll, 4, 0x0431, {SZ, reg(RH), imm(16, 16)});
  add("cmps", kAll, 3, 0x0530, {SZ, reg(RH), imm(16, 8, kSigned)});
  add("cmps", kAll, 4, 0x0531, {SZ, reg(RH), imm(16, 16, kSigned)});
  add("cmp", kV3p, 3, 0x0630, {SZ, reg(RH), imm(16, 8, kSigned)});
  add("cmp", kV3p, 4, 0x0631, {SZ, reg(RH), imm(16, 16, kSigned)});
  add("mov", V5, 2, 0x32, {SZ, reg(RL), reg(RH)});
  // v5 compare-and-branch: bra SZ $r IMM e|ne TARGET; byte 1 low nibble picks the field widths.
  struct Cb {
    unsigned code, len, iw, rpos, rw;
    const char* cond;
  };
  const Cb cbs[] = {{0x0, 4, 8, 24, 8, "e"},   {0x4, 4, 8, 24, 8, "ne"},  {0x9, 5, 8, 24, 16, "e"},
                    {0xa, 5, 16, 32, 8, "e"},  {0xb, 6, 16, 32, 16, "e"}, {0xd, 5, 8, 24, 16, "ne"},
                    {0xe, 5, 16, 32, 8, "ne"}, {0xf, 6, 16, 32, 16, "ne"}};
  for (const Cb& c : cbs)
    add("bra", V5, static_cast<uint8_t>(c.len), 0x33 | c.code << 8,
        {SZ, reg(RH), imm(16, static_cast<uint8_t>(c.iw)), word(c.cond), pcrel(static_cast<uint8_t>(c.rpos), static_cast<uint8_t>(c.rw))});
  add("ld", kAll, 3, 0x34, {SZ, reg(RH), mem(D_SPI)});
  add("st", V5, 3, 0x35, {SZ, mem(D_RI, RH), reg(RL)});
  for (const Sub& s : arith8) {
    add(s.mnemonic, kAll, 3, 0x36 | s.code << 8, {SZ, reg(RH), imm(16, 8)});
    if (s.code < 4) add(s.mnemonic, kAll, 4, 0x37 | s.code << 8, {SZ, reg(RH), imm(16, 16)});
  }
  add("st", kOld, 3, 0x000038, {SZ, mem(D_R, RH), reg(RL)});
  add("st", kOld, 3, 0x010038, {SZ, mem(D_SPR, RL), reg(RH)});
  add("cmpu", kOld, 3, 0x040038, {SZ, reg(RH), reg(RL)});
  add("cmps", kOld, 3, 0x050038, {SZ, reg(RH), reg(RL)});
  add("cmp", V3 | V4, 3, 0x060038, {SZ, reg(RH), reg(RL)});
  for (const Sub& s : addsub)
    add(s.mnemonic, V5, 5, 0x38 | static_cast<uint64_t>(s.code) << 32, {SZ, reg(RL), reg(RH), imm(16, 16)});
  const Sub unary[] = {{"not", 0, kAll}, {"neg", 1, kAll}, {"mov", 2, V3 | V4}, {"hswap", 3, kAll}};
  for (const Sub& s : unary) add(s.mnemonic, s.versions, 3, 0x39 | s.code << 16, {SZ, reg(RL), reg(RH)});
  add("ld", kAll, 3, 0x3a, {SZ, reg(RH), mem(D_SPR, RL)});
  for (const Sub& s : arith8) add(s.mnemonic, kAll, 3, 0x3b | s.code << 16, {SZ, reg(RH), reg(RL)});
  for (const Sub& s : arith8) {
    add(s.mnemonic, kAll, 3, 0x3c | s.code << 16, {SZ, reg(R3), reg(RH), reg(RL)});
    if (s.code == 7) {
      add("ld", kAll, 3, 0x08003c, {SZ, reg(R3), mem(D_RR, RH, RL)});
      add("st", V5, 3, 0x09003c, {SZ, mem(D_RR, RH, R3), reg(RL)});
    }
  }
  const Sub unary2[] = {{"not", 0, kAll},   {"neg", 1, kAll},   {"mov", 2, kV3p},
                        {"hswap", 3, kAll}, {"clear", 4, kAll}, {"setf", 5, kV3p}};
  for (const Sub& s : unary2) add(s.mnemonic, s.versions, 2, 0x3d | s.code << 8, {SZ, reg(RH)});
  add("lbra", kV4p, 4, 0x3e, {imm(8, 24)});
  add("lcall", kV4p, 4, 0x7e, {imm(8, 24)});
  add("ld", V5, 2, 0x3f, {SZ, reg(RL), mem(D_R, RH)});

  // ---- unsized: rD = rS op imm8 (cX) / imm16 (eX) ----
  struct Un {
    const char* mnemonic;
    unsigned code;
    uint8_t versions, flags;
    bool wide, bits;  // has a 16-bit form; the immediate is lo:hi
  };
  const Un un[] = {{"mulu", 0, kAll, 0, true, false},  {"muls", 1, kAll, kSigned, true, false},
                   {"sext", 2, kAll, 0, false, false}, {"extrs", 3, kV3p, 0, true, true},
                   {"and", 4, kAll, 0, true, false},   {"or", 5, kAll, 0, true, false},
                   {"xor", 6, kAll, 0, true, false},   {"extr", 7, kV3p, 0, true, true},
                   {"xbit", 8, kAll, 0, false, false}, {"ins", 0xb, kV3p, 0, true, true},
                   {"div", 0xc, kV3p, 0, true, false}, {"mod", 0xd, kV3p, 0, true, false}};
  for (const Un& u : un)
    add(u.mnemonic, u.versions, 3, 0xc0 + u.code, {reg(RL), reg(RH), u.bits ? bitfield(3) : imm(16, 8, u.flags)});
  add("iords", kAll, 3, 0xce, {reg(RL), mem(I_RI, RH)});
  add("iord", kAll, 3, 0xcf, {reg(RL), mem(I_RI, RH)});
  add("iowr", kOld, 3, 0xd0, {mem(I_RI, RH), reg(RL)});
  add("iowrs", V3 | V4, 3, 0xd1, {mem(I_RI, RH), reg(RL)});
  add("mov", V5, 5, 0xd0, {reg(R0), imm(8, 32, kWrap)});
  for (const Un& u : un)
    if (u.wide)
      add(u.mnemonic, u.versions, 4, 0xe0 + u.code, {reg(RL), reg(RH), u.bits ? bitfield(5) : imm(16, 16, u.flags)});

  // ---- unsized, one register and an immediate (f0: imm8, f1: imm16), sub-opcode in bits 8-11 ----
  struct Ri {
    const char* mnemonic;
    unsigned code;
    uint8_t versions, flags, shift;
    bool wide;
  };
  const Ri ri[] = {{"mulu", 0, kAll, 0, 0, true}, {"muls", 1, kAll, kSigned, 0, true}, {"sext", 2, kAll, 0, 0, false},
                   {"sethi", 3, kAll, 0, 16, true}, {"and", 4, kAll, 0, 0, true},      {"or", 5, kAll, 0, 0, true},
                   {"xor", 6, kAll, 0, 0, true},    {"mov", 7, kOld, kSigned, 0, true}};
  for (const Ri& r : ri) {
    add(r.mnemonic, r.versions, 3, 0xf0 | r.code << 8, {reg(RH), imm(16, 8, r.flags, r.shift)});
    if (r.wide) add(r.mnemonic, r.versions, 4, 0xf1 | r.code << 8, {reg(RH), imm(16, 16, r.flags, r.shift)});
  }
  add("movw", kOld, 4, 0x07f1, {reg(RH), imm(16, 16, kWrap)});
  add("bset", kAll, 3, 0x09f0, {reg(RH), imm(16, 8)});
  add("bclr", kAll, 3, 0x0af0, {reg(RH), imm(16, 8)});
  add("btgl", kAll, 3, 0x0bf0, {reg(RH), imm(16, 8)});
  add("xbit", kAll, 3, 0x0cf0, {reg(RH), FLAGS, flag(16)});
  add("setp", kAll, 3, 0x08f2, {flag(16), reg(RH)});
  add("call", V5, 3, 0xf3, {imm(8, 16)});

  // ---- f4 (imm8) / f5 (imm16): branches, calls, $sp and $flags ----
  add("bra", kAll, 3, 0xf4, {COND, pcrel(16, 8)});
  add("bra", kAll, 4, 0xf5, {COND, pcrel(16, 16)});
  add("bra", kAll, 3, 0x20f4, {imm(16, 8)});
  add("bra", kAll, 4, 0x20f5, {imm(16, 16, kWrap)});
  add("call", kAll, 3, 0x21f4, {imm(16, 8)});
  add("call", kOld, 4, 0x21f5, {imm(16, 16, kWrap)});
  add("sleep", kAll, 3, 0x28f4, {flag(16)});
  add("add", kAll, 3, 0x30f4, {SP, imm(16, 8, kSigned)});
  add("add", kAll, 4, 0x30f5, {SP, imm(16, 16, kSigned)});
  add("bset", kAll, 3, 0x31f4, {FLAGS, flag(16)});
  add("bclr", kAll, 3, 0x32f4, {FLAGS, flag(16)});
  add("btgl", kAll, 3, 0x33f4, {FLAGS, flag(16)});
  add("iowr", V5, 3, 0xf6, {mem(I_RI, RH), reg(RL)});
  add("iowrs", V5, 3, 0xf7, {mem(I_RI, RH), reg(RL)});

  // ---- two-byte and register forms ----
  const Sub f8[] = {{"ret", 0, kAll},    {"iret", 1, kAll},    {"exit", 2, kAll},
                    {"xdwait", 3, kAll}, {"xdfence", 6, kAll}, {"xcwait", 7, kAll}};
  for (const Sub& s : f8) add(s.mnemonic, s.versions, 2, 0xf8 | s.code << 8, {});
  add("trap", kAll, 2, 0x08f8, {imm(8, 2)});
  add("push", kAll, 2, 0x00f9, {reg(RH)});
  add("add", kAll, 2, 0x01f9, {SP, reg(RH)});
  add("mpush", V5, 2, 0x02f9, {reg(RH)});
  add("bra", kAll, 2, 0x04f9, {reg(RH)});
  add("call", kAll, 2, 0x05f9, {reg(RH)});
  add("itlb", kV3p, 2, 0x08f9, {reg(RH)});
  add("bset", kAll, 2, 0x09f9, {FLAGS, reg(RH)});
  add("bclr", kAll, 2, 0x0af9, {FLAGS, reg(RH)});
  add("btgl", kAll, 2, 0x0bf9, {FLAGS, reg(RH)});
  add("iowr", kAll, 3, 0x0000fa, {mem(I_R, RH), reg(RL)});
  add("iowrs", kV3p, 3, 0x0100fa, {mem(I_R, RH), reg(RL)});
  add("xcld", kAll, 3, 0x0400fa, {reg(RH), reg(RL)});
  add("xdld", kAll, 3, 0x0500fa, {reg(RH), reg(RL)});
  add("xdst", kAll, 3, 0x0600fa, {reg(RH), reg(RL)});
  add("setp", kAll, 3, 0x0800fa, {reg(RL), reg(RH)});
  add("pop", kAll, 2, 0x00fc, {reg(RH)});
  const Sub fd[] = {{"mulu", 0, kAll}, {"muls", 1, kAll}, {"sext", 2, kAll}, {"and", 4, kAll}, {"or", 5, kAll},
                    {"xor", 6, kAll},  {"bset", 9, kAll}, {"bclr", 0xa, kAll}, {"btgl", 0xb, kAll}};
  for (const Sub& s : fd) add(s.mnemonic, s.versions, 3, 0xfd | s.code << 16, {reg(RH), reg(RL)});
  add("mov", kAll, 3, 0x0000fe, {sreg(RL), reg(RH)});
  add("mov", kAll, 3, 0x0100fe, {reg(RL), sreg(RH)});
  add("ptlb", kV3p, 3, 0x0200fe, {reg(RL), reg(RH)});
  add("vtlb", kV3p, 3, 0x0300fe, {reg(RL), reg(RH)});
  add("xbit", kAll, 3, 0x0c00fe, {reg(RL), FLAGS, reg(RH)});
  const Sub ff[] = {{"mulu", 0, kAll},    {"muls", 1, kAll},  {"sext", 2, kAll},   {"extrs", 3, kV3p},
                    {"and", 4, kAll},     {"or", 5, kAll},    {"xor", 6, kAll},    {"extr", 7, kV3p},
                    {"xbit", 8, kAll},    {"div", 0xc, kV3p}, {"mod", 0xd, kV3p}};
  for (const Sub& s : ff) add(s.mnemonic, s.versions, 3, 0xff | s.code << 16, {reg(R3), reg(RH), reg(RL)});
  add("iords", kAll, 3, 0x0e00ff, {reg(R3), mem(I_RR, RH, RL)});
  add("iord", kAll, 3, 0x0f00ff, {reg(R3), mem(I_RR, RH, RL)});
  return t;
}

struct Name {
  const char* name;
  int value;
  uint8_t versions;
};

int lookup(const Name* names, size_t n, const char* name, uint8_t version) {
  for (size_t i = 0; i < n; ++i)
    if (std::strcmp(names[i].name, name) == 0 && (names[i].versions & version)) return names[i].value;
  return -1;
}

}  // namespace

const std::vector<Form>& forms() {
  static const std::vector<Form> t = build();
  return t;
}

bool is_mnemonic(const char* word) {
  for (const Form& f : forms())
    if (std::strcmp(f.mnemonic, word) == 0) return true;
  return false;
}

uint8_t version_from_name(const char* name) {
  if (std::strcmp(name, "fuc0") == 0) return V0;
  if (std::strcmp(name, "fuc3") == 0) return V3;
  if (std::strcmp(name, "fuc4") == 0) return V4;
  if (std::strcmp(name, "fuc5") == 0) return V5;
  return 0;
}

int cond_code(const char* name, uint8_t version) {
  static const Name n[] = {{"b", 8, kAll},     {"c", 8, kAll},     {"o", 9, kAll},     {"s", 0xa, kAll},
                           {"e", 0xb, kAll},   {"z", 0xb, kAll},   {"a", 0xc, kAll},   {"be", 0xd, kAll},
                           {"na", 0xd, kAll},  {"ae", 0x18, kAll}, {"nb", 0x18, kAll}, {"nc", 0x18, kAll},
                           {"no", 0x19, kAll}, {"ns", 0x1a, kAll}, {"ne", 0x1b, kAll}, {"nz", 0x1b, kAll},
                           {"g", 0x1c, kV3p},  {"le", 0x1d, kV3p}, {"l", 0x1e, kV3p},  {"ge", 0x1f, kV3p}};
  return lookup(n, sizeof n / sizeof n[0], name, version);
}

int flag_bit(const char* name, uint8_t version) {
  static const Name n[] = {{"c", 8, kAll},      {"o", 9, kAll},      {"s", 0xa, kAll},    {"z", 0xb, kAll},
                           {"ie0", 0x10, kAll}, {"ie1", 0x11, kAll}, {"ie2", 0x12, kV4p}, {"is0", 0x14, kAll},
                           {"is1", 0x15, kAll}, {"is2", 0x16, kV4p}, {"ta", 0x18, kAll}};
  return lookup(n, sizeof n / sizeof n[0], name, version);
}

int sreg_index(const char* name, uint8_t version) {
  static const Name n[] = {{"iv0", 0, kAll},    {"iv1", 1, kAll},      {"tv", 3, kAll},      {"sp", 4, kAll},
                           {"pc", 5, kAll},     {"xcbase", 6, kAll},   {"xdbase", 7, kAll},  {"flags", 8, kAll},
                           {"cx", 9, kAll},     {"cauth", 0xa, kAll},  {"xtargets", 0xb, kAll},
                           {"tstatus", 0xc, kV3p}};
  return lookup(n, sizeof n / sizeof n[0], name, version);
}

}  // namespace hetvp::mcu::falcon::isa
