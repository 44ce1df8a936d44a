// hetvp example plugin — the TLM reference model of mul32.sv: the same registers (mul32_regs.h) at
// the same cycles, without simulating the shift-and-add. `mode: tlm` runs it instead of the RTL,
// `mode: lockstep` beside it (every register read compared at its cycle).
//
// Timing recipe (docs/rtl_blocks.md, "Timing of a reference model"): the state is a function of
// the cycle. access(gp, g) is the APB access whose SETUP edge is g: a read answers with the state
// after edge g-1, a write takes effect at the ACCESS edge g+1. START at edge w makes the block
// BUSY after edges w .. w+MUL_CYCLES-1 and DONE from w+MUL_CYCLES on — so the model stores w and
// the product and answers every later read from them; it needs no thread and no clock.
#include <cstdint>

#include "mul32_regs.h"
#include "rtl/bridges/rtl_block.h"

namespace example {

using hetvp::rtl::BlockEnv;
using hetvp::rtl::ReferenceModel;
using hetvp::rtl::RegisterWord;

class Mul32Reference final : public ReferenceModel {
 public:
  Mul32Reference(sc_core::sc_module_name n, const BlockEnv& env) : ReferenceModel(n, env) {}

  void access(tlm::tlm_generic_payload& gp, uint64_t g) override {
    const RegisterWord w = RegisterWord::of(gp);  // the lanes written: the strobe (byte enables too)
    const uint64_t off = w.offset & 0x1c;         // the RTL decodes address bits 4:2
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    if (gp.is_read()) {
      RegisterWord::answer_read(gp, read(off, g - 1));
      return;
    }
    const uint32_t v = w.data, strb = w.mask();
    const uint64_t at = g + 1;  // the ACCESS edge: the write takes effect here
    switch (off) {
      case MUL_OPA:
        opa_ = (opa_ & ~strb) | (v & strb);
        break;
      case MUL_OPB:
        opb_ = (opb_ & ~strb) | (v & strb);
        break;
      case MUL_CTRL:
        // START is sampled against the state before the edge (the RTL's `busy` at edge `at`).
        if ((strb & 0xff) && (v & MUL_CTRL_START) && !busy(at - 1)) {
          started_ = true;
          start_ = at;
          product_ = uint64_t(opa_) * uint64_t(opb_);
        }
        break;
      default:
        break;
    }
  }

 private:
  // The state after edge c.
  bool busy(uint64_t c) const { return started_ && c >= start_ && c < start_ + MUL_CYCLES; }
  bool done(uint64_t c) const { return started_ && c >= start_ + MUL_CYCLES; }

  uint32_t read(uint64_t off, uint64_t c) const {
    switch (off) {
      case MUL_OPA:
        return opa_;
      case MUL_OPB:
        return opb_;
      case MUL_STATUS:
        return (busy(c) ? MUL_STATUS_BUSY : 0) | (done(c) ? MUL_STATUS_DONE : 0);
      case MUL_RES_LO:
        return done(c) ? uint32_t(product_) : 0;
      case MUL_RES_HI:
        return done(c) ? uint32_t(product_ >> 32) : 0;
      case MUL_ID:
        return MUL_ID_VALUE;
      default:
        return 0;
    }
  }

  uint32_t opa_ = 0, opb_ = 0;
  bool started_ = false;
  uint64_t start_ = 0, product_ = 0;
};

}  // namespace example

HETVP_REGISTER_RTL_REFERENCE("mul32", example::Mul32Reference,
                             "example plugin: TLM reference of mul32.sv (same registers at the same cycles)");
