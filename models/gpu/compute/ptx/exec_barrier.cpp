// Barriers: bar.sync, and bar.red (CUDA's __syncthreads_count / _and / _or), which is a barrier
// that also reduces a predicate over every thread of the block and gives each thread the result
// (PTX ISA, "bar.red"). The warps' arrivals accumulate the reduction; when the barrier opens
// (check_barrier, exec.cpp), every warp that waited at a bar.red receives it in its destination.
#include "models/gpu/compute/ptx/exec_impl.h"

namespace hetvp::gpu::ptx::detail {

namespace {
const char* bar_name(BarMode m) {
  switch (m) {
    case BarMode::Popc: return "bar.red.popc";
    case BarMode::And: return "bar.red.and";
    case BarMode::Or: return "bar.red.or";
    default: return "bar.sync";
  }
}
}  // namespace

void BlockState::bar_reset() {
  bar_waiting = 0;
  bar_mode = BarMode::Sync;
  bar_popc = 0;
  bar_and = true;
  bar_or = false;
  for (WarpCtx& W : warps) W.bar_red_pc = kNoPc;
}

// A whole warp (its live threads) arrives at a barrier.
void BlockState::bar_arrive(const Instr& in, WarpCtx& W, uint32_t pc) {
  const BarMode mode = BarMode(in.mode);
  if (bar_waiting == 0) {
    bar_mode = mode;
    bar_line_first = in.line;
  } else if (mode != bar_mode) {
    // PTX leaves mixing a barrier's flavours undefined: an error, never a guessed result.
    fail(in, W.live, std::string("waits at a ") + bar_name(mode) + " while other threads of the block wait at a " +
                         bar_name(bar_mode) + " (" + m.file + ":" + std::to_string(bar_line_first) +
                         ") of the same barrier");
  }
  if (mode != BarMode::Sync) {
    const uint32_t p = pred_mask(in.c.reg, in.c.neg, W) & W.live;
    bar_popc += unsigned(__builtin_popcount(p));
    bar_and = bar_and && p == W.live;
    bar_or = bar_or || p != 0;
    W.bar_red_pc = pc;
  }
  ++bar_waiting;
  barrier_line = in.line;
  W.state = BlockExec::WarpState::AtBarrier;
  check_barrier();
}

// The barrier opens: each bar.red's destination gets the block's reduction (popc: a u32 count;
// and/or: a predicate).
void BlockState::bar_release() {
  const uint64_t value = bar_mode == BarMode::Popc ? bar_popc : bar_mode == BarMode::And ? bar_and : bar_or;
  for (WarpCtx& W : warps) {
    if (W.bar_red_pc == kNoPc) continue;
    uint64_t* d = W.regs + size_t(code[W.bar_red_pc].d.reg) * kWarpLanes;
    HETVP_PTX_LANES(W.live, d[l] = value);
    W.bar_red_pc = kNoPc;
  }
  bar_waiting = 0;
  bar_popc = 0;
  bar_and = true;
  bar_or = false;
}

}  // namespace hetvp::gpu::ptx::detail
