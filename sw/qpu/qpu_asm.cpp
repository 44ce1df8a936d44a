// The QPU assembler (qpu_asm.h).
#include "sw/qpu/qpu_asm.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <sstream>

namespace hetvp::qpu {

namespace {
uint64_t field(uint64_t v, unsigned shift) { return v << shift; }
}  // namespace

uint64_t encode_alu(const AluFields& f) {
  return field(f.sig, SIG_SHIFT) | field(f.unpack, UNPACK_SHIFT) | field(f.pm, PM_SHIFT) | field(f.pack, PACK_SHIFT) |
         field(f.cond_add, COND_ADD_SHIFT) | field(f.cond_mul, COND_MUL_SHIFT) | field(f.sf, SF_SHIFT) |
         field(f.ws, WS_SHIFT) | field(f.waddr_add, WADDR_ADD_SHIFT) | field(f.waddr_mul, WADDR_MUL_SHIFT) |
         field(f.op_mul, OP_MUL_SHIFT) | field(f.op_add, OP_ADD_SHIFT) | field(f.raddr_a, RADDR_A_SHIFT) |
         field(f.raddr_b, RADDR_B_SHIFT) | field(f.add_a, ADD_A_SHIFT) | field(f.add_b, ADD_B_SHIFT) |
         field(f.mul_a, MUL_A_SHIFT) | field(f.mul_b, MUL_B_SHIFT);
}

uint64_t encode_load_imm(uint32_t imm, uint8_t waddr_add, uint8_t waddr_mul, uint8_t type, uint8_t cond_add,
                         uint8_t cond_mul, bool ws, bool sf, uint8_t pack, bool pm) {
  return field(SIG_LOAD_IMM, SIG_SHIFT) | field(type, UNPACK_SHIFT) | field(pm, PM_SHIFT) | field(pack, PACK_SHIFT) |
         field(cond_add, COND_ADD_SHIFT) | field(cond_mul, COND_MUL_SHIFT) | field(sf, SF_SHIFT) | field(ws, WS_SHIFT) |
         field(waddr_add, WADDR_ADD_SHIFT) | field(waddr_mul, WADDR_MUL_SHIFT) | imm;
}

uint64_t encode_semaphore(unsigned sem, bool acquire, uint8_t waddr_add, uint8_t waddr_mul) {
  return encode_load_imm((acquire ? 16u : 0u) | (sem & 15), waddr_add, waddr_mul, LI_SEMAPHORE);
}

uint64_t encode_branch(uint8_t cond, bool rel, int32_t offset, uint8_t waddr_add, uint8_t waddr_mul, bool reg,
                       uint8_t raddr_a, bool ws) {
  return field(SIG_BRANCH, SIG_SHIFT) | field(cond, BRANCH_COND_SHIFT) | field(rel, BRANCH_REL_SHIFT) |
         field(reg, BRANCH_REG_SHIFT) | field(raddr_a & 31, BRANCH_RADDR_A_SHIFT) | field(ws, WS_SHIFT) |
         field(waddr_add, WADDR_ADD_SHIFT) | field(waddr_mul, WADDR_MUL_SHIFT) | uint32_t(offset);
}

uint32_t per_element_imm(const int (&values)[16]) {
  uint32_t imm = 0;
  for (unsigned i = 0; i < 16; ++i) {
    const uint32_t x = uint32_t(values[i]) & 3;
    imm |= (x & 1) << i | (x >> 1) << (16 + i);
  }
  return imm;
}

uint64_t nop() { return encode_alu(AluFields{}); }
uint64_t mov_acc(unsigned dst_acc, uint32_t imm) { return encode_load_imm(imm, uint8_t(W_ACC0 + dst_acc)); }

namespace {

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : s) {
    if (ch == sep) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(trim(cur));
  return out;
}

bool parse_int(const std::string& t, int64_t& v) {
  if (t.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(t.c_str(), &end, 0);
  if (*end || errno) {
    if (t[0] != '-') {
      const unsigned long long y = std::strtoull(t.c_str(), &end, 0);
      if (*end || errno) return false;
      v = int64_t(y);
      return true;
    }
    return false;
  }
  v = x;
  return true;
}

bool parse_float(const std::string& t, float& f) {
  if (t.find('.') == std::string::npos && t.find('e') == std::string::npos) return false;
  if (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) return false;
  char* end = nullptr;
  f = std::strtof(t.c_str(), &end);
  return *end == 0 || (end[0] == 'f' && end[1] == 0);
}

// A 32-bit immediate: integer (signed or unsigned) or float literal.
bool parse_imm32(const std::string& t, uint32_t& v) {
  float f;
  if (parse_float(t, f)) {
    std::memcpy(&v, &f, 4);
    return true;
  }
  int64_t x;
  if (!parse_int(t, x) || x < -2147483648ll || x > 0xffffffffll) return false;
  v = uint32_t(x);
  return true;
}

const char* const kCondNames[8] = {"never", "always", "ifz", "ifnz", "ifn", "ifnn", "ifc", "ifnc"};
const char* const kBranchNames[16] = {"allz", "allnz", "anyz", "anynz", "alln",  "allnn", "anyn",  "anynn",
                                      "allc", "allnc", "anyc", "anync", nullptr, nullptr, nullptr, "always"};
const char* const kUnpackNames[8] = {"", "16a", "16b", "8d_rep", "8a", "8b", "8c", "8d"};
const char* const kPackNames[16] = {"",    "16a",  "16b",  "8888",  "8a",  "8b",  "8c",  "8d",
                                    "32s", "16as", "16bs", "8888s", "8as", "8bs", "8cs", "8ds"};

int find_name(const char* const* table, unsigned n, const std::string& s) {
  for (unsigned i = 0; i < n; ++i)
    if (table[i] && s == table[i]) return int(i);
  return -1;
}

// A destination: the write address and which file it needs (0: either, 1: A, 2: B).
struct Dst {
  uint8_t waddr = W_NOP;
  int file = 0;
};

Dst parse_dst(const std::string& t) {
  Dst d;
  if (t == "-" || t == "nop") return d;
  if (t.size() >= 3 && (t[0] == 'r') && (t[1] == 'a' || t[1] == 'b') &&
      std::isdigit(static_cast<unsigned char>(t[2]))) {
    int64_t n;
    if (!parse_int(t.substr(2), n) || n < 0 || n > 31) throw AsmError("no register " + t);
    d.waddr = uint8_t(n);
    d.file = t[1] == 'a' ? 1 : 2;
    return d;
  }
  if (t == "r5") throw AsmError("write r5 as r5quad (regfile A: per-quad replicate) or r5rep (B: replicate element 0)");
  for (unsigned w = 32; w < 64; ++w) {
    const std::string a = waddr_name(w, false), b = waddr_name(w, true);
    if (t == a || t == b) {
      d.waddr = uint8_t(w);
      d.file = a == b ? 0 : (t == a ? 1 : 2);
      return d;
    }
  }
  throw AsmError("unknown destination '" + t + "'");
}

struct Line {
  AluFields f;
  bool have_add = false, have_mul = false, a_taken = false, b_taken = false, imm_taken = false;
  int add_file = 0, mul_file = 0;  // file the add / mul destination needs
  bool ws_explicit = false;
};

// An ALU source operand: sets the mux and the read address it needs.
uint8_t parse_src(Line& L, const std::string& t) {
  if (t.size() == 2 && t[0] == 'r' && t[1] >= '0' && t[1] <= '5') return uint8_t(t[1] - '0');
  auto take_a = [&](uint8_t raddr) -> uint8_t {
    if (L.a_taken && L.f.raddr_a != raddr) throw AsmError("two different regfile A reads in one instruction");
    L.a_taken = true;
    L.f.raddr_a = raddr;
    return MUX_A;
  };
  auto take_b = [&](uint8_t raddr) -> uint8_t {
    if (L.imm_taken) throw AsmError("regfile B read and a small immediate in one instruction");
    if (L.b_taken && L.f.raddr_b != raddr) throw AsmError("two different regfile B reads in one instruction");
    L.b_taken = true;
    L.f.raddr_b = raddr;
    return MUX_B;
  };
  if (t.size() >= 3 && t[0] == 'r' && (t[1] == 'a' || t[1] == 'b') && std::isdigit(static_cast<unsigned char>(t[2]))) {
    int64_t n;
    if (!parse_int(t.substr(2), n) || n < 0 || n > 31) throw AsmError("no register " + t);
    return t[1] == 'a' ? take_a(uint8_t(n)) : take_b(uint8_t(n));
  }
  // Special reads: file-specific names first, then names both files have (A preferred).
  for (unsigned r = 32; r < 64; ++r) {
    const std::string a = raddr_name(r, false), b = raddr_name(r, true);
    if (a == b && t == a) {
      if (!L.a_taken || L.f.raddr_a == r) return take_a(uint8_t(r));
      return take_b(uint8_t(r));
    }
    if (t == a) return take_a(uint8_t(r));
    if (t == b) return take_b(uint8_t(r));
  }
  // Small immediate.
  uint32_t v;
  int code = -1;
  float fl;
  int64_t iv;
  if (parse_float(t, fl)) {
    std::memcpy(&v, &fl, 4);
    for (unsigned c = 32; c < 48; ++c)
      if (small_imm_value(c) == v) code = int(c);
  } else if (parse_int(t, iv) && iv >= -16 && iv <= 15) {
    code = int(iv < 0 ? iv + 32 : iv);
  }
  if (code < 0) throw AsmError("'" + t + "' is not a register or a small immediate (-16..15, 2^-8..2^7); use ldi");
  if (L.b_taken) throw AsmError("regfile B read and a small immediate in one instruction");
  if (L.imm_taken && L.f.raddr_b != code && !(L.f.raddr_b >= 48))
    throw AsmError("two different small immediates in one instruction");
  if (L.imm_taken && L.f.raddr_b >= 48) throw AsmError("a small immediate and a vector rotation in one instruction");
  L.imm_taken = true;
  L.f.sig = SIG_SMALL_IMM;
  L.f.raddr_b = uint8_t(code);
  return MUX_B;
}

bool is_mul_only(const std::string& op) {
  return op == "fmul" || op == "mul24" || op == "v8muld" || op == "v8min" || op == "v8max";
}

void parse_ops(const std::string& rest, std::vector<std::string>& ops) {
  ops.clear();
  if (trim(rest).empty()) return;
  for (auto& o : split(rest, ',')) ops.push_back(o);
}

// The mnemonic and its dotted suffixes.
void parse_mnemonic(const std::string& word, std::string& op, std::vector<std::string>& sfx) {
  auto parts = split(word, '.');
  op = parts[0];
  sfx.assign(parts.begin() + 1, parts.end());
}

class Parser {
 public:
  Parser(const std::map<std::string, uint32_t>* labels, uint32_t pc) : labels_(labels), pc_(pc) {}
  uint64_t line(const std::string& text);

 private:
  uint64_t special(const std::string& op, const std::vector<std::string>& sfx, const std::vector<std::string>& ops,
                   const std::vector<std::string>& mods);
  void alu_part(Line& L, const std::string& op, const std::vector<std::string>& sfx,
                const std::vector<std::string>& ops, bool second);
  void modifier(Line& L, const std::string& m);
  const std::map<std::string, uint32_t>* labels_;
  uint32_t pc_;
};

void Parser::alu_part(Line& L, const std::string& op0, const std::vector<std::string>& sfx,
                      const std::vector<std::string>& ops, bool second) {
  std::string op = op0;
  uint8_t cond = COND_ALWAYS;
  bool sf = false;
  for (auto& s : sfx) {
    const int c = find_name(kCondNames, 8, s);
    if (c >= 0)
      cond = uint8_t(c);
    else if (s == "setf")
      sf = true;
    else
      throw AsmError("unknown suffix ." + s + " on " + op);
  }
  if (op == "nop") {
    if (!ops.empty()) throw AsmError("nop takes no operands");
    if (sf) L.f.sf = 1;
    return;
  }
  const bool to_mul = second || is_mul_only(op);
  if (to_mul && L.have_mul) throw AsmError("two mul ALU operations in one instruction");
  if (!to_mul && L.have_add) throw AsmError("two add ALU operations in one instruction");
  std::vector<std::string> o = ops;
  if (op == "mov") {
    if (o.size() != 2) throw AsmError("mov takes a destination and a source");
    o.push_back(o[1]);
    op = to_mul ? "v8min" : "or";
  }
  if ((op == "not" || op == "clz" || op == "ftoi" || op == "itof") && o.size() == 2) o.push_back(o[1]);
  if (o.size() != 3) throw AsmError(op + " takes a destination and two sources");
  const Dst d = parse_dst(o[0]);
  const uint8_t a = parse_src(L, o[1]), b = parse_src(L, o[2]);
  if (to_mul) {
    int m = -1;
    for (unsigned i = 1; i < 8; ++i)
      if (op == mul_op_name(i)) m = int(i);
    if (m < 0) throw AsmError("'" + op + "' is not a mul ALU operation");
    L.have_mul = true;
    L.f.op_mul = uint8_t(m);
    L.f.waddr_mul = d.waddr;
    L.f.cond_mul = cond;
    L.f.mul_a = a;
    L.f.mul_b = b;
    L.mul_file = d.file;
  } else {
    int m = -1;
    for (unsigned i = 1; i < 32; ++i)
      if (add_op_name(i) && op == add_op_name(i)) m = int(i);
    if (m < 0) throw AsmError("unknown operation '" + op + "'");
    L.have_add = true;
    L.f.op_add = uint8_t(m);
    L.f.waddr_add = d.waddr;
    L.f.cond_add = cond;
    L.f.add_a = a;
    L.f.add_b = b;
    L.add_file = d.file;
  }
  if (sf) L.f.sf = 1;
}

void Parser::modifier(Line& L, const std::string& m) {
  std::istringstream in(m);
  std::string key, arg, arg2;
  in >> key >> arg >> arg2;
  auto need = [&](bool ok) {
    if (!ok) throw AsmError("bad modifier '" + m + "'");
  };
  static const std::map<std::string, uint8_t> kSig = {{"bkpt", SIG_BREAK},
                                                      {"thrsw", SIG_THREAD_SWITCH},
                                                      {"thrend", SIG_PROG_END},
                                                      {"sbwait", SIG_WAIT_SCOREBOARD},
                                                      {"sbdone", SIG_SCOREBOARD_UNLOCK},
                                                      {"lthrsw", SIG_LAST_THREAD_SWITCH},
                                                      {"loadcv", SIG_COVERAGE_LOAD},
                                                      {"loadc", SIG_COLOR_LOAD},
                                                      {"ldcend", SIG_COLOR_LOAD_END},
                                                      {"ldtmu0", SIG_LOAD_TMU0},
                                                      {"ldtmu1", SIG_LOAD_TMU1},
                                                      {"loadam", SIG_ALPHA_MASK_LOAD}};
  auto it = kSig.find(key);
  if (it != kSig.end()) {
    need(arg.empty());
    if (L.f.sig == SIG_SMALL_IMM) throw AsmError("a signal and a small immediate cannot share an instruction");
    if (L.f.sig != SIG_NONE) throw AsmError("two signals in one instruction");
    L.f.sig = it->second;
    return;
  }
  if (key == "unpack") {
    const int u = find_name(kUnpackNames, 8, arg);
    need(u > 0);
    L.f.unpack = uint8_t(u);
  } else if (key == "pack") {
    const int p = find_name(kPackNames, 16, arg);
    need(p > 0);
    L.f.pack = uint8_t(p);
  } else if (key == "pm") {
    L.f.pm = 1;
  } else if (key == "ws") {
    L.f.ws = 1;
    L.ws_explicit = true;
  } else if (key == "rot") {
    int64_t n = 0;
    need(arg == "r5" || (parse_int(arg, n) && n >= 1 && n <= 15));
    if (L.b_taken || L.imm_taken) throw AsmError("a vector rotation needs the small-immediate field, already used");
    if (L.f.sig != SIG_NONE) throw AsmError("a signal and a vector rotation cannot share an instruction");
    L.imm_taken = true;
    L.f.sig = SIG_SMALL_IMM;
    L.f.raddr_b = uint8_t(arg == "r5" ? 48 : 48 + n);
  } else if (key == "read") {
    parse_src(L, arg);
  } else if (key == "imm") {
    int64_t n;
    need(parse_int(arg, n) && n >= 0 && n < 48);
    L.imm_taken = true;
    L.f.sig = SIG_SMALL_IMM;
    L.f.raddr_b = uint8_t(n);
  } else if (key == "acond" || key == "mcond") {
    const int c = find_name(kCondNames, 8, arg);
    need(c >= 0);
    (key == "acond" ? L.f.cond_add : L.f.cond_mul) = uint8_t(c);
  } else if (key == "amux" || key == "mmux") {
    int64_t x, y;
    need(parse_int(arg, x) && parse_int(arg2, y) && x >= 0 && x < 8 && y >= 0 && y < 8);
    (key == "amux" ? L.f.add_a : L.f.mul_a) = uint8_t(x);
    (key == "amux" ? L.f.add_b : L.f.mul_b) = uint8_t(y);
  } else {
    throw AsmError("unknown signal or modifier '" + m + "'");
  }
}

// Chooses ws from the files the destinations need.
uint8_t choose_ws(int add_file, int mul_file, bool explicit_ws, uint8_t ws) {
  // ws = 0: add -> A, mul -> B; ws = 1: add -> B, mul -> A.
  const bool ok0 = add_file != 2 && mul_file != 1, ok1 = add_file != 1 && mul_file != 2;
  if (explicit_ws) {
    if (!(ws ? ok1 : ok0)) throw AsmError("ws contradicts the destinations' register files");
    return ws;
  }
  if (ok0) return 0;
  if (ok1) return 1;
  throw AsmError("the add and mul destinations need the same register file (one writes A, the other B)");
}

uint64_t Parser::special(const std::string& op, const std::vector<std::string>& sfx,
                         const std::vector<std::string>& ops, const std::vector<std::string>& mods) {
  Line L;  // for modifiers
  for (auto& m : mods) modifier(L, m);
  if (op == "ldi" || op == "sacq" || op == "srel") {
    uint8_t type = LI_32, cond = COND_ALWAYS;
    bool sf = false;
    for (auto& s : sfx) {
      const int c = find_name(kCondNames, 8, s);
      if (c >= 0)
        cond = uint8_t(c);
      else if (s == "setf")
        sf = true;
      else if (s == "pes" && op == "ldi")
        type = LI_PER_ELEM_SIGNED;
      else if (s == "peu" && op == "ldi")
        type = LI_PER_ELEM_UNSIGNED;
      else
        throw AsmError("unknown suffix ." + s + " on " + op);
    }
    Dst da, dm;
    std::string val;
    if (ops.size() == 1 && op != "ldi") {
      val = ops[0];
    } else if (ops.size() == 2) {
      da = parse_dst(ops[0]);
      val = ops[1];
    } else if (ops.size() == 3) {
      da = parse_dst(ops[0]);
      dm = parse_dst(ops[1]);
      val = ops[2];
    } else {
      throw AsmError(op + " takes [destination, [mul destination,]] value");
    }
    const uint8_t ws = choose_ws(da.file, dm.file, L.ws_explicit, L.f.ws);
    const uint8_t mcond = L.f.cond_mul != COND_NEVER ? L.f.cond_mul : uint8_t(COND_ALWAYS);
    if (op == "ldi") {
      uint32_t imm;
      if (!parse_imm32(val, imm)) throw AsmError("bad immediate '" + val + "'");
      return encode_load_imm(imm, da.waddr, dm.waddr, type, cond, mcond, ws, sf, L.f.pack, L.f.pm);
    }
    int64_t n;
    if (!parse_int(val, n) || n < 0 || n > 15) throw AsmError("semaphore number must be 0..15, not '" + val + "'");
    return encode_load_imm((op == "sacq" ? 16u : 0u) | uint32_t(n), da.waddr, dm.waddr, LI_SEMAPHORE, cond, mcond, ws,
                           sf, L.f.pack, L.f.pm);
  }
  // Branches: bra/brr[.cond] [dst_add, dst_mul,] target
  uint8_t cond = B_ALWAYS;
  for (auto& s : sfx) {
    const int c = find_name(kBranchNames, 16, s);
    if (c < 0) throw AsmError("unknown branch condition ." + s);
    cond = uint8_t(c);
  }
  Dst da, dm;
  std::string target;
  if (ops.size() == 1)
    target = ops[0];
  else if (ops.size() == 3) {
    da = parse_dst(ops[0]);
    dm = parse_dst(ops[1]);
    target = ops[2];
  } else {
    throw AsmError(op + " takes [link, link,] target");
  }
  const bool rel = op == "brr";
  const uint8_t ws = choose_ws(da.file, dm.file, L.ws_explicit, L.f.ws);
  bool reg = false;
  uint8_t raddr = 0;
  int32_t offset = 0;
  std::string t = target;
  if (t.size() >= 3 && t[0] == 'r' && t[1] == 'a' && std::isdigit(static_cast<unsigned char>(t[2]))) {
    const size_t plus = t.find('+');
    int64_t n;
    if (!parse_int(t.substr(2, plus == std::string::npos ? std::string::npos : plus - 2), n) || n < 0 || n > 31)
      throw AsmError("bad branch register in '" + target + "'");
    reg = true;
    raddr = uint8_t(n);
    t = plus == std::string::npos ? "0" : trim(t.substr(plus + 1));
  }
  if (!t.empty() && t[0] == ':') {
    if (!labels_) {
      offset = 0;
    } else {
      auto it = labels_->find(t.substr(1));
      if (it == labels_->end()) throw AsmError("undefined label '" + t.substr(1) + "'");
      offset = int32_t(it->second - (rel ? pc_ + 32 : 0));
    }
  } else {
    int64_t n;
    if (!parse_int(t, n) || n < -2147483648ll || n > 0xffffffffll) throw AsmError("bad branch target '" + target + "'");
    offset = int32_t(n);
  }
  return encode_branch(cond, rel, offset, da.waddr, dm.waddr, reg, raddr, ws);
}

uint64_t Parser::line(const std::string& text) {
  auto parts = split(text, ';');
  // The first part decides the class.
  std::string first = parts[0];
  size_t sp = first.find_first_of(" \t");
  std::string word = sp == std::string::npos ? first : first.substr(0, sp);
  std::string op;
  std::vector<std::string> sfx, ops;
  parse_mnemonic(word, op, sfx);
  if (op == "ldi" || op == "sacq" || op == "srel" || op == "bra" || op == "brr") {
    parse_ops(sp == std::string::npos ? "" : first.substr(sp), ops);
    return special(op, sfx, ops, std::vector<std::string>(parts.begin() + 1, parts.end()));
  }
  Line L;
  unsigned alu_parts = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p.empty()) throw AsmError("empty instruction part");
    sp = p.find_first_of(" \t");
    word = sp == std::string::npos ? p : p.substr(0, sp);
    parse_mnemonic(word, op, sfx);
    const bool is_alu = op == "nop" || op == "mov" || is_mul_only(op) || [&] {
      for (unsigned k = 1; k < 32; ++k)
        if (add_op_name(k) && op == add_op_name(k)) return true;
      return false;
    }();
    if (is_alu && alu_parts < 2) {
      parse_ops(sp == std::string::npos ? "" : p.substr(sp), ops);
      alu_part(L, op, sfx, ops, alu_parts == 1);
      ++alu_parts;
    } else {
      modifier(L, p);
    }
  }
  L.f.ws = choose_ws(L.add_file, L.mul_file, L.ws_explicit, L.f.ws);
  return encode_alu(L.f);
}

std::string strip_comment(const std::string& s) {
  size_t p = s.find('#');
  const size_t q = s.find("//");
  if (q < p) p = q;
  return trim(p == std::string::npos ? s : s.substr(0, p));
}

std::string substitute(const std::string& s, const std::map<std::string, std::string>& sets) {
  if (sets.empty()) return s;
  std::string out, tok;
  auto flush = [&] {
    auto it = sets.find(tok);
    out += it == sets.end() ? tok : it->second;
    tok.clear();
  };
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') {
      tok += ch;
    } else {
      flush();
      out += ch;
    }
  }
  flush();
  return out;
}
}  // namespace

std::vector<uint64_t> assemble(const std::string& text, const std::string& name,
                               std::map<std::string, uint32_t>* labels_out) {
  struct Src {
    unsigned line;
    std::string text;
  };
  std::vector<Src> instrs;
  std::map<std::string, uint32_t> labels;
  std::map<std::string, std::string> sets;
  auto fail = [&](unsigned l, const std::string& why, const std::string& src) {
    throw AsmError(name + ":" + std::to_string(l) + ": " + why + " (" + trim(src) + ")");
  };
  // .rep N / .endr expansion (not nested), keeping source line numbers.
  std::vector<std::pair<unsigned, std::string>> lines;
  {
    std::istringstream in(text);
    std::string raw;
    unsigned n = 0, rep_line = 0;
    int64_t rep = -1;
    std::vector<std::pair<unsigned, std::string>> body;
    while (std::getline(in, raw)) {
      ++n;
      const std::string s = strip_comment(raw);
      if (s.rfind(".rep", 0) == 0) {
        if (rep >= 0) fail(n, ".rep inside .rep", raw);
        if (!parse_int(trim(s.substr(4)), rep) || rep < 0 || rep > 100000) fail(n, ".rep needs a count 0..100000", raw);
        rep_line = n;
        body.clear();
      } else if (s == ".endr") {
        if (rep < 0) fail(n, ".endr without .rep", raw);
        for (int64_t k = 0; k < rep; ++k) lines.insert(lines.end(), body.begin(), body.end());
        rep = -1;
      } else if (rep >= 0) {
        body.emplace_back(n, raw);
      } else {
        lines.emplace_back(n, raw);
      }
    }
    if (rep >= 0) fail(rep_line, ".rep without .endr", ".rep");
  }
  for (auto& [lineno, raw] : lines) {
    std::string s = strip_comment(raw);
    while (!s.empty()) {
      if (s[0] == ':' || (s.back() == ':' && s.find(' ') == std::string::npos)) {
        std::string l = s[0] == ':' ? s.substr(1) : s.substr(0, s.size() - 1);
        size_t e = l.find_first_of(" \t");
        std::string rest = e == std::string::npos ? "" : trim(l.substr(e));
        l = l.substr(0, e);
        if (l.empty()) fail(lineno, "empty label", raw);
        if (labels.count(l)) fail(lineno, "label '" + l + "' defined twice", raw);
        labels[l] = uint32_t(instrs.size() * 8);
        s = rest;
        continue;
      }
      if (s.rfind(".set", 0) == 0) {
        auto args = split(trim(s.substr(4)), ',');
        if (args.size() != 2 || args[0].empty()) fail(lineno, ".set takes a name and a value", raw);
        sets[args[0]] = substitute(args[1], sets);
      } else {
        instrs.push_back({lineno, substitute(s, sets)});
      }
      break;
    }
  }
  std::vector<uint64_t> code;
  for (size_t i = 0; i < instrs.size(); ++i) {
    try {
      if (instrs[i].text.rfind(".word", 0) == 0) {  // a raw 64-bit instruction word
        const std::string w = trim(instrs[i].text.substr(5));
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(w.c_str(), &end, 0);
        if (w.empty() || *end || errno) throw AsmError(".word needs one 64-bit number");
        code.push_back(v);
        continue;
      }
      Parser p(&labels, uint32_t(i * 8));
      code.push_back(p.line(instrs[i].text));
    } catch (const AsmError& e) {
      fail(instrs[i].line, e.what(), instrs[i].text);
    }
  }
  if (labels_out) *labels_out = labels;
  return code;
}

uint64_t assemble_line(const std::string& line) {
  Parser p(nullptr, 0);
  return p.line(strip_comment(line));
}

}  // namespace hetvp::qpu
