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
  void check_barrier();
  void bar_arrive(const Instr& in, WarpCtx& W, uint32_t pc);  // exec_barrier.cpp
  void bar_release();                                        // exec_barrier.cpp: before the warps go on
  void bar_reset();
  void alu(const Instr& in, WarpCtx& W, uint32_t mask);  // exec_alu.cpp
  void cvt(const Instr& in, WarpCtx& W, uint32_t mask);  // exec_alu.cpp
  void memory(const Instr& in, WarpCtx& W, uint32_t mask);
  void atomic(const Instr& in, WarpCtx& W, uint32_t mask);
  void exit_lanes(WarpCtx& W, uint32_t lanes);

  // operands: a pointer to 32 lane values (registers directly, others materialized in `tmp`)
  const uint64_t* src(const Operand& o, WarpCtx& W, uint64_t* tmp);
  uint64_t* dst(const Operand& o, WarpCtx& W) { return W.regs + size_t(o.reg) * kWarpLanes; }
  uint32_t pred_mask(uint32_t slot, bool neg, const WarpCtx& W) const;
  uint64_t sym_value(const Operand& o) const;
  uint64_t sreg(Sreg s, unsigned warp, unsigned lane);

  // errors
  Dim3 thread_of(unsigned warp, unsigned lane) const;
  std::string where(unsigned warp, uint32_t lanes) const;  // "kernel 'k' block (x,y,z) thread(s) (..)"
  [[noreturn]] void fail(const Instr& in, uint32_t lanes, const std::string& what) const;
};

}  // namespace hetvp::gpu::ptx::detail
