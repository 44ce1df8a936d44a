// hetvp — the Falcon assembler (assembler.h): matches each instruction against the forms of
// isa_forms.h, then lays the sections out as envyas does: every instruction starts in its first
// matching form; an immediate, address or branch offset that does not fit moves that instruction to its
// next form, and the layout is redone until nothing moves (sizes only grow, so this ends).
#include "models/mcu/falcon/asm/assembler.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "models/mcu/falcon/asm/isa_forms.h"
#include "models/mcu/falcon/asm/parse.h"

namespace hetvp::mcu::falcon::as {

namespace {

using isa::Form;
using isa::Kind;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// A field whose value comes from an expression, checked and inserted at layout time.
struct Field {
  ExprP e;
  uint8_t pos = 0, width = 0, shift = 0;
  bool is_signed = false, wrap = false, pcrel = false;
};

struct Candidate {
  const Form* form = nullptr;
  uint64_t bits = 0;  // the fixed bits with the registers, size, condition and flag filled in
  std::vector<Field> fields;
};

bool has_symbols(const Expr& e) {
  return e.op == Expr::Sym || (e.a && has_symbols(*e.a)) || (e.b && has_symbols(*e.b));
}

// Whether `v` fits `f` (pc: the instruction's address, for pc-relative fields); `out` the field's bits.
bool fits(const Field& f, uint64_t v, uint64_t pc, uint64_t& out) {
  if (f.pcrel) v -= pc;
  const uint64_t low = f.shift ? v & ((uint64_t{1} << f.shift) - 1) : 0;
  if (low && !f.wrap) return false;
  const int64_t sv = static_cast<int64_t>(v) >> f.shift;
  const uint64_t uv = v >> f.shift;
  const uint64_t mask = f.width >= 64 ? ~uint64_t{0} : (uint64_t{1} << f.width) - 1;
  out = uv & mask;
  if (f.wrap) return true;
  if (f.is_signed) {
    const int64_t lim = int64_t{1} << (f.width - 1);
    return sv >= -lim && sv < lim;
  }
  return uv <= mask;
}

struct Sym {
  bool is_label = false;
  size_t section = 0;
  uint32_t offset = 0;
  ExprP value;  // .equ
  Loc loc;
};

class Assembler {
 public:
  Assembler(std::vector<Stmt> stmts, const Options& o) : st_(std::move(stmts)), o_(o) {}

  Program run() {
    match_all();
    resolve_sections();
    for (int round = 0;; ++round) {
      layout(false);
      if (!grow()) break;
      if (round > 1000) throw AsmError("layout does not settle");
    }
    layout(true);
    Program p;
    for (size_t s = 0; s < sec_.size(); ++s) {
      if (sec_[s].name == "default" && sec_[s].bytes.empty()) continue;
      p.sections.push_back(sec_[s]);
    }
    return p;
  }

 private:
  std::vector<Stmt> st_;
  Options o_;
  std::vector<std::vector<Candidate>> cand_;  // per statement (instructions only)
  std::vector<size_t> choice_;
  std::vector<size_t> stmt_section_;
  std::vector<Section> sec_;
  std::map<std::string, Sym> syms_;
  std::vector<uint64_t> addr_;  // per statement: its address in its section (after layout)
  std::set<std::string> evaluating_;

  [[noreturn]] static void fail(const Stmt& s, const std::string& why) { throw AsmError(s.loc.str() + ": " + why); }

  // ---- values ----
  uint64_t eval(const Expr& e, const Stmt& at) {
    auto A = [&] { return eval(*e.a, at); };
    auto B = [&] { return eval(*e.b, at); };
    switch (e.op) {
      case Expr::Num:
        return e.num;
      case Expr::Reg:
        fail(at, "a register cannot be part of a value");
      case Expr::Sym: {
        auto it = syms_.find(e.name);
        if (it == syms_.end()) fail(at, "undefined symbol '#" + e.name + "'");
        const Sym& s = it->second;
        if (s.is_label) return sec_[s.section].base + s.offset;
        if (!evaluating_.insert(e.name).second) fail(at, "'#" + e.name + "' is defined in terms of itself");
        const uint64_t v = eval(*s.value, at);
        evaluating_.erase(e.name);
        return v;
      }
      case Expr::Neg:
        return 0 - A();
      case Expr::Not:
        return ~A();
      case Expr::LNot:
        return !A();
      case Expr::Add:
        return A() + B();
      case Expr::Sub:
        return A() - B();
      case Expr::Mul:
        return A() * B();
      case Expr::Div:
      case Expr::Mod: {
        const uint64_t a = A(), b = B();
        if (!b) fail(at, "division by zero");
        return e.op == Expr::Div ? a / b : a % b;
      }
      case Expr::Shl: {
        const uint64_t a = A(), b = B();
        return b >= 64 ? 0 : a << b;
      }
      case Expr::Shr: {
        const uint64_t a = A(), b = B();
        return b >= 64 ? 0 : a >> b;
      }
      case Expr::And:
        return A() & B();
      case Expr::Or:
        return A() | B();
      case Expr::Xor:
        return A() ^ B();
      case Expr::LAnd:
        return A() && B();
      case Expr::LOr:
        return A() || B();
    }
    return 0;
  }

  // ---- matching ----
  // The terms of a memory address: registers (with their scale) and the rest as one expression.
  struct Address {
    std::vector<std::pair<int, uint64_t>> regs;  // (register, scale); 16 = $sp
    ExprP offset;                                // nullptr: none
    bool ok = true;
  };
  static void split(const ExprP& e, bool negate, Address& a) {
    if (!has_reg(*e)) {
      ExprP t = negate ? make_expr(Expr::Neg, e) : e;
      a.offset = a.offset ? make_expr(Expr::Add, a.offset, t) : t;
      return;
    }
    switch (e->op) {
      case Expr::Add:
        split(e->a, negate, a);
        split(e->b, negate, a);
        return;
      case Expr::Sub:
        split(e->a, negate, a);
        split(e->b, !negate, a);
        return;
      case Expr::Reg:
        if (negate) a.ok = false;
        a.regs.push_back({static_cast<int>(e->num), 1});
        return;
      case Expr::Mul: {
        const ExprP& r = e->a->op == Expr::Reg ? e->a : e->b;
        const ExprP& n = e->a->op == Expr::Reg ? e->b : e->a;
        if (negate || r->op != Expr::Reg || n->op != Expr::Num) {
          a.ok = false;
          return;
        }
        a.regs.push_back({static_cast<int>(r->num), n->num});
        return;
      }
      default:
        a.ok = false;
    }
  }
  static bool has_reg(const Expr& e) { return e.op == Expr::Reg || (e.a && has_reg(*e.a)) || (e.b && has_reg(*e.b)); }

  bool match_mem(const isa::Operand& op, const Item& it, unsigned size_shift, Candidate& c) {
    const bool io = op.mem >= isa::I_RI;
    if (it.type != Item::Mem || it.space != (io ? 'I' : 'D')) return false;
    Address a;
    split(it.e, false, a);
    if (!a.ok) return false;
    const unsigned sh = io ? 2 : size_shift;
    const uint64_t scale = uint64_t{1} << sh;
    auto plain = [](const std::pair<int, uint64_t>& r) { return r.second == 1; };
    auto gpr = [](int r) { return r >= 0 && r < 16; };
    auto imm_field = [&] {
      c.fields.push_back({a.offset ? a.offset : std::make_shared<Expr>(), 16, 8, static_cast<uint8_t>(sh)});
    };
    switch (op.mem) {
      case isa::D_RI:
      case isa::I_RI:
      case isa::D_R:
      case isa::I_R: {
        const bool with_imm = op.mem == isa::D_RI || op.mem == isa::I_RI;
        if (a.regs.size() != 1 || !plain(a.regs[0]) || !gpr(a.regs[0].first)) return false;
        if (!with_imm && a.offset) return false;
        c.bits |= static_cast<uint64_t>(a.regs[0].first) << op.pos;
        if (with_imm) imm_field();
        return true;
      }
      case isa::D_SPI:
        if (a.regs.size() != 1 || a.regs[0].first != 16 || !plain(a.regs[0])) return false;
        imm_field();
        return true;
      case isa::D_SPR:
      case isa::D_RR:
      case isa::I_RR: {
        if (a.regs.size() != 2 || a.offset) return false;
        // base: unscaled ($sp for D_SPR); index: scaled by the access size (unscaled when that is 1)
        for (int swap = 0; swap < 2; ++swap) {
          const auto &b = a.regs[swap], &x = a.regs[1 - swap];
          const bool base_ok = plain(b) && (op.mem == isa::D_SPR ? b.first == 16 : gpr(b.first));
          if (!base_ok || !gpr(x.first) || x.second != scale) continue;
          if (op.mem == isa::D_SPR) {
            c.bits |= static_cast<uint64_t>(x.first) << op.pos;
          } else {
            c.bits |= static_cast<uint64_t>(b.first) << op.pos | static_cast<uint64_t>(x.first) << op.pos2;
          }
          return true;
        }
        return false;
      }
      default:
        return false;
    }
  }

  static int pred(const Item& it) {
    if (it.type == Item::Special && it.text.size() == 2 && it.text[0] == 'p' && it.text[1] >= '0' && it.text[1] <= '7')
      return it.text[1] - '0';
    return -1;
  }

  bool match(const Form& f, const std::vector<Item>& items, Candidate& c) {
    c = Candidate{&f, f.bits, {}};
    size_t i = 0;
    unsigned size_shift = 0;
    auto next = [&]() -> const Item* { return i < items.size() ? &items[i] : nullptr; };
    for (const isa::Operand& op : f.operands) {
      const Item* it = next();
      switch (op.kind) {
        case Kind::Size: {
          if (!it || it->type != Item::Word) return false;
          const int s = it->text == "b8" ? 0 : it->text == "b16" ? 1 : it->text == "b32" ? 2 : -1;
          if (s < 0) return false;
          c.bits |= static_cast<uint64_t>(s) << 6;
          size_shift = static_cast<unsigned>(s);
          ++i;
          break;
        }
        case Kind::Reg:
          if (!it || it->type != Item::Reg) return false;
          c.bits |= static_cast<uint64_t>(it->reg) << op.pos;
          ++i;
          break;
        case Kind::SReg: {
          const int s = it && it->type == Item::Special ? isa::sreg_index(it->text.c_str(), o_.version) : -1;
          if (s < 0) return false;
          c.bits |= static_cast<uint64_t>(s) << op.pos;
          ++i;
          break;
        }
        case Kind::Imm:
        case Kind::PcRel:
          if (!it || it->type != Item::Value) return false;
          c.fields.push_back({it->e, op.pos, op.width, op.shift, (op.flags & isa::kSigned) != 0,
                              (op.flags & isa::kWrap) != 0, op.kind == Kind::PcRel});
          ++i;
          break;
        case Kind::Cond: {
          int code = 0x0e;  // always
          if (it && pred(*it) >= 0) {
            code = pred(*it);
            ++i;
          } else if (it && it->type == Item::Word && it->text == "not" && i + 1 < items.size() &&
                     pred(items[i + 1]) >= 0) {
            code = 0x10 + pred(items[i + 1]);
            i += 2;
          } else if (it && it->type == Item::Word) {
            code = isa::cond_code(it->text.c_str(), o_.version);
            if (code < 0) return false;
            ++i;
          }
          c.bits |= static_cast<uint64_t>(code) << op.pos;
          break;
        }
        case Kind::Flag: {
          int bit = it ? pred(*it) : -1;
          if (bit < 0 && it && it->type == Item::Word) bit = isa::flag_bit(it->text.c_str(), o_.version);
          if (bit < 0) return false;
          c.bits |= static_cast<uint64_t>(bit) << op.pos;
          ++i;
          break;
        }
        case Kind::Sp:
        case Kind::Flags:
          if (!it || it->type != Item::Special || it->text != (op.kind == Kind::Sp ? "sp" : "flags")) return false;
          ++i;
          break;
        case Kind::Word:
          if (!it || it->type != Item::Word || it->text != op.word) return false;
          ++i;
          break;
        case Kind::Mem:
          if (!it || !match_mem(op, *it, size_shift, c)) return false;
          ++i;
          break;
        case Kind::BitField:
          if (!it || it->type != Item::Vec) return false;
          c.fields.push_back({it->e, 16, 5});
          c.fields.push_back({make_expr(Expr::Sub, it->e2, it->e), 21, op.width});
          ++i;
          break;
      }
    }
    return i == items.size();
  }

  void match_all() {
    cand_.resize(st_.size());
    choice_.assign(st_.size(), 0);
    for (size_t k = 0; k < st_.size(); ++k) {
      const Stmt& s = st_[k];
      if (s.type != Stmt::Insn) continue;
      std::string range_problem;
      for (const Form& f : isa::forms()) {
        if (f.mnemonic != s.name || !(f.versions & o_.version)) continue;
        Candidate c;
        if (!match(f, s.items, c)) continue;
        bool ok = true;  // a value without symbols is checked now (envyas: "No match")
        for (const Field& fl : c.fields) {
          if (fl.pcrel || has_symbols(*fl.e)) continue;
          uint64_t bits = 0;
          const uint64_t v = eval(*fl.e, s);
          if (!fits(fl, v, 0, bits)) {
            ok = false;
            range_problem = hex(v);
          }
        }
        if (ok) cand_[k].push_back(std::move(c));
      }
      if (cand_[k].empty()) {
        if (!range_problem.empty())
          fail(s, "operand out of range: " + range_problem + " fits no form of '" + s.name + "'");
        std::string ops;
        for (const Item& it : s.items) ops += " " + it.show();
        fail(s, "no form of '" + s.name + "' takes the operands" + (ops.empty() ? " (none)" : ops) +
                    " on this Falcon version");
      }
    }
  }

  // ---- sections and layout ----
  void resolve_sections() {
    sec_.push_back(Section{"default", 0, {}, {}});
    stmt_section_.assign(st_.size(), 0);
    size_t cur = 0;
    for (size_t k = 0; k < st_.size(); ++k) {
      const Stmt& s = st_[k];
      if (s.type == Stmt::Directive && s.name == "section") {
        if (s.args.empty() || s.args.size() > 2 || s.args[0]->op != Expr::Sym)
          fail(s, "bad directive: .section takes #NAME [BASE]");
        const std::string& n = s.args[0]->name;
        cur = sec_.size();
        for (size_t j = 0; j < sec_.size(); ++j)
          if (sec_[j].name == n) cur = j;
        if (cur == sec_.size()) {
          Section sc{n, 0, {}, {}};
          if (s.args.size() == 2) sc.base = static_cast<uint32_t>(eval(*s.args[1], s));
          sec_.push_back(sc);
        }
      }
      stmt_section_[k] = cur;
    }
  }

  // One pass over the statements: places labels, sizes everything; with `emit`, writes the bytes.
  void layout(bool emit) {
    std::vector<uint64_t> pos(sec_.size(), 0);
    for (Section& sc : sec_) {
      sc.bytes.clear();
      sc.labels.clear();
    }
    syms_.clear();
    addr_.assign(st_.size(), 0);
    // symbols first (labels need their offsets: a first sizing pass)
    for (size_t k = 0; k < st_.size(); ++k) {
      const Stmt& s = st_[k];
      const size_t sc = stmt_section_[k];
      addr_[k] = pos[sc];
      if (s.type == Stmt::Label) {
        if (syms_.count(s.name))
          fail(s, "symbol '" + s.name + "' defined twice (first at " + syms_[s.name].loc.str() + ")");
        syms_[s.name] = {true, sc, static_cast<uint32_t>(pos[sc]), nullptr, s.loc};
        sec_[sc].labels.push_back({static_cast<uint32_t>(sec_[sc].base + pos[sc]), s.name});
      } else if (s.type == Stmt::Insn) {
        pos[sc] += cand_[k][choice_[k]].form->length;
      } else {
        pos[sc] = directive_size(s, k, pos[sc], false);
      }
    }
    if (!emit) return;
    std::fill(pos.begin(), pos.end(), 0);
    for (size_t k = 0; k < st_.size(); ++k) {
      const Stmt& s = st_[k];
      const size_t sc = stmt_section_[k];
      std::vector<uint8_t>& b = sec_[sc].bytes;
      if (s.type == Stmt::Insn) {
        const Candidate& c = cand_[k][choice_[k]];
        uint64_t bits = c.bits;
        for (const Field& f : c.fields) {
          uint64_t v = 0;
          fits(f, eval(*f.e, s), sec_[sc].base + pos[sc], v);
          bits |= v << f.pos;
        }
        for (unsigned j = 0; j < c.form->length; ++j) b.push_back(static_cast<uint8_t>(j < 8 ? bits >> (8 * j) : 0));
        pos[sc] += c.form->length;
      } else if (s.type == Stmt::Directive) {
        pos[sc] = directive_size(s, k, pos[sc], true);
      }
      check_overflow(s, sc, pos[sc]);
    }
  }

  void check_overflow(const Stmt& s, size_t sc, uint64_t end) {
    const std::string& n = sec_[sc].name;
    auto ends = [&](const char* suffix) {
      const size_t l = std::strlen(suffix);
      return n.size() >= l && n.compare(n.size() - l, l, suffix) == 0;
    };
    const std::optional<uint32_t>& lim = ends("_code") ? o_.code_size : ends("_data") ? o_.data_size : std::nullopt;
    if (lim && end > *lim)
      fail(s, "section overflow: '" + n + "' reaches " + hex(end) + " bytes here, more than " + hex(*lim) + " (" +
                  (ends("_code") ? o_.code_size_from : o_.data_size_from) + ")");
  }

  // The section position after directive `s` (at `p`); with `emit`, its bytes.
  uint64_t directive_size(const Stmt& s, size_t k, uint64_t p, bool emit) {
    std::vector<uint8_t>& b = sec_[stmt_section_[k]].bytes;
    const std::string& d = s.name;
    if (d == "section") return p;
    if (d == "equ") {
      if (s.args.size() != 2 || s.args[0]->op != Expr::Sym) fail(s, "bad directive: .equ takes #NAME VALUE");
      const std::string& n = s.args[0]->name;
      if (!emit) {
        if (syms_.count(n)) fail(s, "symbol '" + n + "' defined twice (first at " + syms_[n].loc.str() + ")");
        syms_[n] = {false, 0, 0, s.args[1], s.loc};
      }
      return p;
    }
    if (d == "align" || d == "skip" || d == "size") {
      if (s.args.size() != 1) fail(s, "bad directive: ." + d + " takes one value");
      const uint64_t n = eval(*s.args[0], s);
      uint64_t to = p;
      if (d == "align") {
        if (!n) fail(s, "bad directive: .align 0");
        to = (p + n - 1) / n * n;
      } else if (d == "skip") {
        to = p + n;
      } else {
        if (p > n)
          fail(s, "section '" + sec_[stmt_section_[k]].name + "' exceeds .size by " + std::to_string(p - n) + " bytes");
        to = n;
      }
      if (to - p > (uint64_t{1} << 24)) fail(s, "bad directive: ." + d + " of " + hex(to - p) + " bytes");
      if (emit) b.resize(b.size() + (to - p), 0);
      return to;
    }
    if (d == "b8" || d == "b16" || d == "b32") {
      const unsigned n = d == "b8" ? 1 : d == "b16" ? 2 : 4;
      if (s.args.empty()) fail(s, "bad directive: ." + d + " takes at least one value");
      if (emit)
        for (const ExprP& a : s.args) {
          const uint64_t v = eval(*a, s);
          for (unsigned j = 0; j < n; ++j) b.push_back(static_cast<uint8_t>(v >> (8 * j)));
        }
      return p + n * s.args.size();
    }
    fail(s, "bad directive: unknown directive '." + d + "'");
  }

  // After a sizing pass: moves every instruction whose values do not fit to its next form.
  bool grow() {
    bool moved = false;
    for (size_t k = 0; k < st_.size(); ++k) {
      if (st_[k].type != Stmt::Insn) continue;
      const Stmt& s = st_[k];
      const size_t sc = stmt_section_[k];
      const Candidate& c = cand_[k][choice_[k]];
      for (const Field& f : c.fields) {
        uint64_t bits = 0;
        const uint64_t v = eval(*f.e, s);
        if (fits(f, v, sec_[sc].base + addr_[k], bits)) continue;
        if (choice_[k] + 1 >= cand_[k].size())
          fail(s, "operand out of range: " + (f.pcrel ? "branch target " + hex(v) + " is too far" : hex(v)) +
                      " fits no form of '" + s.name + "'");
        ++choice_[k];
        moved = true;
        break;
      }
    }
    return moved;
  }
};

}  // namespace

Program assemble(const std::string& text, const std::string& name, const Options& options) {
  if (!options.version) throw AsmError("no Falcon version given");
  return Assembler(parse(text, name), options).run();
}

}  // namespace hetvp::mcu::falcon::as
