// Issue cost of a warp instruction per class and chip: 32 / (operations per clock per SM), from the
// CUDA C Programming Guide's arithmetic-instruction throughput table (v4.2 App. F for compute
// capability 2.0; the later guides' transcription for 3.0 and 3.5; SPEC §12 C). Rows the table lacks
// are sequences or assumptions, each said below and in docs/ptx.md.
#include "models/gpu/compute/ptx/exec.h"

namespace hetvp::gpu::ptx {

namespace {

// Operations per clock per SM, columns sm_20, sm_30, sm_35.
struct Rate {
  double ops[3];
};
constexpr Rate kFp32{{32, 192, 192}};
constexpr Rate kFp64{{16, 8, 64}};
constexpr Rate kSfu{{4, 32, 32}};          // rcp/rsqrt/lg2/ex2/sin/cos
constexpr Rate kIntAdd{{32, 160, 160}};     // int32 add; compare/min/max have the same rate
constexpr Rate kIntMul{{16, 32, 32}};
constexpr Rate kShift{{16, 32, 64}};
constexpr Rate kCvtNarrow{{16, 128, 128}};  // 8/16-bit -> 32-bit
constexpr Rate kCvt64{{16, 8, 32}};
constexpr Rate kCvtOther{{16, 32, 32}};
constexpr Rate kShfl{{32, 32, 32}};         // sm_20 has no shfl (the loader refuses it): a placeholder
constexpr Rate kBarrier{{16, 128, 128}};    // __syncthreads; 3.5 = 3.0 is an assumption
// Assumption: a memory instruction occupies the SM's load/store units, 16 per SM on Fermi (PG42
// F.4.1) and 32 on Kepler (GK104/GK110 whitepapers); the memory path's time is the environment's.
constexpr Rate kLdSt{{16, 32, 32}};

double cyc(const Rate& r, Arch a) { return 32.0 / r.ops[static_cast<int>(a)]; }

}  // namespace

const char* to_string(InstrClass c) {
  static const char* const kNames[] = {
      "int_add",  "int_mul",   "int_div",   "shift",     "f32",       "f32_div",    "f32_sqrt",   "f64",
      "f64_div",  "sfu",       "cvt_narrow", "cvt64",    "cvt_other", "branch",     "barrier",    "shfl",
      "vote",     "ld_global", "st_global", "ld_local",  "st_local",  "ld_shared",  "st_shared",  "ld_const",
      "ld_param", "st_param",  "atom_global", "atom_shared"};
  static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(InstrClass::kCount));
  return static_cast<size_t>(c) < static_cast<size_t>(InstrClass::kCount) ? kNames[static_cast<size_t>(c)] : "?";
}

double issue_cycles(Arch a, InstrClass c) {
  switch (c) {
    case InstrClass::IntAdd: return cyc(kIntAdd, a);
    case InstrClass::IntMul: return cyc(kIntMul, a);
    // Sequences (assumptions: the shape of the code ptxas emits, not measured):
    // integer division: float reciprocal estimate and correction = 2 cvt + 1 rcp + 4 mul + 8 add
    case InstrClass::IntDiv: return 2 * cyc(kCvtOther, a) + cyc(kSfu, a) + 4 * cyc(kIntMul, a) + 8 * cyc(kIntAdd, a);
    case InstrClass::Shift: return cyc(kShift, a);
    case InstrClass::F32: return cyc(kFp32, a);
    // f32 div.rn: rcp + Newton refinement and rounding fix-up = 1 rcp + 8 fp32
    case InstrClass::F32Div: return cyc(kSfu, a) + 8 * cyc(kFp32, a);
    // f32 sqrt.rn: rsqrt + refinement = 1 rsqrt + 6 fp32
    case InstrClass::F32Sqrt: return cyc(kSfu, a) + 6 * cyc(kFp32, a);
    case InstrClass::F64: return cyc(kFp64, a);
    // f64 div/sqrt/rcp.rn: a reciprocal estimate + 10 fp64 (Newton iterations)
    case InstrClass::F64Div: return cyc(kSfu, a) + 10 * cyc(kFp64, a);
    case InstrClass::Sfu: return cyc(kSfu, a);
    case InstrClass::CvtNarrow: return cyc(kCvtNarrow, a);
    case InstrClass::Cvt64: return cyc(kCvt64, a);
    case InstrClass::CvtOther: return cyc(kCvtOther, a);
    // Assumption: branches, votes and parameter/constant reads (operands of the SASS instructions) issue
    // at the int32 add rate.
    case InstrClass::Branch: case InstrClass::Vote: case InstrClass::LdConst: case InstrClass::LdParam:
    case InstrClass::StParam:
      return cyc(kIntAdd, a);
    case InstrClass::Barrier: return cyc(kBarrier, a);
    case InstrClass::Shfl: return cyc(kShfl, a);
    case InstrClass::LdGlobal: case InstrClass::StGlobal: case InstrClass::LdLocal: case InstrClass::StLocal:
    case InstrClass::LdShared: case InstrClass::StShared: case InstrClass::AtomGlobal: case InstrClass::AtomShared:
      return cyc(kLdSt, a);
    case InstrClass::kCount: break;
  }
  return 1.0;
}

}  // namespace hetvp::gpu::ptx
