// The PTX loader's parser (internal): tokens, the parser's state, and the split between the module
// level (parse_module.cpp: directives, variables, functions) and instructions (parse_instr.cpp).
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/gpu/compute/ptx/ir.h"

namespace hetvp::gpu::ptx::detail {

struct Token {
  enum Kind : uint8_t { Word, Punct, String, End };
  Kind kind = End;
  std::string_view text;
  unsigned line = 0;
};

// Splits PTX text into words (identifiers, directives, opcodes with their modifiers, numbers),
// punctuation and strings; drops comments. Throws LoadError on a stray character.
std::vector<Token> tokenize(std::string_view text, const std::string& file);

// A symbol visible in a function body.
struct Symbol {
  SymKind kind;
  uint32_t index = 0;   // GlobalVar: variable index
  int64_t addr = 0;     // resolved address (relative to the function's frame/local base where relevant)
  uint32_t size = 0;
};

class Parser {
 public:
  Parser(std::string_view text, const std::string& file, ModuleImpl& m);
  void parse_module();

  // (the rest is the parser's state, shared with parse_instr.cpp)
  // tokens
  const Token& peek(size_t ahead = 0) const;
  const Token& next();
  bool accept(std::string_view text);
  void expect(std::string_view text);
  std::string_view word();                         // the next token, which must be a word
  [[noreturn]] void fail(unsigned line, const std::string& why) const;
  [[noreturn]] void fail(const std::string& why) const { fail(peek().line, why); }
  uint64_t number(const Token& t) const;          // integer literal
  // module level
  void parse_variable(VarSpace space, bool is_extern, unsigned line);
  void parse_function(bool is_kernel, bool is_extern, unsigned line);
  void parse_params(Function& f, bool is_kernel, bool is_return);
  void parse_body(Function& f);
  void parse_local_decl(Function& f, std::string_view space, unsigned line);
  void parse_reg_decl(Function& f);
  void skip_line(unsigned line);
  Ty parse_type(std::string_view w, unsigned line) const;
  // registers and symbols in scope
  uint32_t lookup_reg(std::string_view name, unsigned line) const;
  bool find_reg(std::string_view name, uint32_t& slot) const;  // registers may be named without '%'
  const Symbol* lookup_sym(std::string_view name) const;

  std::vector<Token> toks_;
  size_t pos_ = 0;
  const std::string& file_;
  ModuleImpl& m_;
  std::unordered_map<std::string, Symbol> module_syms_;
  std::unordered_map<std::string, unsigned> func_index_;   // declared or defined functions
  std::vector<bool> func_defined_;
  // the function being parsed
  std::vector<std::unordered_map<std::string, uint32_t>> reg_scopes_;
  std::vector<std::unordered_map<std::string, Symbol>> sym_scopes_;
  std::unordered_map<std::string, uint32_t> labels_;
  struct Fixup {
    uint32_t pc;
    std::string label;
    unsigned line;
  };
  std::vector<Fixup> fixups_;
  struct CallFixup {
    uint32_t pc;
    std::string callee;
    unsigned line;
  };
  std::vector<CallFixup> call_fixups_;
};

// Parses one instruction statement starting at the parser's position (guard already consumed) and
// appends it to the module's code.
void parse_instruction(Parser& p, Function& f, uint32_t guard, bool guard_neg, unsigned line);

// Link step (link.cpp): call graph, frames and register bases, control-flow graph, reconvergence
// points (immediate post-dominators), register liveness; fills the FunctionInfo lists.
void link_module(ModuleImpl& m);

}  // namespace hetvp::gpu::ptx::detail
