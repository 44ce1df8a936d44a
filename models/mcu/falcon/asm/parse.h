// hetvp — the Falcon assembler's reader (internal to models/mcu/falcon/asm/): preprocessed text to
// statements (labels, directives, instructions with their operands), located by cpp's line markers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hetvp::mcu::falcon::as {

struct Loc {
  std::shared_ptr<const std::string> file;
  unsigned line = 0;
  std::string str() const { return *file + ":" + std::to_string(line); }
};

struct Expr;
using ExprP = std::shared_ptr<const Expr>;
struct Expr {
  enum Op { Num, Sym, Reg, Neg, Not, LNot, Add, Sub, Mul, Div, Mod, Shl, Shr, And, Or, Xor, LAnd, LOr } op = Num;
  uint64_t num = 0;  // Num: the value; Reg: the register (16 = $sp)
  std::string name;  // Sym: the symbol, without '#'
  ExprP a, b;
};
ExprP make_expr(Expr::Op op, ExprP a, ExprP b = nullptr);

// One operand as written.
struct Item {
  enum Type { Word, Reg, Special, Value, Mem, Vec } type = Word;
  std::string text;  // Word: the word; Special: the name after '$'
  int reg = -1;      // Reg: $rN
  ExprP e, e2;       // Value: e; Vec (lo:hi): e, e2; Mem: the address expression in e
  char space = 0;    // Mem: 'D' or 'I'
  std::string show() const;  // for messages
};

struct Stmt {
  enum Type { Label, Directive, Insn } type = Insn;
  Loc loc;
  std::string name;         // the label, the directive (without '.'), the mnemonic
  std::vector<Item> items;  // Insn: operands
  std::vector<ExprP> args;  // Directive: arguments
};

// Throws AsmError "FILE:LINE: ..." for text it cannot read (an unknown mnemonic among them).
std::vector<Stmt> parse(const std::string& text, const std::string& name);

}  // namespace hetvp::mcu::falcon::as
