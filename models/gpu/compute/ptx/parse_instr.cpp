// PTX loader, instructions: the opcode and its modifiers, the operands, and the checks that make
// anything the executor does not run a located load error.
#include <cctype>
#include <cstring>

#include "models/gpu/compute/ptx/parse.h"

namespace hetvp::gpu::ptx::detail {

namespace {

struct Named {
  std::string_view name;
  uint8_t value;
};

template <size_t N>
int find(const Named (&table)[N], std::string_view w) {
  for (auto& e : table)
    if (e.name == w) return e.value;
  return -1;
}

const Named kOps[] = {
    {"mov", uint8_t(Op::Mov)},     {"add", uint8_t(Op::Add)},       {"sub", uint8_t(Op::Sub)},
    {"mul", uint8_t(Op::Mul)},     {"mad", uint8_t(Op::Mad)},       {"mul24", uint8_t(Op::Mul24)},
    {"mad24", uint8_t(Op::Mad24)}, {"div", uint8_t(Op::Div)},       {"rem", uint8_t(Op::Rem)},
    {"abs", uint8_t(Op::Abs)},     {"neg", uint8_t(Op::Neg)},       {"min", uint8_t(Op::Min)},
    {"max", uint8_t(Op::Max)},     {"and", uint8_t(Op::And)},       {"or", uint8_t(Op::Or)},
    {"xor", uint8_t(Op::Xor)},     {"not", uint8_t(Op::Not)},       {"cnot", uint8_t(Op::Cnot)},
    {"shl", uint8_t(Op::Shl)},     {"shr", uint8_t(Op::Shr)},       {"bfe", uint8_t(Op::Bfe)},
    {"bfi", uint8_t(Op::Bfi)},     {"popc", uint8_t(Op::Popc)},     {"clz", uint8_t(Op::Clz)},
    {"brev", uint8_t(Op::Brev)},   {"prmt", uint8_t(Op::Prmt)},     {"fma", uint8_t(Op::Fma)},
    {"sqrt", uint8_t(Op::Sqrt)},   {"rcp", uint8_t(Op::Rcp)},       {"rsqrt", uint8_t(Op::Rsqrt)},
    {"ex2", uint8_t(Op::Ex2)},     {"lg2", uint8_t(Op::Lg2)},       {"sin", uint8_t(Op::Sin)},
    {"cos", uint8_t(Op::Cos)},     {"copysign", uint8_t(Op::Copysign)}, {"setp", uint8_t(Op::Setp)},
    {"set", uint8_t(Op::Set)},     {"selp", uint8_t(Op::Selp)},     {"slct", uint8_t(Op::Slct)},
    {"cvt", uint8_t(Op::Cvt)},     {"cvta", uint8_t(Op::Cvta)},     {"ld", uint8_t(Op::Ld)},
    {"st", uint8_t(Op::St)},       {"bra", uint8_t(Op::Bra)},       {"call", uint8_t(Op::Call)},
    {"ret", uint8_t(Op::Ret)},     {"exit", uint8_t(Op::Exit)},     {"bar", uint8_t(Op::Bar)},
    {"barrier", uint8_t(Op::Bar)}, {"membar", uint8_t(Op::Membar)}, {"atom", uint8_t(Op::Atom)},
    {"red", uint8_t(Op::Red)},     {"shfl", uint8_t(Op::Shfl)},     {"vote", uint8_t(Op::Vote)},
    {"trap", uint8_t(Op::Trap)},   {"sad", uint8_t(Op::Sad)},
};
const Named kTypes[] = {{"b8", uint8_t(Ty::B8)},   {"b16", uint8_t(Ty::B16)}, {"b32", uint8_t(Ty::B32)},
                        {"b64", uint8_t(Ty::B64)}, {"u8", uint8_t(Ty::U8)},   {"u16", uint8_t(Ty::U16)},
                        {"u32", uint8_t(Ty::U32)}, {"u64", uint8_t(Ty::U64)}, {"s8", uint8_t(Ty::S8)},
                        {"s16", uint8_t(Ty::S16)}, {"s32", uint8_t(Ty::S32)}, {"s64", uint8_t(Ty::S64)},
                        {"f32", uint8_t(Ty::F32)}, {"f64", uint8_t(Ty::F64)}, {"pred", uint8_t(Ty::Pred)}};
const Named kSpaces[] = {{"global", uint8_t(Space::Global)}, {"shared", uint8_t(Space::Shared)},
                         {"local", uint8_t(Space::Local)},   {"param", uint8_t(Space::Param)},
                         {"const", uint8_t(Space::Const)}};
const Named kCmps[] = {{"eq", uint8_t(Cmp::Eq)},   {"ne", uint8_t(Cmp::Ne)},   {"lt", uint8_t(Cmp::Lt)},
                       {"le", uint8_t(Cmp::Le)},   {"gt", uint8_t(Cmp::Gt)},   {"ge", uint8_t(Cmp::Ge)},
                       {"lo", uint8_t(Cmp::Lo)},   {"ls", uint8_t(Cmp::Ls)},   {"hi", uint8_t(Cmp::Hi)},
                       {"hs", uint8_t(Cmp::Hs)},   {"equ", uint8_t(Cmp::Equ)}, {"neu", uint8_t(Cmp::Neu)},
                       {"ltu", uint8_t(Cmp::Ltu)}, {"leu", uint8_t(Cmp::Leu)}, {"gtu", uint8_t(Cmp::Gtu)},
                       {"geu", uint8_t(Cmp::Geu)}, {"num", uint8_t(Cmp::Num)}, {"nan", uint8_t(Cmp::Nan)}};
const Named kRnds[] = {{"rn", uint8_t(Rnd::Rn)},   {"rz", uint8_t(Rnd::Rz)},   {"rm", uint8_t(Rnd::Rm)},
                       {"rp", uint8_t(Rnd::Rp)},   {"rni", uint8_t(Rnd::Rni)}, {"rzi", uint8_t(Rnd::Rzi)},
                       {"rmi", uint8_t(Rnd::Rmi)}, {"rpi", uint8_t(Rnd::Rpi)}};
const Named kAtomOps[] = {{"add", uint8_t(AtomOp::Add)}, {"min", uint8_t(AtomOp::Min)},
                          {"max", uint8_t(AtomOp::Max)}, {"inc", uint8_t(AtomOp::Inc)},
                          {"dec", uint8_t(AtomOp::Dec)}, {"and", uint8_t(AtomOp::And)},
                          {"or", uint8_t(AtomOp::Or)},   {"xor", uint8_t(AtomOp::Xor)},
                          {"exch", uint8_t(AtomOp::Exch)}, {"cas", uint8_t(AtomOp::Cas)}};
const Named kSregs[] = {
    {"%tid.x", uint8_t(Sreg::TidX)},       {"%tid.y", uint8_t(Sreg::TidY)},
    {"%tid.z", uint8_t(Sreg::TidZ)},       {"%ntid.x", uint8_t(Sreg::NtidX)},
    {"%ntid.y", uint8_t(Sreg::NtidY)},     {"%ntid.z", uint8_t(Sreg::NtidZ)},
    {"%ctaid.x", uint8_t(Sreg::CtaidX)},   {"%ctaid.y", uint8_t(Sreg::CtaidY)},
    {"%ctaid.z", uint8_t(Sreg::CtaidZ)},   {"%nctaid.x", uint8_t(Sreg::NctaidX)},
    {"%nctaid.y", uint8_t(Sreg::NctaidY)}, {"%nctaid.z", uint8_t(Sreg::NctaidZ)},
    {"%laneid", uint8_t(Sreg::LaneId)},    {"%warpid", uint8_t(Sreg::WarpId)},
    {"%nwarpid", uint8_t(Sreg::NWarpId)},  {"%smid", uint8_t(Sreg::SmId)},
    {"%nsmid", uint8_t(Sreg::NSmId)},      {"%gridid", uint8_t(Sreg::GridId)},
    {"%clock", uint8_t(Sreg::Clock)},      {"%clock64", uint8_t(Sreg::Clock64)},
    {"%lanemask_eq", uint8_t(Sreg::LanemaskEq)}, {"%lanemask_le", uint8_t(Sreg::LanemaskLe)},
    {"%lanemask_lt", uint8_t(Sreg::LanemaskLt)}, {"%lanemask_ge", uint8_t(Sreg::LanemaskGe)},
    {"%lanemask_gt", uint8_t(Sreg::LanemaskGt)}};

bool is_int(Ty t) { return t != Ty::None && t != Ty::Pred && !ty_float(t); }

}  // namespace

unsigned ty_bytes(Ty t) {
  switch (t) {
    case Ty::B8: case Ty::U8: case Ty::S8: return 1;
    case Ty::B16: case Ty::U16: case Ty::S16: return 2;
    case Ty::B32: case Ty::U32: case Ty::S32: case Ty::F32: return 4;
    case Ty::B64: case Ty::U64: case Ty::S64: case Ty::F64: return 8;
    case Ty::Pred: return 1;
    default: return 0;
  }
}

namespace {

class InstrReader {
 public:
  InstrReader(Parser& p, Function& f, unsigned line) : p_(p), f_(f), line_(line) {}

  [[noreturn]] void unsupported(std::string_view op) const {
    p_.fail(line_, "unsupported instruction '" + std::string(op) + "'");
  }

  int64_t literal(bool neg) {
    const Token& t = p_.peek();
    std::string_view w = t.text;
    if (t.kind == Token::Word && w.size() == 10 && (w[1] == 'f' || w[1] == 'F') && w[0] == '0') {
      p_.next();
      uint64_t v = std::stoull(std::string(w.substr(2)), nullptr, 16);
      return int64_t(neg ? v ^ 0x80000000u : v);
    }
    if (t.kind == Token::Word && w.size() == 18 && (w[1] == 'd' || w[1] == 'D') && w[0] == '0') {
      p_.next();
      uint64_t v = std::stoull(std::string(w.substr(2)), nullptr, 16);
      return int64_t(neg ? v ^ (uint64_t(1) << 63) : v);
    }
    uint64_t v = p_.number(p_.next());
    return neg ? int64_t(uint64_t(0) - v) : int64_t(v);
  }

  uint32_t reg_or_sink(std::string_view w) {
    if (w == "_") {
      f_.reg_wide.push_back(1);
      return f_.nregs++;
    }
    return p_.lookup_reg(w, line_);
  }

  Operand symbol(std::string_view w, bool allow_unknown) {
    Operand o;
    const Symbol* s = p_.lookup_sym(w);
    if (!s) {
      if (allow_unknown) return o;
      p_.fail(line_, "undeclared symbol '" + std::string(w) + "'");
    }
    o.kind = Operand::Sym;
    o.sym = s->kind;
    o.reg = s->index;
    o.imm = s->addr;
    return o;
  }

  Operand operand() {
    Operand o;
    const Token& t = p_.peek();
    if (p_.accept("[")) {
      o.kind = Operand::Addr;
      o.reg = kNoReg;
      const Token& b = p_.peek();
      if (b.kind != Token::Word) p_.fail(line_, "malformed address");
      uint32_t slot;
      if (b.text[0] == '%') {
        o.reg = p_.lookup_reg(p_.next().text, line_);
      } else if (p_.find_reg(b.text, slot)) {
        p_.next();
        o.reg = slot;
      } else if (std::isdigit(static_cast<unsigned char>(b.text[0]))) {
        o.imm = int64_t(p_.number(p_.next()));
      } else {
        Operand s = symbol(p_.next().text, false);
        o.sym = s.sym;
        o.imm = s.imm;
        o.reg = s.reg;  // the variable index (GlobalVar)
        o.neg = true;   // a symbolic address (ir.h)
      }
      if (p_.accept("+")) {
        bool neg = p_.accept("-");
        o.imm += literal(neg);
      } else if (p_.accept("-")) {
        o.imm -= literal(false);
      }
      p_.expect("]");
      return o;
    }
    if (p_.accept("{")) {
      o.kind = Operand::Vec;
      o.reg = uint32_t(vec_.size());
      do vec_.push_back(reg_or_sink(p_.word()));
      while (p_.accept(","));
      p_.expect("}");
      o.imm = int64_t(vec_.size() - o.reg);
      return o;
    }
    if (p_.accept("!")) {
      o.kind = Operand::Reg;
      o.neg = true;
      o.reg = p_.lookup_reg(p_.word(), line_);
      return o;
    }
    if (p_.accept("-")) {
      o.kind = Operand::Imm;
      o.imm = literal(true);
      return o;
    }
    if (t.kind != Token::Word) p_.fail(line_, "expected an operand, found '" + std::string(t.text) + "'");
    std::string_view w = t.text;
    if (w[0] == '%') {
      int s = find(kSregs, w);
      p_.next();
      if (s >= 0) {
        o.kind = Operand::Sreg;
        o.reg = uint32_t(s);
        return o;
      }
      o.kind = Operand::Reg;
      o.reg = p_.lookup_reg(w, line_);
      return o;
    }
    if (std::isdigit(static_cast<unsigned char>(w[0]))) {
      o.kind = Operand::Imm;
      o.imm = literal(false);
      return o;
    }
    if (w == "_") {
      p_.next();
      o.kind = Operand::Reg;
      o.reg = reg_or_sink(w);
      return o;
    }
    p_.next();
    uint32_t slot;
    if (p_.find_reg(w, slot)) {
      o.kind = Operand::Reg;
      o.reg = slot;
      return o;
    }
    return symbol(w, false);
  }

  std::vector<uint32_t> vec_;

 private:
  Parser& p_;
  Function& f_;
  unsigned line_;
};

InstrClass classify(const Instr& in) {
  const Ty t = in.type;
  switch (in.op) {
    case Op::Mul: case Op::Mad: case Op::Mul24: case Op::Mad24:
      return ty_float(t) ? (t == Ty::F64 ? InstrClass::F64 : InstrClass::F32) : InstrClass::IntMul;
    case Op::Div: case Op::Rem:
      if (t == Ty::F32) return in.approx ? InstrClass::Sfu : InstrClass::F32Div;
      return t == Ty::F64 ? InstrClass::F64Div : InstrClass::IntDiv;
    case Op::Shl: case Op::Shr: case Op::Bfe: case Op::Bfi: case Op::Brev: case Op::Prmt:
      return InstrClass::Shift;
    case Op::Sqrt:
      return t == Ty::F64 ? InstrClass::F64Div : in.approx ? InstrClass::Sfu : InstrClass::F32Sqrt;
    case Op::Rcp:
      return t == Ty::F64 ? InstrClass::F64Div : in.approx ? InstrClass::Sfu : InstrClass::F32Div;
    case Op::Rsqrt:
      return t == Ty::F64 ? InstrClass::F64Div : InstrClass::Sfu;
    case Op::Ex2: case Op::Lg2: case Op::Sin: case Op::Cos:
      return InstrClass::Sfu;
    case Op::Cvt: {
      unsigned db = ty_bytes(in.type), sb = ty_bytes(in.type2);
      if (db == 8 || sb == 8) return InstrClass::Cvt64;
      if (!ty_float(in.type) && !ty_float(in.type2) && sb < 4) return InstrClass::CvtNarrow;
      return InstrClass::CvtOther;
    }
    case Op::Setp: case Op::Set: {
      Ty c = in.type2;
      return c == Ty::F64 ? InstrClass::F64 : c == Ty::F32 ? InstrClass::F32 : InstrClass::IntAdd;
    }
    case Op::Bra: case Op::Call: case Op::Ret: case Op::Exit: case Op::Trap: case Op::FuncEnd:
      return InstrClass::Branch;
    case Op::Bar: case Op::Membar: return InstrClass::Barrier;
    case Op::Shfl: return InstrClass::Shfl;
    case Op::Vote: return InstrClass::Vote;
    case Op::Atom: case Op::Red:
      return in.space == Space::Shared ? InstrClass::AtomShared : InstrClass::AtomGlobal;
    case Op::Ld: case Op::St: {
      bool st = in.op == Op::St;
      switch (in.space) {
        case Space::Shared: return st ? InstrClass::StShared : InstrClass::LdShared;
        case Space::Local: return st ? InstrClass::StLocal : InstrClass::LdLocal;
        case Space::Param: return st ? InstrClass::StParam : InstrClass::LdParam;
        case Space::Const: return InstrClass::LdConst;
        default: return st ? InstrClass::StGlobal : InstrClass::LdGlobal;
      }
    }
    default:
      if (t == Ty::F32) return InstrClass::F32;
      if (t == Ty::F64) return InstrClass::F64;
      return InstrClass::IntAdd;
  }
}

}  // namespace

void parse_instruction(Parser& p, Function& f, uint32_t guard, bool guard_neg, unsigned line) {
  const Token& ot = p.peek();
  if (ot.kind != Token::Word) p.fail(line, "expected an instruction, found '" + std::string(ot.text) + "'");
  std::string_view opw = p.next().text;
  InstrReader r(p, f, line);
  std::vector<std::string_view> parts;
  for (size_t b = 0;;) {
    size_t e = opw.find('.', b);
    parts.push_back(opw.substr(b, e == std::string_view::npos ? e : e - b));
    if (e == std::string_view::npos) break;
    b = e + 1;
  }
  int opi = find(kOps, parts[0]);
  if (opi < 0) r.unsupported(opw);
  Instr in;
  in.op = Op(opi);
  in.line = line;
  in.pred = guard;
  in.pred_neg = guard_neg;
  std::vector<Ty> types;
  bool have_cmp = false, have_mode = false, to = false, sync = false, have_atom = false, red = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string_view m = parts[i];
    int v;
    if ((v = find(kTypes, m)) >= 0) {
      types.push_back(Ty(v));
    } else if ((in.op == Op::Setp || in.op == Op::Set) && !have_cmp && (v = find(kCmps, m)) >= 0) {
      in.cmp = Cmp(v);
      have_cmp = true;
    } else if ((in.op == Op::Setp || in.op == Op::Set) && have_cmp && (m == "and" || m == "or" || m == "xor")) {
      in.boolop = m == "and" ? BoolOp::And : m == "or" ? BoolOp::Or : BoolOp::Xor;
    } else if ((in.op == Op::Atom || in.op == Op::Red) && !have_atom && (v = find(kAtomOps, m)) >= 0) {
      in.mode = uint8_t(v);
      have_atom = true;
    } else if ((v = find(kSpaces, m)) >= 0 &&
               (in.op == Op::Ld || in.op == Op::St || in.op == Op::Atom || in.op == Op::Red || in.op == Op::Cvta)) {
      if (in.space != Space::Generic) r.unsupported(opw);
      in.space = Space(v);
    } else if ((v = find(kRnds, m)) >= 0) {
      in.rnd = Rnd(v);
    } else if (m == "ftz") {
      in.ftz = true;
    } else if (m == "sat") {
      in.sat = true;
    } else if (m == "approx") {
      in.approx = true;
    } else if (m == "full") {
      in.approx = false;
    } else if (m == "uni" && (in.op == Op::Bra || in.op == Op::Call || in.op == Op::Ret)) {
      in.uni = true;
    } else if ((m == "lo" || m == "hi" || m == "wide") && !have_mode &&
               (in.op == Op::Mul || in.op == Op::Mad || in.op == Op::Mul24 || in.op == Op::Mad24)) {
      in.mode = uint8_t(m == "lo" ? MulMode::Lo : m == "hi" ? MulMode::Hi : MulMode::Wide);
      have_mode = true;
    } else if ((m == "v2" || m == "v4") && (in.op == Op::Ld || in.op == Op::St)) {
      in.vec = m == "v2" ? 2 : 4;
    } else if ((m == "cv" && in.op == Op::Ld) || (m == "wt" && in.op == Op::St)) {
      // "fetch again" / "write through to system memory": the uncached, system-scope accesses of
      // device code polling and writing another agent's registers (the coherence directory)
      in.sys = true;
    } else if ((m == "ca" || m == "cg" || m == "cs" || m == "lu" || m == "wb" || m == "volatile" || m == "nc") &&
               (in.op == Op::Ld || in.op == Op::St)) {
      // the other cache operators: hints, no effect on values (the memory path models caching)
    } else if (m == "to" && in.op == Op::Cvta) {
      to = true;
    } else if (m == "sync" && in.op == Op::Bar) {
      sync = true;
    } else if (m == "red" && in.op == Op::Bar && !red) {
      red = true;
    } else if (red && in.op == Op::Bar && !have_mode && (m == "popc" || m == "and" || m == "or")) {
      in.mode = uint8_t(m == "popc" ? BarMode::Popc : m == "and" ? BarMode::And : BarMode::Or);
      have_mode = true;
    } else if ((m == "cta" || m == "gl" || m == "sys") && in.op == Op::Membar) {
    } else if (in.op == Op::Shfl && !have_mode && (m == "up" || m == "down" || m == "bfly" || m == "idx")) {
      in.mode = uint8_t(m == "up" ? ShflMode::Up : m == "down" ? ShflMode::Down : m == "bfly" ? ShflMode::Bfly
                                                                                               : ShflMode::Idx);
      have_mode = true;
    } else if (in.op == Op::Vote && !have_mode && (m == "all" || m == "any" || m == "uni" || m == "ballot")) {
      in.mode = uint8_t(m == "all" ? VoteMode::All : m == "any" ? VoteMode::Any : m == "uni" ? VoteMode::Uni
                                                                                              : VoteMode::Ballot);
      have_mode = true;
    } else {
      r.unsupported(opw);
    }
  }
  auto need_types = [&](size_t n) {
    if (types.size() != n) r.unsupported(opw);
  };
  // Operands, per instruction form.
  auto comma = [&] { p.expect(","); };
  const Op op = in.op;
  if (op == Op::Cvt) {
    need_types(2);
    in.type = types[0];
    in.type2 = types[1];
    if (in.type == Ty::Pred || in.type2 == Ty::Pred) r.unsupported(opw);
    // float destinations from floats or ints need a rounding mode unless widening f32->f64
    in.d = r.operand(), comma(), in.a = r.operand();
  } else if (op == Op::Setp || op == Op::Set) {
    if (!have_cmp) r.unsupported(opw);
    if (op == Op::Setp) {
      need_types(1);
      in.type = Ty::Pred;
      in.type2 = types[0];
    } else {
      need_types(2);
      in.type = types[0];
      in.type2 = types[1];
    }
    if (in.type2 == Ty::Pred) r.unsupported(opw);
    in.d = r.operand();
    if (op == Op::Setp && p.accept("|")) in.d2 = r.operand();
    comma(), in.a = r.operand(), comma(), in.b = r.operand();
    if (in.boolop != BoolOp::None) comma(), in.c = r.operand();
  } else if (op == Op::Bra) {
    if (!types.empty()) r.unsupported(opw);
    std::string label(p.word());
    p.fixups_.push_back({uint32_t(p.m_.code.size()), label, line});
  } else if (op == Op::Call) {
    // call[.uni] [(ret),] name[, (args)];
    std::vector<std::pair<std::string_view, unsigned>> rets, args;
    auto list = [&](std::vector<std::pair<std::string_view, unsigned>>& out) {
      p.expect("(");
      if (!p.accept(")")) {
        do out.push_back({p.word(), line});
        while (p.accept(","));
        p.expect(")");
      }
    };
    if (p.peek().text == "(") list(rets), comma();
    std::string callee(p.word());
    if (p.accept(",")) list(args);
    if (rets.size() > 1) p.fail(line, "a call returns at most one value");
    in.extra = uint32_t(p.m_.call_args.size());
    auto frame_param = [&](std::string_view n) -> const Symbol& {
      const Symbol* s = p.lookup_sym(n);
      if (!s || s->kind != SymKind::FrameParam)
        p.fail(line, "call argument '" + std::string(n) + "' is not a .param variable of the caller");
      return *s;
    };
    for (size_t i = 0; i < args.size(); ++i) {
      const Symbol& s = frame_param(args[i].first);
      p.m_.call_args.push_back({uint32_t(s.addr), s.size, uint32_t(i)});
    }
    if (!rets.empty()) {
      const Symbol& s = frame_param(rets[0].first);
      p.m_.call_args.push_back({uint32_t(s.addr), s.size, kNoPc});
    }
    in.c.imm = int64_t(p.m_.call_args.size() - in.extra);
    in.b.imm = int64_t(args.size());
    p.call_fixups_.push_back({uint32_t(p.m_.code.size()), callee, line});
  } else if (op == Op::Ret || op == Op::Exit || op == Op::Trap || op == Op::Membar) {
    if (!types.empty()) r.unsupported(opw);
  } else if (op == Op::Bar && red) {
    // bar.red.popc.u32 d, a{, b}, {!}c  /  bar.red.{and,or}.pred d, a{, b}, {!}c
    if (!have_mode || sync || types.size() != 1 ||
        types[0] != (BarMode(in.mode) == BarMode::Popc ? Ty::U32 : Ty::Pred))
      r.unsupported(opw);
    in.type = types[0];
    in.d = r.operand(), comma(), in.a = r.operand(), comma(), in.c = r.operand();
    if (p.accept(",")) in.b = in.c, in.c = r.operand();
    if (in.b.kind != Operand::None)
      p.fail(line, "bar.red with a thread count is not supported (every thread of the block takes part)");
    if (in.c.kind != Operand::Reg) p.fail(line, "bar.red's operand c must be a predicate register");
    if (in.d.kind != Operand::Reg) p.fail(line, "the destination of '" + std::string(opw) + "' must be a register");
    if (in.a.kind != Operand::Imm || in.a.imm != 0)
      p.fail(line, "only barrier 0 is supported (named barriers are not)");
  } else if (op == Op::Bar) {
    if (!sync && parts[0] == "bar" && parts.size() > 1) r.unsupported(opw);
    if (parts[0] == "barrier" && !sync) r.unsupported(opw);
    in.a = r.operand();
    if (p.accept(",")) in.b = r.operand();
    if (in.a.kind != Operand::Imm || in.a.imm != 0)
      p.fail(line, "only barrier 0 is supported (named barriers are not)");
  } else if (op == Op::Ld || op == Op::St) {
    need_types(1);
    in.type = types[0];
    if (in.type == Ty::Pred) r.unsupported(opw);
    if (op == Op::Ld) {
      in.d = r.operand(), comma(), in.a = r.operand();
      if (in.a.kind != Operand::Addr) p.fail(line, "ld needs an address operand ([...])");
    } else {
      in.a = r.operand(), comma(), in.b = r.operand();
      if (in.a.kind != Operand::Addr) p.fail(line, "st needs an address operand ([...])");
    }
    Operand& v = op == Op::Ld ? in.d : in.b;
    if ((in.vec > 1) != (v.kind == Operand::Vec) || (v.kind == Operand::Vec && v.imm != in.vec))
      p.fail(line, "vector width and operand do not match");
    if (in.space == Space::Param && op == Op::St && in.a.neg && in.a.sym == SymKind::KernelParam)
      p.fail(line, "kernel parameters are read-only");
    if (in.space == Space::Const && op == Op::St) r.unsupported(opw);
  } else if (op == Op::Atom || op == Op::Red) {
    need_types(1);
    in.type = types[0];
    if (!have_atom) r.unsupported(opw);
    if (in.space != Space::Generic && in.space != Space::Global && in.space != Space::Shared) r.unsupported(opw);
    AtomOp aop = AtomOp(in.mode);
    unsigned sz = ty_bytes(in.type);
    switch (in.type) {
      case Ty::U32: in.atype = uint8_t(AtomType::U32); break;
      case Ty::S32: in.atype = uint8_t(AtomType::S32); break;
      case Ty::U64: in.atype = uint8_t(AtomType::U64); break;
      case Ty::S64: in.atype = uint8_t(AtomType::S64); break;
      case Ty::B32: in.atype = uint8_t(AtomType::B32); break;
      case Ty::B64: in.atype = uint8_t(AtomType::B64); break;
      case Ty::F32: in.atype = uint8_t(AtomType::F32); break;
      case Ty::F64: in.atype = uint8_t(AtomType::F64); break;
      default: r.unsupported(opw);
    }
    if (sz != 4 && sz != 8) r.unsupported(opw);
    if (ty_float(in.type) && aop != AtomOp::Add) r.unsupported(opw);
    if (in.type == Ty::F64) r.unsupported(opw);  // atom.add.f64 is sm_60
    if ((aop == AtomOp::Inc || aop == AtomOp::Dec) && in.type != Ty::U32) r.unsupported(opw);
    if (op == Op::Atom) in.d = r.operand(), comma();
    in.a = r.operand(), comma(), in.b = r.operand();
    if (aop == AtomOp::Cas) {
      if (op == Op::Red) r.unsupported(opw);
      comma(), in.c = r.operand();
    }
    if (in.a.kind != Operand::Addr) p.fail(line, "atom needs an address operand ([...])");
  } else if (op == Op::Shfl) {
    need_types(1);
    in.type = types[0];
    if (in.type != Ty::B32 || !have_mode) r.unsupported(opw);
    if (p.m_.target == Arch::Sm20) p.fail(line, "shfl needs sm_30 or later (the module targets sm_20)");
    in.d = r.operand();
    if (p.accept("|")) in.d2 = r.operand();
    comma(), in.a = r.operand(), comma(), in.b = r.operand(), comma(), in.c = r.operand();
  } else if (op == Op::Vote) {
    if (!have_mode) r.unsupported(opw);
    need_types(1);
    in.type = types[0];
    if ((VoteMode(in.mode) == VoteMode::Ballot) != (in.type == Ty::B32)) r.unsupported(opw);
    if (VoteMode(in.mode) != VoteMode::Ballot && in.type != Ty::Pred) r.unsupported(opw);
    in.d = r.operand(), comma(), in.a = r.operand();
  } else if (op == Op::Cvta) {
    need_types(1);
    in.type = types[0];
    in.mode = to;
    if (in.space == Space::Generic || in.space == Space::Param || (in.type != Ty::U64 && in.type != Ty::B64))
      r.unsupported(opw);
    in.d = r.operand(), comma(), in.a = r.operand();
  } else {
    need_types(1);
    in.type = types[0];
    const Ty t = in.type;
    unsigned nsrc;
    switch (op) {
      case Op::Mov: case Op::Abs: case Op::Neg: case Op::Not: case Op::Cnot: case Op::Popc: case Op::Clz:
      case Op::Brev: case Op::Sqrt: case Op::Rcp: case Op::Rsqrt: case Op::Ex2: case Op::Lg2: case Op::Sin:
      case Op::Cos:
        nsrc = 1;
        break;
      case Op::Mad: case Op::Mad24: case Op::Fma: case Op::Bfe: case Op::Selp: case Op::Slct: case Op::Prmt:
      case Op::Sad:
        nsrc = 3;
        break;
      case Op::Bfi: nsrc = 4; break;
      default: nsrc = 2;
    }
    // Type checks per family.
    bool ok = true;
    switch (op) {
      case Op::Add: case Op::Sub: case Op::Min: case Op::Max: case Op::Abs: case Op::Neg: case Op::Mul:
      case Op::Mad: case Op::Div:
        ok = t != Ty::Pred && t != Ty::B8 && t != Ty::U8 && t != Ty::S8;
        if (ok && !ty_float(t) && (op == Op::Add || op == Op::Sub) && (t == Ty::B16 || t == Ty::B32 || t == Ty::B64))
          ok = false;
        if (op == Op::Mad && ty_float(t) && in.rnd == Rnd::None && t == Ty::F64) ok = false;
        break;
      case Op::Rem: case Op::Sad: ok = is_int(t) && ty_bytes(t) >= 2; break;
      case Op::Mul24: case Op::Mad24: ok = t == Ty::U32 || t == Ty::S32; break;
      case Op::And: case Op::Or: case Op::Xor: case Op::Not:
        ok = t == Ty::Pred || t == Ty::B16 || t == Ty::B32 || t == Ty::B64;
        break;
      case Op::Cnot: case Op::Popc: case Op::Clz: case Op::Brev: ok = t == Ty::B32 || t == Ty::B64 || (op == Op::Cnot && t == Ty::B16); break;
      case Op::Shl: ok = t == Ty::B16 || t == Ty::B32 || t == Ty::B64; break;
      case Op::Shr: ok = is_int(t) && ty_bytes(t) >= 2; break;
      case Op::Bfe: ok = t == Ty::U32 || t == Ty::S32 || t == Ty::U64 || t == Ty::S64; break;
      case Op::Bfi: ok = t == Ty::B32 || t == Ty::B64; break;
      case Op::Prmt: ok = t == Ty::B32; break;
      case Op::Fma: case Op::Sqrt: case Op::Rcp: case Op::Rsqrt: case Op::Copysign: ok = ty_float(t); break;
      case Op::Ex2: case Op::Lg2: case Op::Sin: case Op::Cos: ok = t == Ty::F32 && in.approx; break;
      case Op::Selp: ok = t != Ty::Pred && ty_bytes(t) >= 2; break;
      case Op::Slct: ok = false; break;  // slct.dtype.stype: two types
      case Op::Mov: ok = true; break;
      default: ok = false;
    }
    if (op == Op::Rsqrt && !in.approx) ok = false;
    if (op == Op::Rcp && t == Ty::F64 && in.approx && !in.ftz) ok = false;
    if (ty_float(t) && (op == Op::Div || op == Op::Sqrt || op == Op::Rcp) && !in.approx && in.rnd == Rnd::None &&
        t == Ty::F32 && op != Op::Div)
      ok = false;
    if (!ok) r.unsupported(opw);
    in.d = r.operand();
    comma(), in.a = r.operand();
    if (nsrc >= 2) comma(), in.b = r.operand();
    if (nsrc >= 3) comma(), in.c = r.operand();
    if (nsrc >= 4) comma(), in.d2 = r.operand();
  }
  p.expect(";");
  // Operand sanity: destinations are registers (or vectors of them).
  auto dest_ok = [](const Operand& o) { return o.kind == Operand::Reg || o.kind == Operand::Vec; };
  if (op != Op::St && op != Op::Red && op != Op::Bra && op != Op::Call && op != Op::Ret && op != Op::Exit &&
      op != Op::Trap && op != Op::Bar && op != Op::Membar && !dest_ok(in.d))
    p.fail(line, "the destination of '" + std::string(opw) + "' must be a register");
  if (in.d.kind == Operand::Vec && op != Op::Ld && op != Op::Mov) p.fail(line, "vector destination not allowed");
  // Vector register lists go to the module's pool.
  for (Operand* o : {&in.d, &in.b}) {
    if (o->kind == Operand::Vec) {
      uint32_t base = uint32_t(p.m_.vec_regs.size());
      for (int64_t i = 0; i < o->imm; ++i) p.m_.vec_regs.push_back(r.vec_[o->reg + i]);
      o->reg = base;
    }
  }
  if (in.a.kind == Operand::Vec) {
    uint32_t base = uint32_t(p.m_.vec_regs.size());
    for (int64_t i = 0; i < in.a.imm; ++i) p.m_.vec_regs.push_back(r.vec_[in.a.reg + i]);
    in.a.reg = base;
  }
  in.cls = classify(in);
  p.m_.code.push_back(in);
}

}  // namespace hetvp::gpu::ptx::detail
