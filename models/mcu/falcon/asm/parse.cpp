// hetvp — the Falcon assembler's reader (parse.h). The tokens and the expression grammar are envyas'
// (docs/envydis/index.rst): `name:` a label, `.word` a directive, `#name` a symbol, `$rN`/`$sp`/`$flags`/
// `$pN` registers, `D[...]`/`I[...]` memory; operands are additive expressions (`+ - * / %`; shifts and
// bit operators inside parentheses), directive arguments and addresses full ones. A '-' right after a
// blank and before a non-blank is a sign ("mov $r1 -1"), otherwise a minus. Statements end at a newline,
// at ';', or where the next mnemonic, label or directive starts: nouveau's macros expand several
// instructions onto one line.
#include "models/mcu/falcon/asm/parse.h"

#include <cctype>
#include <cstring>

#include "models/mcu/falcon/asm/assembler.h"
#include "models/mcu/falcon/asm/isa_forms.h"

namespace hetvp::mcu::falcon::as {

ExprP make_expr(Expr::Op op, ExprP a, ExprP b) {
  auto e = std::make_shared<Expr>();
  e->op = op;
  e->a = std::move(a);
  e->b = std::move(b);
  return e;
}

std::string Item::show() const {
  switch (type) {
    case Word:
      return text;
    case Reg:
      return "$r" + std::to_string(reg);
    case Special:
      return "$" + text;
    case Mem:
      return std::string(1, space) + "[...]";
    default:
      return "expression";
  }
}

namespace {

enum class Tok { Word, LabelDef, MemOpen, DotWord, DolWord, HashWord, Num, Punct, UMinus, Semi, End };
struct Token {
  Tok t = Tok::End;
  std::string s;  // the name, or the punctuation ("<<", "+", ...)
  uint64_t num = 0;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Lexer {
  const Loc& loc;
  [[noreturn]] void fail(const std::string& why) const { throw AsmError(loc.str() + ": " + why); }

  std::vector<Token> run(const std::string& s) {
    std::vector<Token> out;
    bool ws = true;  // the previous character was a blank (or an opening bracket): envyas' sign rule
    size_t i = 0;
    auto push = [&](Tok t, std::string text, bool blank_after = false) {
      out.push_back({t, std::move(text)});
      ws = blank_after;
    };
    while (i < s.size()) {
      const char c = s[i];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ws = true;
        ++i;
      } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
        break;
      } else if (ident_start(c)) {
        size_t e = i;
        while (e < s.size() && ident_char(s[e])) ++e;
        std::string w = s.substr(i, e - i);
        if (e < s.size() && s[e] == ':' && !(e + 1 < s.size() && s[e + 1] == ':')) {
          push(Tok::LabelDef, w, true);
          ++e;
        } else if (e < s.size() && s[e] == '[') {
          push(Tok::MemOpen, w, true);
          ++e;
        } else if (std::islower(static_cast<unsigned char>(c))) {
          push(Tok::Word, w);
        } else {
          fail("unexpected '" + w + "' (an undefined preprocessor macro?)");
        }
        i = e;
      } else if ((c == '.' || c == '$' || c == '#') && i + 1 < s.size() && ident_start(s[i + 1])) {
        size_t e = i + 1;
        while (e < s.size() && ident_char(s[e])) ++e;
        push(c == '.' ? Tok::DotWord : c == '$' ? Tok::DolWord : Tok::HashWord, s.substr(i + 1, e - i - 1));
        i = e;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        size_t e = i;
        int base = 10;
        if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
          base = 16;
          e = i + 2;
          while (e < s.size() && std::isxdigit(static_cast<unsigned char>(s[e]))) ++e;
          if (e == i + 2) fail("bad number '" + s.substr(i, 2) + "'");
        } else if (c == '0') {
          base = 8;
          e = i + 1;
          while (e < s.size() && s[e] >= '0' && s[e] <= '7') ++e;
        } else {
          while (e < s.size() && std::isdigit(static_cast<unsigned char>(s[e]))) ++e;
        }
        if (e < s.size() && ident_char(s[e])) fail("bad number '" + s.substr(i, e - i + 1) + "'");
        Token t{Tok::Num, s.substr(i, e - i)};
        t.num = std::stoull(base == 16 ? s.substr(i + 2, e - i - 2) : s.substr(i, e - i), nullptr, base);
        out.push_back(t);
        ws = false;
        i = e;
      } else if (c == '-') {
        const char n = i + 1 < s.size() ? s[i + 1] : ' ';
        if (n == ' ' || n == '\t') {
          if (!ws) fail("'-' needs a blank before it when one follows it");
          push(Tok::Punct, "-");
        } else if (n == '-' || n == '=') {
          fail(std::string("unexpected '-") + n + "'");
        } else {
          push(ws ? Tok::UMinus : Tok::Punct, "-");
        }
        ++i;
      } else if (c == ';') {
        push(Tok::Semi, ";", true);
        ++i;
      } else {
        const std::string two = s.substr(i, 2);
        if (two == "<<" || two == ">>" || two == "||" || two == "&&") {
          push(Tok::Punct, two);
          i += 2;
        } else if (std::strchr("[({", c)) {
          push(Tok::Punct, std::string(1, c), true);
          ++i;
        } else if (std::strchr("*/%+&|^~!)}]:", c)) {
          push(Tok::Punct, std::string(1, c));
          ++i;
        } else {
          fail(std::string("unexpected '") + c + "'");
        }
      }
    }
    out.push_back({Tok::End, ""});
    return out;
  }
};

struct Parser {
  const std::vector<Token>& t;
  const Loc& loc;
  size_t i = 0;
  bool in_mem = false;  // registers are values inside D[...] / I[...]

  [[noreturn]] void fail(const std::string& why) const { throw AsmError(loc.str() + ": " + why); }
  const Token& peek(size_t k = 0) const { return t[std::min(i + k, t.size() - 1)]; }
  bool punct(const char* p) const { return peek().t == Tok::Punct && peek().s == p; }
  std::string what() const {
    const Token& k = peek();
    switch (k.t) {
      case Tok::End:
        return "end of line";
      case Tok::HashWord:
        return "'#" + k.s + "'";
      case Tok::DolWord:
        return "'$" + k.s + "'";
      case Tok::DotWord:
        return "'." + k.s + "'";
      default:
        return "'" + k.s + "'";
    }
  }

  ExprP primary() {
    const Token& k = peek();
    if (k.t == Tok::Num) {
      ++i;
      auto e = std::make_shared<Expr>();
      e->num = k.num;
      return e;
    }
    if (k.t == Tok::HashWord) {
      ++i;
      auto e = std::make_shared<Expr>();
      e->op = Expr::Sym;
      e->name = k.s;
      return e;
    }
    if (k.t == Tok::DolWord && in_mem) {
      ++i;
      auto e = std::make_shared<Expr>();
      e->op = Expr::Reg;
      if (k.s == "sp") {
        e->num = 16;
      } else if (k.s.size() >= 2 && k.s[0] == 'r' && k.s.find_first_not_of("0123456789", 1) == std::string::npos &&
                 std::stoul(k.s.substr(1)) < 16) {
        e->num = std::stoul(k.s.substr(1));
      } else {
        fail("'$" + k.s + "' cannot address memory");
      }
      return e;
    }
    if (k.t == Tok::Punct && k.s == "(") {
      ++i;
      ExprP e = full();
      if (!punct(")")) fail("')' expected, found " + what());
      ++i;
      return e;
    }
    if (k.t == Tok::UMinus || (k.t == Tok::Punct && (k.s == "~" || k.s == "!"))) {
      ++i;
      return make_expr(k.t == Tok::UMinus ? Expr::Neg : k.s == "~" ? Expr::Not : Expr::LNot, primary());
    }
    fail("expression expected, found " + what());
  }
  template <typename Next>
  ExprP binary(Next next, std::initializer_list<std::pair<const char*, Expr::Op>> ops) {
    ExprP e = next();
    for (;;) {
      bool found = false;
      for (const auto& [p, op] : ops)
        if (punct(p)) {
          ++i;
          e = make_expr(op, e, next());
          found = true;
          break;
        }
      if (!found) return e;
    }
  }
  ExprP mul() { return binary([&] { return primary(); }, {{"*", Expr::Mul}, {"/", Expr::Div}, {"%", Expr::Mod}}); }
  ExprP additive() { return binary([&] { return mul(); }, {{"+", Expr::Add}, {"-", Expr::Sub}}); }
  ExprP full() {
    auto shift = [&] { return binary([&] { return additive(); }, {{"<<", Expr::Shl}, {">>", Expr::Shr}}); };
    auto band = [&] { return binary(shift, {{"&", Expr::And}}); };
    auto bxor = [&] { return binary(band, {{"^", Expr::Xor}}); };
    auto bor = [&] { return binary(bxor, {{"|", Expr::Or}}); };
    auto land = [&] { return binary(bor, {{"&&", Expr::LAnd}}); };
    return binary(land, {{"||", Expr::LOr}});
  }
  bool starts_value() const {
    const Token& k = peek();
    return k.t == Tok::Num || k.t == Tok::HashWord || k.t == Tok::UMinus ||
           (k.t == Tok::Punct && (k.s == "(" || k.s == "~" || k.s == "!"));
  }
  bool statement_ends() const {
    const Token& k = peek();
    if (k.t == Tok::End || k.t == Tok::Semi || k.t == Tok::LabelDef || k.t == Tok::DotWord) return true;
    if (k.t != Tok::Word || !isa::is_mnemonic(k.s.c_str())) return false;
    // `bra not $p1 ...`: "not" is a condition there, not the mnemonic
    return !(k.s == "not" && peek(1).t == Tok::DolWord && peek(1).s.size() == 2 && peek(1).s[0] == 'p');
  }

  Item operand() {
    const Token& k = peek();
    Item it;
    if (k.t == Tok::Word) {
      ++i;
      it.type = Item::Word;
      it.text = k.s;
    } else if (k.t == Tok::DolWord) {
      ++i;
      const std::string& s = k.s;
      if (s.size() >= 2 && s[0] == 'r' && s.find_first_not_of("0123456789", 1) == std::string::npos) {
        const unsigned long r = std::stoul(s.substr(1));
        if (r > 15) fail("no register $" + s + " ($r0-$r15)");
        it.type = Item::Reg;
        it.reg = static_cast<int>(r);
      } else {
        it.type = Item::Special;
        it.text = s;
      }
    } else if (k.t == Tok::MemOpen) {
      if (k.s != "D" && k.s != "I") fail("unknown memory space '" + k.s + "[' (D[...] or I[...])");
      ++i;
      it.type = Item::Mem;
      it.space = k.s[0];
      in_mem = true;
      it.e = full();
      in_mem = false;
      if (!punct("]")) fail("']' expected, found " + what());
      ++i;
    } else if (starts_value()) {
      it.type = Item::Value;
      it.e = additive();
      if (punct(":")) {
        ++i;
        it.type = Item::Vec;
        it.e2 = additive();
      }
    } else {
      fail("unexpected " + what());
    }
    return it;
  }

  void statements(std::vector<Stmt>& out) {
    while (peek().t != Tok::End) {
      const Token& k = peek();
      Stmt st;
      st.loc = loc;
      if (k.t == Tok::Semi) {
        ++i;
        continue;
      }
      if (k.t == Tok::LabelDef) {
        ++i;
        st.type = Stmt::Label;
        st.name = k.s;
      } else if (k.t == Tok::DotWord) {
        ++i;
        st.type = Stmt::Directive;
        st.name = k.s;
        while (!statement_ends() && peek().t != Tok::Word) st.args.push_back(full());
      } else if (k.t == Tok::Word) {
        if (!isa::is_mnemonic(k.s.c_str())) fail("unknown mnemonic '" + k.s + "'");
        ++i;
        st.type = Stmt::Insn;
        st.name = k.s;
        while (!statement_ends()) st.items.push_back(operand());
      } else {
        fail("unexpected " + what() + " at the start of a statement");
      }
      out.push_back(std::move(st));
    }
  }
};

// `# LINE "FILE" FLAGS...` (cpp's line markers): sets loc to the next line's location.
bool line_marker(const std::string& line, Loc& loc) {
  size_t p = 0;
  while (p < line.size() && (line[p] == ' ' || line[p] == '\t')) ++p;
  if (p >= line.size() || line[p] != '#') return false;
  ++p;
  while (p < line.size() && line[p] == ' ') ++p;
  if (line.compare(p, 4, "line") == 0) p += 4;
  while (p < line.size() && line[p] == ' ') ++p;
  if (p >= line.size() || !std::isdigit(static_cast<unsigned char>(line[p]))) return false;
  size_t e = p;
  while (e < line.size() && std::isdigit(static_cast<unsigned char>(line[e]))) ++e;
  loc.line = static_cast<unsigned>(std::stoul(line.substr(p, e - p))) - 1;  // the next line gets +1
  const size_t q = line.find('"', e);
  if (q != std::string::npos) {
    const size_t q2 = line.find('"', q + 1);
    if (q2 != std::string::npos) loc.file = std::make_shared<const std::string>(line.substr(q + 1, q2 - q - 1));
  }
  return true;
}

}  // namespace

std::vector<Stmt> parse(const std::string& text, const std::string& name) {
  std::vector<Stmt> out;
  Loc loc{std::make_shared<const std::string>(name), 0};
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++loc.line;
    if (line_marker(line, loc)) continue;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Lexer lx{loc};
    const std::vector<Token> toks = lx.run(line);
    Parser p{toks, loc};
    p.statements(out);
  }
  return out;
}

}  // namespace hetvp::mcu::falcon::as
