// The SIMT executor: warps of one block, the reconvergence stack, calls, barriers, special registers
// and the public BlockExec API. Memory instructions: exec_mem.cpp; arithmetic: exec_alu.cpp.
#include <algorithm>
#include <cstdio>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "models/gpu/compute/ptx/exec_impl.h"

namespace hetvp::gpu::ptx {

namespace detail {

namespace {
const Function& kernel_of(const Launch& l) {
  const ModuleImpl& m = l.module->impl();
  if (l.kernel >= m.kernel_funcs.size())
    throw ExecError("launch of kernel #" + std::to_string(l.kernel) + ": the module '" + m.file + "' has " +
                    std::to_string(m.kernel_funcs.size()) + " kernels");
  return m.funcs[m.kernel_funcs[l.kernel]];
}
}  // namespace

BlockState::BlockState(const Launch& l, Env& e)
    : launch(l), env(e), m(l.module->impl()), k(kernel_of(l)), code(m.code.data()) {
  const std::string kn = "kernel '" + k.info.name + "'";
  if (launch.block.count() == 0 || launch.block.count() > 1024)
    throw ExecError(kn + ": block of " + std::to_string(launch.block.count()) + " threads (1 to 1024)");
  if (launch.grid.count() == 0) throw ExecError(kn + ": empty grid");
  if (launch.params.size() < k.info.param_bytes)
    throw ExecError(kn + ": parameter buffer of " + std::to_string(launch.params.size()) + " bytes, the kernel takes " +
                    std::to_string(k.info.param_bytes));
  nthreads = uint32_t(launch.block.count());
  nwarps = (nthreads + kWarpLanes - 1) / kWarpLanes;
  slots = std::max<uint32_t>(k.max_slots, 1);
  frame_bytes = (k.max_frame + 7) / 8 * 8;
  local_bytes = k.info.local_bytes;
  const uint32_t dyn_base = m.dyn_shared_in_funcs ? m.dyn_shared_base : (k.info.shared_bytes + 15) / 16 * 16;
  uint64_t sh = launch.dynamic_shared_bytes ? uint64_t(dyn_base) + launch.dynamic_shared_bytes
                                             : uint64_t(k.info.shared_bytes);
  if (sh > (uint64_t(1) << 24)) throw ExecError(kn + ": " + std::to_string(sh) + " bytes of shared memory");
  shared_bytes = uint32_t(sh);
  regs.assign(size_t(slots) * kWarpLanes * nwarps, 0);
  frames.assign(size_t(frame_bytes) * kWarpLanes * nwarps, 0);
  shared.assign(shared_bytes, 0);
  warps.resize(nwarps);
  for (unsigned w = 0; w < nwarps; ++w) {
    warps[w].regs = regs.data() + size_t(w) * slots * kWarpLanes;
    warps[w].frame = frames.data() + size_t(w) * frame_bytes * kWarpLanes;
  }
  var_addr.assign(m.variables.size(), 0);
  for (size_t i = 0; i < m.variables.size() && i < launch.variable_addresses.size(); ++i)
    var_addr[i] = launch.variable_addresses[i];
  cbank[0] = launch.const_bank0.empty() ? m.const_bank0 : launch.const_bank0;
  cbank[1] = launch.const_bank1;
  const size_t n = m.code.size();
  fast.resize(n);
  cls.resize(n);
  run_len.assign(n, 0);
  for (size_t i = 0; i < n; ++i) {
    fast[i] = launch.general_path_only ? nullptr : fast_handler(m.code[i]);
    cls[i] = m.code[i].cls;
  }
  for (size_t i = n; i-- > 0 && !launch.general_path_only;) {
    if (m.code[i].op == Op::Bra) run_len[i] = 1;
    else if (fast[i]) run_len[i] = 1 + (i + 1 < n ? run_len[i + 1] : 0);
  }
}

Dim3 BlockState::thread_of(unsigned warp, unsigned lane) const {
  uint32_t t = warp * kWarpLanes + lane;
  return {t % launch.block.x, t / launch.block.x % launch.block.y, t / (launch.block.x * launch.block.y)};
}

std::string BlockState::where(unsigned warp, uint32_t lanes) const {
  char b[96];
  std::snprintf(b, sizeof b, "kernel '%s' block (%u,%u,%u) ", k.info.name.c_str(), bidx.x, bidx.y, bidx.z);
  std::string s = b;
  unsigned n = unsigned(__builtin_popcount(lanes)), shown = 0;
  s += n == 1 ? "thread " : "threads ";
  for (uint32_t r = lanes; r && shown < 4; r &= r - 1, ++shown) {
    Dim3 t = thread_of(warp, unsigned(__builtin_ctz(r)));
    std::snprintf(b, sizeof b, "%s(%u,%u,%u)", shown ? ", " : "", t.x, t.y, t.z);
    s += b;
  }
  if (n > shown) s += " and " + std::to_string(n - shown) + " more";
  return s;
}

void BlockState::fail(const Instr& in, uint32_t lanes, const std::string& what) const {
  throw ExecError(where(cur_warp, lanes) + ": " + what + " (" + m.file + ":" + std::to_string(in.line) + ")");
}

uint32_t BlockState::pred_mask(uint32_t slot, bool neg, const WarpCtx& W) const {
  const uint64_t* p = W.regs + size_t(slot) * kWarpLanes;
  uint32_t r = 0;
  for (unsigned l = 0; l < kWarpLanes; ++l) r |= uint32_t(p[l] != 0) << l;
  return neg ? ~r : r;
}

uint32_t BlockState::guard_mask(uint32_t slot, bool neg, const WarpCtx& W, uint32_t active) const {
  const uint64_t* p = W.regs + size_t(slot) * kWarpLanes;
  uint32_t r = 0;
  if (active == 0xffffffffu) {
#ifdef __SSE2__
    // Four lanes per step: a 64-bit value is zero when both its 32-bit halves are.
    const __m128i zero = _mm_setzero_si128();
    for (unsigned l = 0; l < kWarpLanes; l += 4) {
      const __m128 e0 = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + l)), zero));
      const __m128 e1 = _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + l + 2)), zero));
      const __m128 lo = _mm_shuffle_ps(e0, e1, _MM_SHUFFLE(2, 0, 2, 0)), hi = _mm_shuffle_ps(e0, e1, _MM_SHUFFLE(3, 1, 3, 1));
      r |= uint32_t(~_mm_movemask_ps(_mm_and_ps(lo, hi)) & 0xf) << l;
    }
#else
    for (unsigned l = 0; l < kWarpLanes; ++l) r |= uint32_t(p[l] != 0) << l;
#endif
  } else {
    for (uint32_t a = active; a; a &= a - 1) {
      const unsigned l = unsigned(__builtin_ctz(a));
      r |= uint32_t(p[l] != 0) << l;
    }
  }
  return (neg ? ~r : r) & active;
}

uint64_t BlockState::sym_value(const Operand& o) const {
  return o.sym == SymKind::GlobalVar ? var_addr[o.reg] + uint64_t(o.imm) : uint64_t(o.imm);
}

uint64_t BlockState::sreg(Sreg s, unsigned warp, unsigned lane) {
  const Dim3& b = launch.block;
  uint32_t t = warp * kWarpLanes + lane;
  switch (s) {
    case Sreg::TidX: return t % b.x;
    case Sreg::TidY: return t / b.x % b.y;
    case Sreg::TidZ: return t / (b.x * b.y);
    case Sreg::NtidX: return b.x;
    case Sreg::NtidY: return b.y;
    case Sreg::NtidZ: return b.z;
    case Sreg::CtaidX: return bidx.x;
    case Sreg::CtaidY: return bidx.y;
    case Sreg::CtaidZ: return bidx.z;
    case Sreg::NctaidX: return launch.grid.x;
    case Sreg::NctaidY: return launch.grid.y;
    case Sreg::NctaidZ: return launch.grid.z;
    case Sreg::LaneId: return lane;
    case Sreg::WarpId: return warp;
    case Sreg::NWarpId: return nwarps;
    case Sreg::SmId: return launch.sm_id;
    case Sreg::NSmId: return launch.sm_id + 1;
    case Sreg::GridId: return 0;
    case Sreg::Clock: return uint32_t(env.clock());
    case Sreg::Clock64: return env.clock();
    case Sreg::LanemaskEq: return uint32_t(1) << lane;
    case Sreg::LanemaskLe: return uint32_t((uint64_t(2) << lane) - 1);
    case Sreg::LanemaskLt: return (uint32_t(1) << lane) - 1;
    case Sreg::LanemaskGe: return ~((uint32_t(1) << lane) - 1);
    case Sreg::LanemaskGt: return ~uint32_t((uint64_t(2) << lane) - 1);
  }
  return 0;
}

const uint64_t* BlockState::src(const Operand& o, WarpCtx& W, uint64_t* tmp) {
  switch (o.kind) {
    case Operand::Reg:
      if (!o.neg) return W.regs + size_t(o.reg) * kWarpLanes;
      for (unsigned l = 0; l < kWarpLanes; ++l) tmp[l] = W.regs[size_t(o.reg) * kWarpLanes + l] == 0;
      return tmp;
    case Operand::Imm:
      std::fill(tmp, tmp + kWarpLanes, uint64_t(o.imm));
      return tmp;
    case Operand::Sym:
      std::fill(tmp, tmp + kWarpLanes, sym_value(o));
      return tmp;
    case Operand::Sreg: {
      const unsigned w = unsigned(&W - warps.data());
      const Sreg r = Sreg(o.reg);
      if (r == Sreg::TidX || r == Sreg::TidY || r == Sreg::TidZ || r == Sreg::LaneId || r >= Sreg::LanemaskEq) {
        for (unsigned l = 0; l < kWarpLanes; ++l) tmp[l] = sreg(r, w, l);
      } else {  // the same for the whole warp
        std::fill(tmp, tmp + kWarpLanes, sreg(r, w, 0));
      }
      return tmp;
    }
    default:
      std::fill(tmp, tmp + kWarpLanes, 0);
      return tmp;
  }
}

void BlockState::exit_lanes(WarpCtx& W, uint32_t lanes) {
  lanes &= W.live;
  exited_threads += lane_count(lanes);
  W.live &= ~lanes;
  for (auto& e : W.stack) e.mask &= ~lanes;
}

// A barrier completes when every live warp waits at it; threads that exited never arrive.
void BlockState::check_barrier() {
  unsigned waiting = 0, live = 0;
  for (auto& w : warps) {
    if (w.state == BlockExec::WarpState::Exited) continue;
    ++live;
    if (w.state == BlockExec::WarpState::AtBarrier) ++waiting;
  }
  if (!live || waiting != live) return;
  if (exited_threads) {
    std::string who;
    for (unsigned w = 0; w < nwarps && who.empty(); ++w) {
      uint32_t exists = w + 1 < nwarps || nthreads % kWarpLanes == 0 ? 0xffffffffu : (1u << (nthreads % kWarpLanes)) - 1;
      if (uint32_t gone = exists & ~warps[w].live) {
        cur_warp = w;
        who = where(w, gone);
      }
    }
    throw ExecError(who + " exited without reaching the barrier (bar.sync at " + m.file + ":" +
                    std::to_string(barrier_line) + ") the rest of the block waits at: a barrier only some threads "
                    "of the block reach");
  }
  bar_release();
  for (auto& w : warps)
    if (w.state == BlockExec::WarpState::AtBarrier) w.state = BlockExec::WarpState::Ready;
  released = true;
}

// A branch of the lanes `taken` among `active` (e: the warp's top entry, its pc already past the branch).
void BlockState::branch(WarpCtx& W, StackEntry& e, const Instr& in, uint32_t pc, uint32_t active, uint32_t taken) {
  if (taken == active) {
    e.pc = in.target;
  } else if (taken != 0) {
    const uint32_t rpc = in.rpc, fall = pc + 1;
    if (e.rpc == rpc) W.stack.pop_back();  // the entry below already waits at rpc for these lanes
    else e.pc = rpc;
    if (fall != rpc) W.stack.push_back({fall, rpc, active & ~taken, false});
    if (in.target != rpc) W.stack.push_back({in.target, rpc, taken, false});
  }
}

BlockExec::WarpState BlockState::step(unsigned w) {
  WarpCtx& W = warps[w];
  cur_warp = w;
  if (W.state != BlockExec::WarpState::Ready) return W.state;
  for (;;) {
    if (W.stack.empty()) {
      W.state = BlockExec::WarpState::Exited;
      check_barrier();
      return W.state;
    }
    StackEntry& t = W.stack.back();
    if (t.mask == 0) {
      if (t.is_call) W.calls.pop_back();
      W.stack.pop_back();
    } else if (t.pc == t.rpc) {
      W.stack.pop_back();
    } else {
      break;
    }
  }
  StackEntry& e = W.stack.back();
  const uint32_t pc = e.pc;
  const Instr& in = code[pc];
  const uint32_t active = e.mask;
  const uint32_t mask = begin_instr(pc, in, W, active);
  e.pc = pc + 1;
  if (const FastFn f = fast[pc]) {  // arithmetic: no control flow, no exit
    if (mask) f(*this, in, W, mask);
    return W.state;
  }
  switch (in.op) {
    case Op::Bra:
      branch(W, e, in, pc, active, mask);
      break;
    case Op::Call: {
      if (!mask) break;
      const Function& callee = m.funcs[in.target];
      for (int64_t i = 0; i < in.b.imm; ++i) {
        const CallArgs& a = m.call_args[in.extra + uint32_t(i)];
        HETVP_PTX_LANES(mask, std::memmove(W.frame + size_t(l) * frame_bytes + a.callee_offset,
                                           W.frame + size_t(l) * frame_bytes + a.caller_offset, a.size));
      }
      W.calls.push_back(pc);
      W.stack.push_back({callee.first_pc, kNoPc, mask, true});
      break;
    }
    case Op::FuncEnd:
      if (!W.calls.empty()) {  // return from a device function: copy the return value to the caller
        const Instr& call = code[W.calls.back()];
        if (call.c.imm > call.b.imm) {
          const CallArgs& a = m.call_args[call.extra + uint32_t(call.b.imm)];
          HETVP_PTX_LANES(active, std::memmove(W.frame + size_t(l) * frame_bytes + a.caller_offset,
                                               W.frame + size_t(l) * frame_bytes + a.callee_offset, a.size));
        }
        W.calls.pop_back();
        W.stack.pop_back();
      } else {
        exit_lanes(W, active);
      }
      break;
    case Op::Exit:
      exit_lanes(W, mask);
      break;
    case Op::Trap:
      if (mask) fail(in, mask, "trap executed");
      break;
    case Op::Bar:
      if (!mask) break;
      if (mask != W.live)
        fail(in, W.live & ~mask,
             "did not reach the barrier (bar.sync) other threads of its warp wait at: a barrier only some threads "
             "of the block reach");
      bar_arrive(in, W, pc);
      break;
    case Op::Membar:
      break;
    case Op::Ld: case Op::St:
      if (mask) memory(in, W, mask);
      break;
    case Op::Atom: case Op::Red:
      if (mask) atomic(in, W, mask);
      break;
    case Op::Cvt:
      if (mask) cvt(in, W, mask);
      break;
    default:
      if (mask) alu(in, W, mask);
  }
  if (W.state == BlockExec::WarpState::Ready && W.live == 0) {
    W.stack.clear();
    W.calls.clear();
    W.state = BlockExec::WarpState::Exited;
    check_barrier();
  }
  return W.state;
}

// n instructions from pc (run_len): fetched and issued in one call to the environment, then
// executed; the last one may be a branch. What step() does for each, in the same order of effects.
// A uniform branch into another straight run goes on with that run here.
void BlockState::run_straight(WarpCtx& W, StackEntry& e, uint32_t pc, uint32_t n) {
  const uint32_t active = e.mask;
  const unsigned nactive = lane_count(active);
  for (;;) {
    unsigned done = 0;
    try {
      env.fetch_issue_run(launch.code_base + uint64_t(pc) * kBytesPerInstr, cls.data() + pc, n, nactive, done);
    } catch (...) {  // a fetch faulted: count what was issued, as step() would have
      warp_instrs += done;
      thread_instrs += uint64_t(done) * nactive;
      throw;
    }
    warp_instrs += n;
    thread_instrs += uint64_t(n) * nactive;
    const uint32_t last = pc + n - 1;
    e.pc = last + 1;
    bool uniform = true;
    for (uint32_t p = pc; p <= last; ++p) {
      const Instr& in = code[p];
      const uint32_t mask = in.pred != kNoReg ? guard_mask(in.pred, in.pred_neg, W, active) : active;
      if (const FastFn f = fast[p]) {
        if (mask) f(*this, in, W, mask);
      } else {  // a branch, the run's last instruction
        uniform = mask == active || mask == 0;
        branch(W, e, in, p, active, mask);
      }
    }
    // Divergence changed the stack (e may be gone): back to run_warp, which looks at the new top.
    if (!uniform) return;
    pc = e.pc;
    if (pc == e.rpc || !(n = run_len[pc])) return;
    if (e.rpc > pc && e.rpc - pc < n) n = e.rpc - pc;
  }
}

bool BlockState::run_warp(unsigned w) {
  WarpCtx& W = warps[w];
  bool ran = false;
  while (W.state == BlockExec::WarpState::Ready && !released) {
    ran = true;
    // The common cases inline: the top of the stack runs on and its instruction is plain arithmetic
    // or a branch (step() does the same for them, and everything else).
    if (!W.stack.empty()) {
      StackEntry& e = W.stack.back();
      const uint32_t pc = e.pc;
      if (e.mask != 0 && pc != e.rpc) {
        if (uint32_t n = run_len[pc]) {
          cur_warp = w;
          if (e.rpc > pc && e.rpc - pc < n) n = e.rpc - pc;  // the entry ends at its reconvergence point
          run_straight(W, e, pc, n);
          continue;
        }
      }
    }
    step(w);
  }
  return ran;
}

}  // namespace detail

using detail::BlockState;

namespace {
const Launch& checked(const Launch& l) {
  if (!l.module) throw ExecError("launch without a module");
  return l;
}
}  // namespace

BlockExec::BlockExec(const Launch& launch, Env& env) : s_(std::make_unique<BlockState>(checked(launch), env)) {}
BlockExec::~BlockExec() = default;

void BlockExec::start(Dim3 block_idx, uint64_t local_base) {
  BlockState& s = *s_;
  if (block_idx.x >= s.launch.grid.x || block_idx.y >= s.launch.grid.y || block_idx.z >= s.launch.grid.z)
    throw ExecError("kernel '" + s.k.info.name + "': block index outside the grid");
  s.bidx = block_idx;
  s.local_base = local_base;
  s.exited_threads = 0;
  s.bar_reset();
  std::fill(s.regs.begin(), s.regs.end(), 0);
  std::fill(s.shared.begin(), s.shared.end(), 0);
  for (unsigned w = 0; w < s.nwarps; ++w) {
    auto& W = s.warps[w];
    unsigned lanes = std::min<uint32_t>(kWarpLanes, s.nthreads - w * kWarpLanes);
    W.live = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    W.state = WarpState::Ready;
    W.stack.assign(1, detail::StackEntry{s.k.first_pc, detail::kNoPc, W.live, false});
    W.calls.clear();
  }
}

void BlockExec::run() {
  BlockState& s = *s_;
  // Warps in order, each until it waits or exits; after a barrier opens, from the first warp again.
  for (bool any = true; any;) {
    any = false;
    s.released = false;
    for (unsigned w = 0; w < s.nwarps && !s.released; ++w)
      if (s.run_warp(w)) any = true;
  }
}

unsigned BlockExec::warp_count() const { return s_->nwarps; }
BlockExec::WarpState BlockExec::state(unsigned warp) const { return s_->warps.at(warp).state; }
BlockExec::WarpState BlockExec::step(unsigned warp) { return s_->step(warp); }
bool BlockExec::done() const {
  for (auto& w : s_->warps)
    if (w.state != WarpState::Exited) return false;
  return true;
}
uint64_t BlockExec::warp_instructions() const { return s_->warp_instrs; }
uint64_t BlockExec::thread_instructions() const { return s_->thread_instrs; }

}  // namespace hetvp::gpu::ptx
