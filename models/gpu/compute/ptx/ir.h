// The decoded form of a PTX module (internal to models/gpu/compute/ptx): compact instructions with
// absolute register slots, resolved branch targets and reconvergence points, as the loader builds
// them (parse_*.cpp, link.cpp) and the executor runs them (exec*.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/gpu/compute/ptx/exec.h"
#include "models/gpu/compute/ptx/module.h"

namespace hetvp::gpu::ptx::detail {

// Value types (`.u32`, `.f64`, `.pred` …).
enum class Ty : uint8_t { None, B8, B16, B32, B64, U8, U16, U32, U64, S8, S16, S32, S64, F32, F64, Pred };
unsigned ty_bytes(Ty t);
inline bool ty_float(Ty t) { return t == Ty::F32 || t == Ty::F64; }
inline bool ty_signed(Ty t) { return t == Ty::S8 || t == Ty::S16 || t == Ty::S32 || t == Ty::S64; }

enum class Op : uint8_t {
  Mov, Add, Sub, Mul, Mad, Mul24, Mad24, Div, Rem, Abs, Neg, Min, Max, And, Or, Xor, Not, Cnot, Shl, Shr,
  Bfe, Bfi, Popc, Clz, Brev, Prmt, Fma, Sqrt, Rcp, Rsqrt, Ex2, Lg2, Sin, Cos, Copysign, Setp, Set, Selp,
  Slct, Cvt, Cvta, CvtaTo, Ld, St, Bra, Call, Ret, Exit, Bar, Membar, Atom, Red, Shfl, Vote, Trap,
  Testp, Sad,
  // Synthetic: the end of a function (every `ret` branches here), so divergent paths reconverge there.
  FuncEnd,
};

// Memory state spaces of ld/st/atom/cvta. Generic = no space given (an address into one of the windows).
enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };

enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
enum class BoolOp : uint8_t { None, And, Or, Xor };
// Rounding: float results (.rn .rz .rm .rp), integer rounding of floats (.rni .rzi .rmi .rpi).
enum class Rnd : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi };
enum class MulMode : uint8_t { Lo, Hi, Wide };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
// bar.sync, or bar.red with its reduction (__syncthreads_count / _and / _or).
enum class BarMode : uint8_t { Sync, Popc, And, Or };

// Special registers.
enum class Sreg : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ, LaneId, WarpId,
  NWarpId, SmId, NSmId, GridId, Clock, Clock64, LanemaskEq, LanemaskLe, LanemaskLt, LanemaskGe, LanemaskGt
};

// Where a symbol's address comes from at run time.
enum class SymKind : uint8_t {
  GlobalVar,   // index into variables(): Launch::variable_addresses
  ConstVar,    // constant bank address (bank << 32 | offset), fixed at load
  SharedVar,   // shared window offset, fixed at load
  LocalVar,    // per-thread local offset, fixed at load (frames of callees after callers')
  KernelParam, // offset in the launch's parameter buffer
  FrameParam,  // offset in the per-thread parameter frame (device function params, call arguments)
  DynShared,   // `extern __shared__`: the dynamic area, after the kernel's static shared bytes
};

struct Operand {
  enum Kind : uint8_t { None, Reg, Imm, Sreg, Sym, Addr, Vec };
  Kind kind = None;
  bool neg = false;          // Reg: `!%p`; Addr: the address is a symbol's (+ imm), not a register's
  SymKind sym = SymKind::GlobalVar;
  uint32_t reg = 0;          // Reg: register slot; Addr: base register slot (kNoReg: none) or, if
                             // symbolic, the variable index (GlobalVar); Sym: variable index (GlobalVar);
                             // Sreg: the Sreg; Vec: first index in ModuleImpl::vec_regs
  int64_t imm = 0;           // Imm: value bits; Sym: address; Addr: offset (+ symbol address); Vec: count
};
constexpr uint32_t kNoReg = 0xffffffffu;
constexpr uint32_t kNoPc = 0xffffffffu;

struct Instr {
  Op op = Op::Mov;
  Ty type = Ty::None;        // the instruction type (d's type; cvt: destination)
  Ty type2 = Ty::None;       // cvt: source type; setp/set: comparison type
  Space space = Space::Generic;
  uint8_t vec = 1;           // ld/st .v2/.v4
  Cmp cmp = Cmp::Eq;
  BoolOp boolop = BoolOp::None;
  Rnd rnd = Rnd::None;
  uint8_t mode = 0;          // MulMode, ShflMode, VoteMode, AtomOp, cvta direction …
  uint8_t atype = 0;         // AtomType
  bool ftz = false, sat = false, approx = false, uni = false;
  InstrClass cls = InstrClass::IntAdd;
  bool sys = false;          // ld.cv / st.wt on global memory: system scope, past every cache
  uint32_t pred = kNoReg;    // guard predicate slot
  bool pred_neg = false;
  Operand d, d2, a, b, c;
  uint32_t target = kNoPc;   // bra: target pc; call: callee function index
  uint32_t rpc = kNoPc;      // bra: reconvergence pc (immediate post-dominator); call: its return slots
  uint32_t line = 0;
  uint32_t extra = 0;        // call: first index into call_args; count in `c.imm`
};

struct Function {
  FunctionInfo info;
  uint32_t first_pc = 0, end_pc = 0;   // [first, end) in ModuleImpl::code; end - 1 is FuncEnd
  uint32_t nregs = 0;                  // register slots of this function alone
  uint32_t reg_base = 0;               // its slots start here (after its callers')
  uint32_t local_own = 0, local_base = 0;
  uint32_t frame_own = 0, frame_base = 0;
  uint32_t ret_offset = kNoPc, ret_size = 0;  // return parameter in its frame (absolute)
  std::vector<uint32_t> param_offsets;         // device functions: params in its frame (absolute)
  std::vector<uint32_t> param_sizes;
  std::vector<uint32_t> callees;               // function indexes
  std::vector<uint8_t> reg_wide;               // per slot: 1 if a 64-bit register (for liveness counts)
  uint32_t max_slots = 0;                      // slots needed by it and its callees (reg_base excluded)
  uint32_t max_frame = 0, max_local = 0;       // frame/local bytes needed from its base, callees included
};

struct CallArgs {
  uint32_t caller_offset, size, callee_offset;
};

struct ModuleImpl {
  std::string file;
  Arch target = Arch::Sm20;
  unsigned version = 0;
  std::vector<Instr> code;
  std::vector<uint32_t> vec_regs;              // Operand::Vec lists
  std::vector<CallArgs> call_args;             // per call: args then the return value copy
  std::vector<Function> funcs;                 // kernels and device functions, in module order
  std::vector<unsigned> kernel_funcs;          // indexes into funcs
  std::vector<FunctionInfo> kernels, functions;
  std::vector<VariableInfo> variables;
  std::vector<uint8_t> const_bank0;
  uint32_t const_bank1_bytes = 0;
  uint32_t module_shared_bytes = 0;
  uint32_t dyn_shared_base = 0;                // where `extern __shared__` starts (link.cpp)
  bool dyn_shared_in_funcs = false;            // a device function uses it: every kernel uses the base above
};

}  // namespace hetvp::gpu::ptx::detail
