// PTX loader, link step: the call graph (no recursion: every function's registers, local memory and
// parameter frame get a fixed place after its callers'), relocation of operands to those places, the
// control-flow graph of each function and the reconvergence point of every branch (its immediate
// post-dominator), and register liveness for the registers-per-thread figure.
#include <algorithm>
#include <functional>

#include "models/gpu/compute/ptx/parse.h"

namespace hetvp::gpu::ptx::detail {

namespace {

uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

[[noreturn]] void fail(const ModuleImpl& m, unsigned line, const std::string& why) { throw LoadError(m.file, line, why); }

bool is_branch_like(const Instr& in) {
  return in.op == Op::Bra || in.op == Op::Exit || in.op == Op::Trap || in.op == Op::FuncEnd;
}

// Basic blocks of one function and their successors; node `n` (= blocks) is the virtual exit.
struct Cfg {
  std::vector<uint32_t> start;               // first pc of each block
  std::vector<std::vector<uint32_t>> succ, pred;
  std::vector<uint32_t> block_of;            // pc - first_pc -> block
};

Cfg build_cfg(const ModuleImpl& m, const Function& f) {
  Cfg g;
  const uint32_t n = f.end_pc - f.first_pc;
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (uint32_t pc = f.first_pc; pc < f.end_pc; ++pc) {
    const Instr& in = m.code[pc];
    if (in.op == Op::Bra) leader[in.target - f.first_pc] = true;
    if (is_branch_like(in)) leader[pc + 1 - f.first_pc] = true;
  }
  g.block_of.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    if (leader[i]) g.start.push_back(f.first_pc + i);
    g.block_of[i] = uint32_t(g.start.size() - 1);
  }
  const uint32_t nb = uint32_t(g.start.size()), exit = nb;
  g.succ.resize(nb + 1);
  g.pred.resize(nb + 1);
  for (uint32_t b = 0; b < nb; ++b) {
    uint32_t last = (b + 1 < nb ? g.start[b + 1] : f.end_pc) - 1;
    const Instr& in = m.code[last];
    auto add = [&](uint32_t s) {
      if (std::find(g.succ[b].begin(), g.succ[b].end(), s) == g.succ[b].end()) {
        g.succ[b].push_back(s);
        g.pred[s].push_back(b);
      }
    };
    bool guarded = in.pred != kNoReg;
    if (in.op == Op::Bra) {
      add(g.block_of[in.target - f.first_pc]);
      if (guarded) add(b + 1 < nb ? b + 1 : exit);
    } else if (in.op == Op::Exit || in.op == Op::Trap || in.op == Op::FuncEnd) {
      add(exit);
      if (guarded && in.op != Op::FuncEnd) add(b + 1 < nb ? b + 1 : exit);
    } else {
      add(b + 1 < nb ? b + 1 : exit);
    }
  }
  return g;
}

// Immediate post-dominators (Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm", 2001,
// on the reversed graph). Blocks that cannot reach the exit (endless loops) get the exit.
std::vector<uint32_t> ipdoms(const Cfg& g) {
  const uint32_t nb = uint32_t(g.start.size()), exit = nb, none = 0xffffffffu;
  std::vector<uint32_t> order, rpo_index(nb + 1, none);
  std::vector<uint8_t> seen(nb + 1, 0);
  // iterative DFS from the exit over predecessors (the reversed graph's successors): postorder
  std::vector<std::pair<uint32_t, size_t>> stack{{exit, 0}};
  seen[exit] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < g.pred[v].size()) {
      uint32_t w = g.pred[v][i++];
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back({w, 0});
      }
    } else {
      order.push_back(v);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());  // reverse postorder, exit first
  for (uint32_t i = 0; i < order.size(); ++i) rpo_index[order[i]] = i;
  std::vector<uint32_t> idom(nb + 1, none);
  idom[exit] = exit;
  auto intersect = [&](uint32_t a, uint32_t b) {
    while (a != b) {
      while (rpo_index[a] > rpo_index[b]) a = idom[a];
      while (rpo_index[b] > rpo_index[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 1; i < order.size(); ++i) {
      uint32_t v = order[i], nd = none;
      for (uint32_t s : g.succ[v])
        if (idom[s] != none) nd = nd == none ? s : intersect(s, nd);
      if (nd != idom[v]) idom[v] = nd, changed = true;
    }
  }
  for (uint32_t b = 0; b < nb; ++b)
    if (idom[b] == none) idom[b] = exit;
  return idom;
}

// Registers used / defined by an instruction (slots local to the function, before relocation).
template <class F>
void for_regs(const ModuleImpl& m, const Instr& in, bool defs, F f) {
  auto vec = [&](const Operand& o) {
    for (int64_t i = 0; i < o.imm; ++i) f(m.vec_regs[o.reg + uint32_t(i)]);
  };
  auto use = [&](const Operand& o) {
    if (o.kind == Operand::Reg) f(o.reg);
    else if (o.kind == Operand::Addr && !o.neg && o.reg != kNoReg) f(o.reg);
    else if (o.kind == Operand::Vec) vec(o);
  };
  if (defs) {
    if (in.d.kind == Operand::Reg) f(in.d.reg);
    else if (in.d.kind == Operand::Vec) vec(in.d);
    if ((in.op == Op::Setp || in.op == Op::Shfl) && in.d2.kind == Operand::Reg) f(in.d2.reg);
    return;
  }
  if (in.pred != kNoReg) f(in.pred);
  use(in.a), use(in.b), use(in.c);
  if (in.op == Op::Bfi) use(in.d2);
  if (in.d.kind == Operand::Addr) use(in.d);
}

// The most 32-bit registers live at once in `f` (64-bit registers count 2).
uint32_t max_live(const ModuleImpl& m, const Function& f, const Cfg& g) {
  const uint32_t nb = uint32_t(g.start.size()), words = (f.nregs + 63) / 64;
  if (uint64_t(nb) * words > (uint64_t(1) << 24)) return f.nregs;  // too big to analyse: the declared count
  std::vector<std::vector<uint64_t>> live_in(nb + 1, std::vector<uint64_t>(words, 0));
  auto block_end = [&](uint32_t b) { return b + 1 < nb ? g.start[b + 1] : f.end_pc; };
  auto step = [&](std::vector<uint64_t>& live, const Instr& in) {
    if (in.pred == kNoReg)
      for_regs(m, in, true, [&](uint32_t r) { live[r / 64] &= ~(uint64_t(1) << (r % 64)); });
    for_regs(m, in, false, [&](uint32_t r) { live[r / 64] |= uint64_t(1) << (r % 64); });
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = nb; b-- > 0;) {
      std::vector<uint64_t> live(words, 0);
      for (uint32_t s : g.succ[b])
        for (uint32_t w = 0; w < words; ++w) live[w] |= live_in[s][w];
      for (uint32_t pc = block_end(b); pc-- > g.start[b];) step(live, m.code[pc]);
      if (live != live_in[b]) live_in[b] = std::move(live), changed = true;
    }
  }
  uint32_t best = 0;
  auto count = [&](const std::vector<uint64_t>& live) {
    uint32_t c = 0;
    for (uint32_t w = 0; w < words; ++w)
      for (uint64_t x = live[w]; x; x &= x - 1) c += 1 + f.reg_wide[w * 64 + uint32_t(__builtin_ctzll(x))];
    return c;
  };
  for (uint32_t b = 0; b < nb; ++b) {
    std::vector<uint64_t> live(words, 0);
    for (uint32_t s : g.succ[b])
      for (uint32_t w = 0; w < words; ++w) live[w] |= live_in[s][w];
    best = std::max(best, count(live));
    for (uint32_t pc = block_end(b); pc-- > g.start[b];) {
      const Instr& in = m.code[pc];
      // live across the instruction: what it defines plus what stays live
      uint32_t defs = 0;
      for_regs(m, in, true, [&](uint32_t r) { defs += 1 + f.reg_wide[r]; });
      best = std::max(best, count(live) + defs);
      step(live, in);
      best = std::max(best, count(live));
    }
  }
  return std::max<uint32_t>(best, 1);
}

void relocate(ModuleImpl& m, Function& f, const std::vector<Function>& funcs) {
  auto fix = [&](Operand& o) {
    if (o.kind == Operand::Reg) o.reg += f.reg_base;
    else if (o.kind == Operand::Addr && !o.neg && o.reg != kNoReg) o.reg += f.reg_base;
    else if (o.kind == Operand::Vec)
      for (int64_t i = 0; i < o.imm; ++i) m.vec_regs[o.reg + uint32_t(i)] += f.reg_base;
    if (o.kind == Operand::Sym || (o.kind == Operand::Addr && o.neg)) {
      if (o.sym == SymKind::LocalVar) o.imm += f.local_base;
      else if (o.sym == SymKind::FrameParam) o.imm += f.frame_base;
      else if (o.sym == SymKind::DynShared) {
        o.sym = SymKind::SharedVar;
        o.imm += f.info.is_kernel && !m.dyn_shared_in_funcs ? align_up(f.info.shared_bytes, 16) : m.dyn_shared_base;
      }
    }
  };
  for (uint32_t pc = f.first_pc; pc < f.end_pc; ++pc) {
    Instr& in = m.code[pc];
    if (in.pred != kNoReg) in.pred += f.reg_base;
    fix(in.d), fix(in.d2), fix(in.a), fix(in.b), fix(in.c);
    if (in.op == Op::Call) {
      const Function& callee = funcs[in.target];
      const uint32_t nargs = uint32_t(in.b.imm), ncopies = uint32_t(in.c.imm);
      if (nargs != callee.param_offsets.size())
        fail(m, in.line, "call to '" + callee.info.name + "' with " + std::to_string(nargs) + " arguments, it takes " +
                             std::to_string(callee.param_offsets.size()));
      bool has_ret = ncopies > nargs;
      if (has_ret != (callee.ret_offset != kNoPc) && has_ret)
        fail(m, in.line, "call to '" + callee.info.name + "' expects a return value it does not give");
      for (uint32_t i = 0; i < ncopies; ++i) {
        CallArgs& a = m.call_args[in.extra + i];
        a.caller_offset += f.frame_base;
        if (a.callee_offset == kNoPc) {
          if (a.size < callee.ret_size) fail(m, in.line, "return value parameter too small");
          a.size = callee.ret_size;
          a.callee_offset = callee.frame_base + callee.ret_offset;
        } else {
          uint32_t want = callee.param_sizes[a.callee_offset];
          if (a.size != want)
            fail(m, in.line, "argument " + std::to_string(a.callee_offset) + " of the call to '" + callee.info.name +
                                 "' has " + std::to_string(a.size) + " bytes, the parameter " + std::to_string(want));
          a.callee_offset = callee.frame_base + callee.param_offsets[a.callee_offset];
        }
      }
    }
  }
}

}  // namespace

void link_module(ModuleImpl& m) {
  auto& funcs = m.funcs;
  // Call graph; recursion is refused (frames are static). Every return of a device function branches
  // to the function's end (FuncEnd), where divergent paths reconverge before returning.
  for (auto& f : funcs)
    for (uint32_t pc = f.first_pc; pc < f.end_pc; ++pc) {
      if (m.code[pc].op == Op::Ret && f.info.is_kernel) {
        m.code[pc].op = Op::Exit;  // a kernel's threads end at once (they do not wait for the others)
      } else if (m.code[pc].op == Op::Ret) {
        m.code[pc].op = Op::Bra;
        m.code[pc].target = f.end_pc - 1;
      }
      if (m.code[pc].op == Op::Call && std::find(f.callees.begin(), f.callees.end(), m.code[pc].target) == f.callees.end())
        f.callees.push_back(m.code[pc].target);
    }
  std::vector<uint8_t> state(funcs.size(), 0);  // 0 new, 1 on the DFS stack, 2 done
  std::vector<uint32_t> topo;
  std::function<void(uint32_t)> visit = [&](uint32_t v) {
    state[v] = 1;
    for (uint32_t w : funcs[v].callees) {
      if (state[w] == 1) {
        unsigned line = funcs[v].info.line;
        for (uint32_t pc = funcs[v].first_pc; pc < funcs[v].end_pc; ++pc)
          if (m.code[pc].op == Op::Call && m.code[pc].target == w) line = m.code[pc].line;
        fail(m, line, "recursion ('" + funcs[v].info.name + "' calls '" + funcs[w].info.name +
                          "', which is on its call path) is not supported");
      }
      if (state[w] == 0) visit(w);
    }
    state[v] = 2;
    topo.push_back(v);
  };
  for (uint32_t v = 0; v < funcs.size(); ++v)
    if (state[v] == 0 && funcs[v].info.is_kernel) visit(v);
  for (uint32_t v = 0; v < funcs.size(); ++v)
    if (state[v] == 0) visit(v);
  std::reverse(topo.begin(), topo.end());  // callers before callees
  for (uint32_t v : topo)
    for (uint32_t w : funcs[v].callees) {
      Function& c = funcs[w];
      c.reg_base = std::max(c.reg_base, funcs[v].reg_base + funcs[v].nregs);
      c.local_base = std::max(c.local_base, align_up(funcs[v].local_base + funcs[v].local_own, 16));
      c.frame_base = std::max(c.frame_base, align_up(funcs[v].frame_base + funcs[v].frame_own, 16));
    }
  // Liveness and reconvergence points (on function-local slots, before relocation).
  std::vector<uint32_t> own_live(funcs.size(), 0);
  for (uint32_t v = 0; v < funcs.size(); ++v) {
    Function& f = funcs[v];
    if (f.end_pc == f.first_pc) continue;  // a prototype: no body
    Cfg g = build_cfg(m, f);
    std::vector<uint32_t> ip = ipdoms(g);
    const uint32_t nb = uint32_t(g.start.size());
    for (uint32_t b = 0; b < nb; ++b) {
      uint32_t last = (b + 1 < nb ? g.start[b + 1] : f.end_pc) - 1;
      Instr& in = m.code[last];
      if (in.op == Op::Bra) in.rpc = ip[b] == nb ? f.end_pc - 1 : g.start[ip[b]];
    }
    own_live[v] = max_live(m, f, g);
  }
  // Needs of each function with its callees (callees first).
  for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
    Function& f = funcs[*it];
    f.max_slots = f.reg_base + f.nregs;
    f.max_local = f.local_base + f.local_own;
    f.max_frame = f.frame_base + f.frame_own;
    uint32_t callee_regs = 0;
    for (uint32_t w : f.callees) {
      f.max_slots = std::max(f.max_slots, funcs[w].max_slots);
      f.max_local = std::max(f.max_local, funcs[w].max_local);
      f.max_frame = std::max(f.max_frame, funcs[w].max_frame);
      callee_regs = std::max(callee_regs, funcs[w].info.regs_per_thread);
    }
    f.info.regs_per_thread = own_live[*it] + callee_regs;
  }
  // Dynamic shared memory (`extern __shared__`) starts after the largest static area of the module's
  // kernels, so device functions address it the same way from every kernel.
  // A kernel alone uses its own static size as the base; if a device function uses the dynamic area,
  // every kernel uses the module-wide base.
  for (auto& f : funcs) {
    if (f.info.is_kernel) {
      f.info.shared_bytes = std::max(f.info.shared_bytes, m.module_shared_bytes);
      m.dyn_shared_base = std::max(m.dyn_shared_base, align_up(f.info.shared_bytes, 16));
    } else {
      for (uint32_t pc = f.first_pc; pc < f.end_pc; ++pc)
        for (const Operand* o : {&m.code[pc].a, &m.code[pc].b, &m.code[pc].c, &m.code[pc].d})
          if ((o->kind == Operand::Sym || (o->kind == Operand::Addr && o->neg)) && o->sym == SymKind::DynShared)
            m.dyn_shared_in_funcs = true;
    }
  }
  for (auto& f : funcs) {
    if (f.end_pc == f.first_pc) continue;  // declared, never defined nor called
    relocate(m, f, funcs);
    f.info.local_bytes = align_up(f.max_local, 8);
    f.info.code_offset = f.first_pc * kBytesPerInstr;
    f.info.instr_count = f.end_pc - f.first_pc;
    if (f.info.is_kernel) {
      f.info.param_bytes = align_up(f.info.param_bytes, 8);
      m.kernel_funcs.push_back(uint32_t(&f - funcs.data()));
      m.kernels.push_back(f.info);
    } else {
      m.functions.push_back(f.info);
    }
  }
}

}  // namespace hetvp::gpu::ptx::detail
