// The executor's state (internal): one block's warps, registers, parameter frames and shared memory,
// and the helpers the control/memory part (exec.cpp) and the arithmetic part (exec_alu.cpp) share.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "models/gpu/compute/ptx/ir.h"

namespace hetvp::gpu::ptx::detail {

// Runs `body` for every lane l in `mask` (a straight loop when the whole warp is active).
#define HETVP_PTX_LANES(mask, ...)                                   \
  do {                                                               \
    const uint32_t hetvp_m_ = (mask);                                \
    if (hetvp_m_ == 0xffffffffu) {                                   \
      for (unsigned l = 0; l < kWarpLanes; ++l) { __VA_ARGS__; }            \
    } else {                                                         \
      for (uint32_t hetvp_r_ = hetvp_m_; hetvp_r_; hetvp_r_ &= hetvp_r_ - 1) { \
        const unsigned l = unsigned(__builtin_ctz(hetvp_r_));        \
        __VA_ARGS__;                                                 \
      }                                                              \
    }                                                                \
  } while (0)

struct BlockState;
struct WarpCtx;
// A specialised handler for one instruction's arithmetic (exec_fast.cpp), chosen once per instruction
// when a block's state is built: the instruction's operation, type and operand kinds fixed.
using FastFn = void (*)(BlockState&, const Instr&, WarpCtx&, uint32_t mask);
// The handler for `in`, or nullptr: the general path (alu/cvt/memory/atomic, the control operations).
FastFn fast_handler(const Instr& in);

// The number of lanes in a mask: a bit count the compiler inlines (the baseline x86-64 target has no
// popcnt instruction, and __builtin_popcount became a library call per warp instruction).
inline unsigned lane_count(uint32_t m) {
  if (m == 0xffffffffu) return kWarpLanes;
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return unsigned((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

struct StackEntry {
  uint32_t pc, rpc, mask;
  bool is_call;
};

struct WarpCtx {
  uint32_t live = 0;                 // lanes whose threads exist and have not exited
  BlockExec::WarpState state = BlockExec::WarpState::Exited;
  std::vector<StackEntry> stack;
  std::vector<uint32_t> calls;       // pc of each active call instruction
  uint64_t* regs = nullptr;          // slot * 32 + lane
  uint8_t* frame = nullptr;          // lane * frame_bytes + offset
  uint32_t bar_red_pc = kNoPc;       // the bar.red it waits at (its destination gets the reduction)
};

struct BlockState {
  BlockState(const Launch& l, Env& e);

  const Launch launch;
  Env& env;
  const ModuleImpl& m;
  const Function& k;
  const Instr* code;
  std::vector<FastFn> fast;          // per instruction of the module: fast_handler() (nullptr: general)
  // Per instruction: how many instructions from it on form a straight run the executor fetches and
  // issues at once, then executes: fast ones, possibly ending with a branch (0: not one).
  std::vector<uint32_t> run_len;
  std::vector<InstrClass> cls;       // per instruction: its class (contiguous, for Env::fetch_issue_run)
  Dim3 bidx;
  uint64_t local_base = 0;
  uint32_t nthreads, nwarps, slots, frame_bytes, local_bytes, shared_bytes;
  std::vector<uint64_t> regs;
  std::vector<uint8_t> frames, shared;
  std::vector<WarpCtx> warps;
  std::vector<uint64_t> var_addr;
  std::vector<uint8_t> cbank[2];
  uint64_t exited_threads = 0;
  uint32_t barrier_line = 0;
  // The barrier the waiting warps are at (exec_barrier.cpp): how many wait, its flavour (bar.sync or
  // a bar.red reduction) and, for bar.red, the reduction of their predicates so far.
  unsigned bar_waiting = 0;
  BarMode bar_mode = BarMode::Sync;
  uint32_t bar_line_first = 0, bar_popc = 0;
  bool bar_and = true, bar_or = false;
  uint64_t warp_instrs = 0, thread_instrs = 0;
  unsigned cur_warp = 0;
  bool released = false;             // a barrier opened (run() starts again from warp 0)

  // execution
  BlockExec::WarpState step(unsigned w);
  // Runs warp w while it is ready and no barrier opened; true if it executed an instruction.
  bool run_warp(unsigned w);
  void run_straight(WarpCtx& W, StackEntry& e, uint32_t pc, uint32_t n);
  // The accounting every warp instruction starts with (fetch, issue, counters); its guarded lanes.
  uint32_t begin_instr(uint32_t pc, const Instr& in, const WarpCtx& W, uint32_t active) {
    const unsigned nactive = lane_count(active);
    env.fetch_issue(launch.code_base + uint64_t(pc) * kBytesPerInstr, in.cls, nactive);
    ++warp_instrs;
    thread_instrs += nactive;
    return in.pred != kNoReg ? guard_mask(in.pred, in.pred_neg, W, active) : active;
  }
  void check_barrier();
  void bar_arrive(const Instr& in, WarpCtx& W, uint32_t pc);  // exec_barrier.cpp
  void bar_release();                                        // exec_barrier.cpp: before the warps go on
  void bar_reset();
  void branch(WarpCtx& W, StackEntry& e, const Instr& in, uint32_t pc, uint32_t active, uint32_t taken);
  void alu(const Instr& in, WarpCtx& W, uint32_t mask);  // exec_alu.cpp
  void cvt(const Instr& in, WarpCtx& W, uint32_t mask);  // exec_alu.cpp
  void memory(const Instr& in, WarpCtx& W, uint32_t mask);
  void atomic(const Instr& in, WarpCtx& W, uint32_t mask);
  void exit_lanes(WarpCtx& W, uint32_t lanes);

  // operands: a pointer to 32 lane values (registers directly, others materialized in `tmp`)
  const uint64_t* src(const Operand& o, WarpCtx& W, uint64_t* tmp);
  uint64_t* dst(const Operand& o, WarpCtx& W) { return W.regs + size_t(o.reg) * kWarpLanes; }
  uint32_t pred_mask(uint32_t slot, bool neg, const WarpCtx& W) const;
  // A guard's lanes among `active`: only the active lanes' predicate values are read.
  uint32_t guard_mask(uint32_t slot, bool neg, const WarpCtx& W, uint32_t active) const;
  uint64_t sym_value(const Operand& o) const;
  uint64_t sreg(Sreg s, unsigned warp, unsigned lane);

  // errors
  Dim3 thread_of(unsigned warp, unsigned lane) const;
  std::string where(unsigned warp, uint32_t lanes) const;  // "kernel 'k' block (x,y,z) thread(s) (..)"
  [[noreturn]] void fail(const Instr& in, uint32_t lanes, const std::string& what) const;
};

}  // namespace hetvp::gpu::ptx::detail
