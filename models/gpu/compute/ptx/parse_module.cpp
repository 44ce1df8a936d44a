// PTX loader, module level: tokens, directives (.version/.target/.address_size), module-scope
// variables with their initializers, kernels and device functions with their parameters, and the
// declarations of a function body. Instructions: parse_instr.cpp.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "models/gpu/compute/ptx/parse.h"

namespace hetvp::gpu::ptx::detail {

namespace {
bool word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}
uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }
}  // namespace

std::vector<Token> tokenize(std::string_view s, const std::string& file) {
  std::vector<Token> out;
  unsigned line = 1;
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == '\n') {
      ++line, ++i;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
      size_t e = s.find("*/", i + 2);
      if (e == std::string_view::npos) throw LoadError(file, line, "unterminated comment");
      line += unsigned(std::count(s.begin() + i, s.begin() + e, '\n'));
      i = e + 2;
    } else if (c == '"') {
      size_t e = s.find('"', i + 1);
      if (e == std::string_view::npos || s.substr(i, e - i).find('\n') != std::string_view::npos)
        throw LoadError(file, line, "unterminated string");
      out.push_back({Token::String, s.substr(i + 1, e - i - 1), line});
      i = e + 1;
    } else if (word_char(c)) {
      size_t b = i;
      while (i < s.size() && word_char(s[i])) ++i;
      out.push_back({Token::Word, s.substr(b, i - b), line});
    } else if (std::strchr(",;:()[]{}<>=+-!@|", c) && c != 0) {
      out.push_back({Token::Punct, s.substr(i, 1), line});
      ++i;
    } else {
      throw LoadError(file, line, std::string("unexpected character '") +
                                      (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c)
                                                                                    : "\\x" + std::to_string(uint8_t(c))) +
                                      "'");
    }
  }
  out.push_back({Token::End, {}, line});
  return out;
}

Parser::Parser(std::string_view text, const std::string& file, ModuleImpl& m)
    : toks_(tokenize(text, file)), file_(file), m_(m) {}

const Token& Parser::peek(size_t ahead) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
const Token& Parser::next() {
  const Token& t = peek();
  if (pos_ < toks_.size() - 1) ++pos_;
  return t;
}
bool Parser::accept(std::string_view text) {
  if (peek().kind != Token::End && peek().kind != Token::String && peek().text == text) {
    ++pos_;
    return true;
  }
  return false;
}
void Parser::expect(std::string_view text) {
  if (!accept(text)) {
    const Token& t = peek();
    fail(t.line, "expected '" + std::string(text) + "', found " +
                     (t.kind == Token::End ? std::string("the end of the module") : "'" + std::string(t.text) + "'"));
  }
}
std::string_view Parser::word() {
  const Token& t = peek();
  if (t.kind != Token::Word)
    fail(t.line, t.kind == Token::End ? std::string("unexpected end of the module")
                                      : "expected a name, found '" + std::string(t.text) + "'");
  return next().text;
}
void Parser::fail(unsigned line, const std::string& why) const { throw LoadError(file_, line, why); }

uint64_t Parser::number(const Token& t) const {
  std::string s(t.text);
  if (t.kind != Token::Word || s.empty() || !std::isdigit(static_cast<unsigned char>(s[0])))
    fail(t.line, "expected a number, found '" + s + "'");
  if (s.back() == 'U' || s.back() == 'u') s.pop_back();
  int base = 10;
  size_t start = 0;
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) base = 16, start = 2;
  else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) base = 2, start = 2;
  else if (s.size() > 1 && s[0] == '0') base = 8, start = 1;
  if (start >= s.size()) fail(t.line, "malformed number '" + std::string(t.text) + "'");
  uint64_t v = 0;
  for (size_t i = start; i < s.size(); ++i) {
    int d = std::isdigit(static_cast<unsigned char>(s[i])) ? s[i] - '0'
            : std::isxdigit(static_cast<unsigned char>(s[i])) ? std::tolower(s[i]) - 'a' + 10
                                                               : 99;
    if (d >= base) fail(t.line, "malformed number '" + std::string(t.text) + "'");
    v = v * base + d;
  }
  return v;
}

Ty Parser::parse_type(std::string_view w, unsigned line) const {
  static const std::pair<std::string_view, Ty> kTypes[] = {
      {".b8", Ty::B8},   {".b16", Ty::B16}, {".b32", Ty::B32}, {".b64", Ty::B64}, {".u8", Ty::U8},
      {".u16", Ty::U16}, {".u32", Ty::U32}, {".u64", Ty::U64}, {".s8", Ty::S8},   {".s16", Ty::S16},
      {".s32", Ty::S32}, {".s64", Ty::S64}, {".f32", Ty::F32}, {".f64", Ty::F64}, {".pred", Ty::Pred}};
  for (auto& [n, t] : kTypes)
    if (w == n) return t;
  fail(line, "unsupported type '" + std::string(w) + "'");
}

void Parser::skip_line(unsigned line) {
  while (peek().kind != Token::End && peek().line == line) next();
}

void Parser::parse_module() {
  bool have_version = false, have_target = false;
  while (peek().kind != Token::End) {
    const Token& t = peek();
    unsigned line = t.line;
    if (t.kind != Token::Word) fail(line, "unexpected '" + std::string(t.text) + "' at module scope");
    std::string_view w = next().text;
    if (w == ".version") {
      const Token& v = next();
      std::string s(v.text);
      auto dot = s.find('.');
      if (v.kind != Token::Word || dot == std::string::npos) fail(line, "malformed .version");
      m_.version = unsigned(std::stoul("0" + s.substr(0, dot)) * 10 + std::stoul("0" + s.substr(dot + 1)));
      have_version = true;
    } else if (w == ".target") {
      do {
        std::string_view a = word();
        if (a == "sm_20") m_.target = Arch::Sm20;
        else if (a == "sm_30") m_.target = Arch::Sm30;
        else if (a == "sm_35") m_.target = Arch::Sm35;
        else if (a == "texmode_unified" || a == "texmode_independent" || a == "debug" || a == "map_f64_to_f32")
          fail(line, "unsupported target option '" + std::string(a) + "'");
        else fail(line, "unsupported target '" + std::string(a) + "' (hetvp runs sm_20, sm_30 and sm_35)");
      } while (accept(","));
      have_target = true;
    } else if (w == ".address_size") {
      if (number(next()) != 64) fail(line, "unsupported .address_size (hetvp runs 64-bit modules)");
    } else if (w == ".file") {
      skip_line(line);
    } else if (w == ".section") {
      fail(line, "unsupported directive '.section' (debug information: compile without -g)");
    } else if (w == ".visible" || w == ".extern" || w == ".weak" || w == ".common" || w == ".entry" ||
               w == ".func" || w == ".global" || w == ".const" || w == ".shared") {
      bool is_extern = false;
      while (w == ".visible" || w == ".extern" || w == ".weak" || w == ".common") {
        is_extern |= w == ".extern";
        w = word();
      }
      if (!have_version || !have_target) fail(line, "a module must start with .version and .target");
      if (w == ".entry") parse_function(true, is_extern, line);
      else if (w == ".func") parse_function(false, is_extern, line);
      else if (w == ".global") parse_variable(VarSpace::Global, is_extern, line);
      else if (w == ".const") parse_variable(VarSpace::Const, is_extern, line);
      else if (w == ".shared") parse_variable(VarSpace::Shared, is_extern, line);
      else fail(line, "unsupported directive '" + std::string(w) + "'");
    } else if (w.size() && w[0] == '.') {
      fail(line, "unsupported directive '" + std::string(w) + "'");
    } else {
      fail(line, "unexpected '" + std::string(w) + "' at module scope");
    }
  }
  if (!have_version || !have_target) fail(peek().line, "a module must start with .version and .target");
  for (auto& [name, idx] : func_index_)
    if (!func_defined_[idx] && m_.funcs[idx].info.is_kernel)
      fail(m_.funcs[idx].info.line, "kernel '" + name + "' is declared but not defined");
  for (auto& c : call_fixups_) {
    auto it = func_index_.find(c.callee);
    if (it == func_index_.end())
      fail(c.line, "call to '" + c.callee + "', which is not a function of the module");
    if (!func_defined_[it->second])
      fail(c.line, "call to '" + c.callee + "', which the module does not define" +
                       (c.callee == "vprintf" ? " (device printf is not supported)" : ""));
    m_.code[c.pc].target = it->second;
  }
}

// [.align N] .type name[N]... [= initializer];   (after the state space)
void Parser::parse_variable(VarSpace space, bool is_extern, unsigned line) {
  VariableInfo v;
  v.line = line;
  v.space = space;
  v.is_extern = is_extern;
  v.align = 0;
  if (accept(".align")) v.align = uint32_t(number(next()));
  if (accept(".v2") || accept(".v4")) fail(line, "vector variables are not supported");
  Ty t = parse_type(word(), line);
  if (t == Ty::Pred) fail(line, "a .pred variable is not supported");
  unsigned esize = ty_bytes(t);
  if (!v.align) v.align = esize;
  if (v.align == 0 || (v.align & (v.align - 1)) || v.align > 4096) fail(line, "bad .align");
  v.name = std::string(word());
  uint64_t count = 1;
  bool unsized = false;
  while (accept("[")) {
    if (accept("]")) {
      unsized = true;
      continue;
    }
    uint64_t n = number(next());
    if (n == 0 || n > (uint64_t(1) << 32)) fail(line, "bad array size");
    count *= n;
    if (count > (uint64_t(1) << 32)) fail(line, "variable too large");
    expect("]");
  }
  v.size = unsized ? 0 : count * esize;
  if (accept("=")) {
    if (space == VarSpace::Shared) fail(line, "a .shared variable cannot have an initializer");
    std::vector<uint64_t> vals;
    auto literal = [&]() -> uint64_t {
      bool neg = accept("-");
      const Token& k = peek();
      if (k.kind == Token::Word && k.text.size() == 10 && (k.text.substr(0, 2) == "0f" || k.text.substr(0, 2) == "0F")) {
        next();
        return std::stoull(std::string(k.text.substr(2)), nullptr, 16) ^ (neg ? 0x80000000u : 0);
      }
      if (k.kind == Token::Word && k.text.size() == 18 && (k.text.substr(0, 2) == "0d" || k.text.substr(0, 2) == "0D")) {
        next();
        return std::stoull(std::string(k.text.substr(2)), nullptr, 16) ^ (neg ? uint64_t(1) << 63 : 0);
      }
      if (k.kind == Token::Word && !std::isdigit(static_cast<unsigned char>(k.text[0])))
        fail(k.line, "address initializers ('" + std::string(k.text) + "') are not supported");
      uint64_t x = number(next());
      return neg ? uint64_t(0) - x : x;
    };
    if (accept("{")) {
      unsigned depth = 1;
      while (depth) {
        if (accept("{")) ++depth;
        else if (accept("}")) --depth;
        else if (accept(",")) continue;
        else vals.push_back(literal());
        if (vals.size() > (uint64_t(1) << 26)) fail(line, "initializer too large");
      }
    } else {
      vals.push_back(literal());
    }
    if (unsized) v.size = vals.size() * esize;
    if (vals.size() * esize > v.size) fail(line, "initializer larger than the variable");
    v.init.assign(v.size, 0);
    for (size_t i = 0; i < vals.size(); ++i) std::memcpy(&v.init[i * esize], &vals[i], esize);
  }
  expect(";");
  if (v.size == 0 && !(is_extern && space == VarSpace::Shared))
    fail(line, "variable '" + v.name + "' has no size");
  if (module_syms_.count(v.name) || func_index_.count(v.name)) fail(line, "'" + v.name + "' is declared twice");
  Symbol sym{};
  sym.index = uint32_t(m_.variables.size());
  sym.size = uint32_t(std::min<uint64_t>(v.size, 0xffffffffu));
  if (space == VarSpace::Global) {
    if (is_extern) fail(line, "an .extern .global variable is not supported (the module must define it)");
    sym.kind = SymKind::GlobalVar;
  } else if (space == VarSpace::Const) {
    bool ctx = std::string_view(v.name).substr(0, kContextBankPrefix.size()) == kContextBankPrefix;
    if (is_extern && !ctx) fail(line, "an .extern .const variable must be a context-bank one ('" +
                                          std::string(kContextBankPrefix) + "…')");
    v.bank = ctx ? 1 : 0;
    if (ctx) {
      v.bank_offset = align_up(m_.const_bank1_bytes, v.align);
      if (v.bank_offset + v.size > 0x10000) fail(line, "constant bank 1 exceeds 64 KiB");
      m_.const_bank1_bytes = uint32_t(v.bank_offset + v.size);
    } else {
      v.bank_offset = align_up(uint32_t(m_.const_bank0.size()), v.align);
      if (v.bank_offset + v.size > 0x10000) fail(line, "constant bank 0 exceeds 64 KiB");
      m_.const_bank0.resize(v.bank_offset + v.size, 0);
      std::copy(v.init.begin(), v.init.end(), m_.const_bank0.begin() + long(v.bank_offset));
    }
    sym.kind = SymKind::ConstVar;
    sym.addr = int64_t(uint64_t(v.bank) << 32 | v.bank_offset);
  } else if (is_extern) {  // `extern __shared__`: the dynamic area (link.cpp places it)
    sym.kind = SymKind::DynShared;
    sym.addr = 0;
  } else {
    v.bank_offset = align_up(m_.module_shared_bytes, v.align);
    if (v.bank_offset + v.size > (uint64_t(1) << 20)) fail(line, "shared variables exceed 1 MiB");
    m_.module_shared_bytes = uint32_t(v.bank_offset + v.size);
    sym.kind = SymKind::SharedVar;
    sym.addr = int64_t(v.bank_offset);
  }
  module_syms_[v.name] = sym;
  m_.variables.push_back(std::move(v));
}

// .param [.ptr .space] [.align N] .type name[[N]]   (kernel or function parameters)
void Parser::parse_params(Function& f, bool is_kernel, bool is_return) {
  expect("(");
  if (accept(")")) return;
  do {
    unsigned line = peek().line;
    std::string_view w = word();
    if (w != ".param") fail(line, is_kernel ? "kernel parameters must be .param" : "parameters must be .param");
    uint32_t align = 0;
    if (accept(".ptr")) {
      if (!(accept(".global") || accept(".const") || accept(".shared") || accept(".local")))
        fail(line, "expected a state space after .ptr");
    }
    if (accept(".align")) align = uint32_t(number(next()));
    Ty t = parse_type(word(), line);
    if (t == Ty::Pred) fail(line, "a .pred parameter is not supported");
    std::string name(word());
    uint64_t count = 1;
    if (accept("[")) {
      count = number(next());
      expect("]");
      if (count == 0 || count > (1u << 20)) fail(line, "bad parameter array size");  // (the bytes are checked below)
    }
    uint32_t size = uint32_t(count * ty_bytes(t));
    if (!align) align = ty_bytes(t);
    if (align == 0 || (align & (align - 1)) || align > 256) fail(line, "bad .align");
    uint32_t& top = is_kernel ? f.info.param_bytes : f.frame_own;
    uint32_t off = align_up(top, align);
    top = off + size;
    if (top > kMaxParamBytes)
      fail(line, std::string(is_kernel ? "kernel" : "function") + " parameters of " + std::to_string(top) +
                     " bytes or more, more than " + std::to_string(kMaxParamBytes) +
                     " (CUDA's limit for sm_20 to sm_35)");
    Symbol s{};
    s.kind = is_kernel ? SymKind::KernelParam : SymKind::FrameParam;
    s.addr = off;
    s.size = size;
    if (sym_scopes_.front().count(name)) fail(line, "parameter '" + name + "' declared twice");
    sym_scopes_.front()[name] = s;
    if (is_kernel) {
      f.info.params.push_back({name, off, size, align});
    } else if (is_return) {
      f.ret_offset = off;
      f.ret_size = size;
    } else {
      f.param_offsets.push_back(off);
      f.param_sizes.push_back(size);
    }
  } while (accept(","));
  expect(")");
}

void Parser::parse_function(bool is_kernel, bool is_extern, unsigned line) {
  Function f;
  f.info.is_kernel = is_kernel;
  f.info.line = line;
  reg_scopes_.assign(1, {});
  sym_scopes_.assign(1, {});
  labels_.clear();
  fixups_.clear();
  if (!is_kernel && peek().text == "(") parse_params(f, false, true);
  f.info.name = std::string(word());
  if (module_syms_.count(f.info.name)) fail(line, "'" + f.info.name + "' is declared twice");
  if (peek().text == "(") parse_params(f, is_kernel, false);
  while (peek().kind == Token::Word && (peek().text == ".maxntid" || peek().text == ".reqntid" ||
                                         peek().text == ".minnctapersm" || peek().text == ".maxnreg" ||
                                         peek().text == ".noreturn" || peek().text == ".maxnctapersm")) {
    std::string_view d = next().text;
    if (d == ".noreturn") continue;
    do number(next());
    while (accept(","));
  }
  auto it = func_index_.find(f.info.name);
  unsigned idx;
  if (it == func_index_.end()) {
    idx = unsigned(m_.funcs.size());
    func_index_[f.info.name] = idx;
    m_.funcs.push_back(f);
    func_defined_.push_back(false);
  } else {
    idx = it->second;
    if (func_defined_[idx]) fail(line, "function '" + f.info.name + "' is defined twice");
    if (m_.funcs[idx].info.is_kernel != is_kernel) fail(line, "'" + f.info.name + "' declared as another kind");
  }
  if (accept(";")) return;  // a prototype
  if (is_extern) fail(line, "an .extern function cannot have a body");
  expect("{");
  f.first_pc = uint32_t(m_.code.size());
  parse_body(f);
  Instr end;
  end.op = Op::FuncEnd;
  end.cls = InstrClass::Branch;
  end.line = peek(0).line;
  m_.code.push_back(end);
  f.end_pc = uint32_t(m_.code.size());
  for (auto& fx : fixups_) {
    auto l = labels_.find(fx.label);
    if (l == labels_.end()) fail(fx.line, "branch to an undefined label '" + fx.label + "'");
    m_.code[fx.pc].target = l->second;
  }
  m_.funcs[idx] = std::move(f);
  func_defined_[idx] = true;
}

bool Parser::find_reg(std::string_view name, uint32_t& slot) const {
  std::string n(name);
  for (auto s = reg_scopes_.rbegin(); s != reg_scopes_.rend(); ++s) {
    auto it = s->find(n);
    if (it != s->end()) return slot = it->second, true;
  }
  return false;
}

uint32_t Parser::lookup_reg(std::string_view name, unsigned line) const {
  uint32_t slot;
  if (find_reg(name, slot)) return slot;
  fail(line, "undeclared register '" + std::string(name) + "'");
}

const Symbol* Parser::lookup_sym(std::string_view name) const {
  std::string n(name);
  for (auto s = sym_scopes_.rbegin(); s != sym_scopes_.rend(); ++s) {
    auto it = s->find(n);
    if (it != s->end()) return &it->second;
  }
  auto it = module_syms_.find(n);
  return it == module_syms_.end() ? nullptr : &it->second;
}

// .reg .type %name<N>;  or  .reg .type %a, %b;
void Parser::parse_reg_decl(Function& f) {
  unsigned line = peek().line;
  if (accept(".v2") || accept(".v4")) fail(line, "vector registers are not supported");
  Ty t = parse_type(word(), line);
  auto add = [&](const std::string& n) {
    if (reg_scopes_.back().count(n)) fail(line, "register '" + n + "' declared twice");
    if (f.nregs >= (1u << 20)) fail(line, "too many registers");
    reg_scopes_.back()[n] = f.nregs++;
    f.reg_wide.push_back(ty_bytes(t) == 8);
  };
  do {
    std::string n(word());
    if (accept("<")) {
      uint64_t count = number(next());
      expect(">");
      if (count > 100000) fail(line, "too many registers");
      for (uint64_t i = 0; i < count; ++i) add(n + std::to_string(i));
    } else {
      add(n);
    }
  } while (accept(","));
  expect(";");
}

// .local/.shared/.param [.align N] .type name[N];   inside a body
void Parser::parse_local_decl(Function& f, std::string_view space, unsigned line) {
  uint32_t align = 0;
  if (accept(".align")) align = uint32_t(number(next()));
  Ty t = parse_type(word(), line);
  if (t == Ty::Pred) fail(line, "a .pred variable is not supported");
  if (!align) align = ty_bytes(t);
  if (align == 0 || (align & (align - 1)) || align > 4096) fail(line, "bad .align");
  std::string name(word());
  uint64_t count = 1;
  bool unsized = false;
  while (accept("[")) {
    if (accept("]")) {
      unsized = true;
      continue;
    }
    uint64_t n = number(next());
    if (n == 0 || n > (uint64_t(1) << 24)) fail(line, "bad array size");
    count *= n;
    if (count > (uint64_t(1) << 24)) fail(line, "variable too large");
    expect("]");
  }
  if (accept("=")) fail(line, "initializers of function-scope variables are not supported");
  expect(";");
  uint64_t size = count * ty_bytes(t);
  Symbol s{};
  s.size = uint32_t(size);
  if (space == ".local") {
    if (unsized) fail(line, "a .local array needs a size");
    s.kind = SymKind::LocalVar;
    s.addr = align_up(f.local_own, align);
    f.local_own = uint32_t(s.addr + size);
    if (f.local_own > (1u << 20)) fail(line, ".local variables exceed 1 MiB per thread");
  } else if (space == ".param") {
    if (unsized) fail(line, "a .param array needs a size");
    s.kind = SymKind::FrameParam;
    s.addr = align_up(f.frame_own, align);
    f.frame_own = uint32_t(s.addr + size);
    if (f.frame_own > 65536) fail(line, ".param variables exceed 64 KiB per thread");
  } else {  // .shared: static ones after the module's; `extern __shared__` (unsized) = the dynamic area
    if (!f.info.is_kernel) fail(line, ".shared variables in device functions are not supported");
    s.kind = SymKind::SharedVar;
    if (unsized) {
      s.kind = SymKind::DynShared;  // link: after the static shared bytes, 16-aligned
      s.addr = 0;
    } else {
      uint32_t base = std::max(m_.module_shared_bytes, f.info.shared_bytes);
      s.addr = align_up(base, align);
      f.info.shared_bytes = uint32_t(s.addr + size);
      if (f.info.shared_bytes > (1u << 20)) fail(line, "shared variables exceed 1 MiB");
    }
  }
  sym_scopes_.back()[name] = s;
}

void Parser::parse_body(Function& f) {
  unsigned depth = 1;
  while (depth) {
    const Token& t = peek();
    unsigned line = t.line;
    if (t.kind == Token::End) fail(line, "unexpected end of the module in '" + f.info.name + "' (missing '}')");
    if (accept("{")) {
      ++depth;
      reg_scopes_.emplace_back();
      sym_scopes_.emplace_back();
      continue;
    }
    if (accept("}")) {
      if (--depth) {
        reg_scopes_.pop_back();
        sym_scopes_.pop_back();
      }
      continue;
    }
    if (t.kind == Token::Word && peek(1).text == ":" && peek(1).kind == Token::Punct) {
      std::string label(next().text);
      next();
      if (labels_.count(label)) fail(line, "label '" + label + "' defined twice");
      labels_[label] = uint32_t(m_.code.size());
      continue;
    }
    if (t.kind == Token::Word && t.text[0] == '.') {
      std::string_view d = next().text;
      if (d == ".reg") parse_reg_decl(f);
      else if (d == ".local" || d == ".shared" || d == ".param") parse_local_decl(f, d, line);
      else if (d == ".loc" || d == ".file") skip_line(line);
      else if (d == ".pragma") {
        while (peek().kind == Token::String || accept(",")) next();
        expect(";");
      } else fail(line, "unsupported directive '" + std::string(d) + "'");
      continue;
    }
    uint32_t guard = kNoReg;
    bool guard_neg = false;
    if (accept("@")) {
      guard_neg = accept("!");
      guard = lookup_reg(word(), line);
    }
    if (m_.code.size() >= (1u << 24)) fail(line, "module too large");
    parse_instruction(*this, f, guard, guard_neg, line);
  }
}

}  // namespace hetvp::gpu::ptx::detail
