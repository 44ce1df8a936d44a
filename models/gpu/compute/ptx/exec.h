// The SIMT executor: runs ONE thread block (CTA) of a kernel of a loaded ptx::Module, warp by warp.
//
// A block's warps (32 lanes each) run interleaved: run() executes a warp until it waits at a barrier
// or exits, then the next, so `bar.sync` works; step() executes one warp instruction, for a caller
// that schedules warps itself. Divergent branches use a reconvergence stack (the immediate
// post-dominator of each branch, computed at load time). The executor owns registers, predicates,
// shared memory (static + dynamic bytes) and the parameter buffer; global and local memory, atomics
// on global memory, instruction fetch and timing belong to the environment (the compute unit; tests
// use plain host memory):
//
//   struct MyEnv : hetvp::gpu::ptx::Env { ... };
//   hetvp::gpu::ptx::Launch l{&module, module.kernel_index(module.kernel("k")), grid, block, params, ...};
//   hetvp::gpu::ptx::BlockExec b(l, env);
//   b.start({bx, by, bz}, local_base);   // then b.run(); (throws ExecError)
//
// Every error (misaligned or out-of-range shared/local/param/const access, a barrier only some threads
// of the block reach, …) is an ExecError naming the kernel, the block, the thread(s) and the address.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/gpu/compute/ptx/module.h"

namespace hetvp::gpu::ptx {

constexpr unsigned kWarpLanes = 32;
template <class T>
using LaneArray = std::array<T, kWarpLanes>;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// The memory the environment serves. Global goes through the coalescer, TCP, TCC and MMU; Local is
// per-thread memory, always cached in L1. System: global memory at system scope, uncached (ld.cv / st.wt: registers of another agent, e.g.
// the coherence directory's, polled and written by device code), lane by lane past every cache.
enum class EnvSpace : uint8_t { Global, Local, System };

enum class AtomOp : uint8_t { Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas };
enum class AtomType : uint8_t { U32, S32, U64, S64, F32, F64, B32, B64 };
// The new value an atomic writes, given the old one and its operands b (and c for cas): PTX semantics
// (inc: old >= b ? 0 : old+1; dec: old == 0 || old > b ? b : old-1; cas: old == b ? c : old).
// Values are the low `size` bytes of the 64-bit words.
uint64_t atom_apply(AtomOp op, AtomType type, uint64_t old, uint64_t b, uint64_t c);

// Local memory as Fermi and Kepler lay it out: interleaved by 32-bit words across the lanes of a
// warp, so that the same local word of the 32 threads is 128 contiguous bytes (NVIDIA, CUDA C
// Programming Guide v4.2, 2012, §5.3.2 Device Memory Accesses, Local Memory: "organized such that
// consecutive 32-bit words are accessed by consecutive thread IDs"). Byte `offset` of the frame of
// thread `t` of a block whose threads have `local_bytes` each (the frame rounded up to whole words):
//   base + (t / 32) * 32 * frame + (offset / 4) * 128 + (t % 32) * 4 + offset % 4.
constexpr unsigned kLocalWordBytes = 4;
inline uint64_t local_frame_bytes(uint32_t local_bytes) {
  return (uint64_t(local_bytes) + kLocalWordBytes - 1) / kLocalWordBytes * kLocalWordBytes;
}
inline uint64_t local_address(uint64_t base, uint32_t local_bytes, uint64_t thread, uint64_t offset) {
  return base + thread / kWarpLanes * kWarpLanes * local_frame_bytes(local_bytes) +
         offset / kLocalWordBytes * (kWarpLanes * kLocalWordBytes) + thread % kWarpLanes * kLocalWordBytes +
         offset % kLocalWordBytes;
}
// The local memory a block of `threads` threads occupies (whole warps: a partial last warp keeps the
// 32-lane interleave).
inline uint64_t local_block_bytes(uint32_t local_bytes, uint64_t threads) {
  return (threads + kWarpLanes - 1) / kWarpLanes * kWarpLanes * local_frame_bytes(local_bytes);
}

// Instruction classes, for timing (issue_cycles) and statistics.
enum class InstrClass : uint8_t {
  IntAdd,     // add/sub/min/max/abs/neg on integers, mov, selp, setp/set on integers, logic, popc/clz…
  IntMul,     // mul/mad (32-bit, .lo/.hi/.wide, mul24/mad24)
  IntDiv,     // div/rem on integers (a sequence on the hardware)
  Shift,      // shl/shr/bfe/bfi/brev/prmt
  F32,        // f32 add/sub/mul/fma/mad/min/max/abs/neg, setp/set on f32
  F32Div,     // f32 div.rn/.full (a sequence on the hardware)
  F32Sqrt,    // f32 sqrt.rn (a sequence)
  F64,        // f64 add/sub/mul/fma/min/max/abs/neg, setp on f64
  F64Div,     // f64 div/rcp.rn/sqrt (a sequence)
  Sfu,        // rcp/rsqrt/lg2/ex2/sin/cos .approx, div.approx
  CvtNarrow,  // cvt 8/16-bit -> 32-bit
  Cvt64,      // cvt to/from 64-bit types
  CvtOther,   // other cvt (f32<->int32, f32 rounding)
  Branch,     // bra, call, ret, exit
  Barrier,    // bar.sync, membar
  Shfl,       // shfl
  Vote,       // vote
  LdGlobal, StGlobal, LdLocal, StLocal, LdShared, StShared, LdConst, LdParam, StParam,
  AtomGlobal, AtomShared,
  kCount
};
const char* to_string(InstrClass c);

// Cycles one warp instruction of class `c` occupies an SM's issue on `arch`: 32 / (operations per
// clock per SM) from the CUDA C Programming Guide's throughput table (SPEC §12 C), sequences costed as
// the instructions they are made of; docs/ptx.md has the table, its sources and the assumptions.
double issue_cycles(Arch arch, InstrClass c);

// What executes the block's memory instructions and charges its time (the compute unit).
// Hooks are called once per WARP instruction, never per lane.
class Env {
 public:
  virtual ~Env() = default;
  // Before each warp instruction: its address (Launch::code_base + index * kBytesPerInstr).
  virtual void fetch(uint64_t address) = 0;
  // Each warp instruction issued: its class and how many lanes execute it (1..32).
  virtual void issue(InstrClass c, unsigned active_lanes) = 0;
  // What the executor calls per warp instruction: fetch(address), then issue(c, active_lanes). One
  // call instead of two for an environment that overrides it (the compute unit does).
  virtual void fetch_issue(uint64_t address, InstrClass c, unsigned active_lanes) {
    fetch(address);
    issue(c, active_lanes);
  }
  // The same for a straight run of `n` instructions from `address` (classes cls[0..n-1]) that do not
  // call the environment otherwise (arithmetic; the executor runs them after this returns), in order;
  // `done` counts the instructions fetched and issued (what was done if a fetch throws).
  virtual void fetch_issue_run(uint64_t address, const InstrClass* cls, unsigned n, unsigned active_lanes,
                               unsigned& done) {
    for (unsigned i = 0; i < n; ++i, ++done) fetch_issue(address + uint64_t(i) * kBytesPerInstr, cls[i], active_lanes);
  }
  // A warp memory instruction on global or local memory: `size` bytes per lane (1, 2, 4, 8 or 16 for
  // vectors), addresses per lane, lanes in `mask`; data holds 32 * size bytes, lane l at l * size
  // (filled by the environment for loads). Local addresses are already mapped to the thread's place
  // (local_address(): word-interleaved); an 8- or 16-byte local access arrives as 2 or 4 accesses of
  // 4 bytes, one per word (each lane's words are 128 bytes apart).
  virtual void mem(bool store, EnvSpace space, const LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
                   uint8_t* data) = 0;
  // An atomic (or reduction, want_old = false) on global memory, lanes in `mask` (in lane order; lanes
  // with the same address are serialized). Write old values into `old`. atom_apply() gives the new value.
  virtual void atom(AtomOp op, AtomType type, const LaneArray<uint64_t>& addr, uint32_t mask, unsigned size,
                    const LaneArray<uint64_t>& b, const LaneArray<uint64_t>& c, LaneArray<uint64_t>& old,
                    bool want_old) = 0;
  // A shared-memory access of a warp: its bank-conflict degree (1 = conflict free; n = the warp
  // instruction needs n passes over the 32 banks of 32-bit words). The environment charges replays.
  virtual void shared_access(bool store, unsigned conflict_degree) = 0;
  // %clock / %clock64: the SM's cycle counter (default 0).
  virtual uint64_t clock() { return 0; }
};

// What a kernel launch gives every block of the grid.
struct Launch {
  const Module* module = nullptr;
  unsigned kernel = 0;                 // index into module->kernels()
  Dim3 grid, block;
  std::vector<uint8_t> params;         // the parameter buffer (FunctionInfo::param_bytes, layout from params)
  uint32_t dynamic_shared_bytes = 0;   // `extern __shared__` bytes, after the static ones
  uint64_t code_base = 0;              // VA of encode(*module)'s bytes (for Env::fetch)
  // One address per module->variables() entry (used for Global variables; others ignored). Empty: 0s.
  std::vector<uint64_t> variable_addresses;
  // Constant banks: 0 = the module's `.const` image (empty: module->const_bank0()); 1 = the context's.
  std::vector<uint8_t> const_bank0, const_bank1;
  // Generic addresses: the shared, local and constant windows (cvta maps state-space addresses into
  // them; any other generic address is global).
  uint64_t generic_shared_base = uint64_t(1) << 48;
  uint64_t generic_local_base = uint64_t(2) << 48;
  uint64_t generic_const_base = uint64_t(3) << 48;  // + (bank << 32 | offset)
  uint32_t sm_id = 0;                  // %smid
  // Tests: execute every instruction one at a time through the general path (no specialised
  // handlers, no straight runs): the reference the fast paths are compared with.
  bool general_path_only = false;
};

// An error while running a block: message names the kernel, block, thread(s) and address.
class ExecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {
struct BlockState;
}

class BlockExec {
 public:
  BlockExec(const Launch& launch, Env& env);  // checks the launch (kernel index, block size, params size)
  ~BlockExec();
  BlockExec(const BlockExec&) = delete;
  BlockExec& operator=(const BlockExec&) = delete;

  // Prepare block `block_idx` (all warps at the kernel's first instruction, shared memory zeroed).
  // local_base: VA of this block's local memory (local_block_bytes(local_bytes, threads) bytes).
  void start(Dim3 block_idx, uint64_t local_base = 0);
  // Run the block to completion (every warp exited). Throws ExecError.
  void run();

  enum class WarpState : uint8_t { Ready, AtBarrier, Exited };
  unsigned warp_count() const;
  WarpState state(unsigned warp) const;
  // Execute one instruction of a Ready warp; returns its state afterwards. Barriers release when every
  // live warp waits; throws ExecError as run() does.
  WarpState step(unsigned warp);
  bool done() const;

  // Counters since construction (all blocks): warp instructions issued and thread instructions
  // (the sum of their active lanes).
  uint64_t warp_instructions() const;
  uint64_t thread_instructions() const;

 private:
  std::unique_ptr<detail::BlockState> s_;
};

}  // namespace hetvp::gpu::ptx
