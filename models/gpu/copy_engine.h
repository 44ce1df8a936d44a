// The copy engine: moves data between two GPU virtual addresses (VRAM or host memory through
// the MMU and PCIe) on behalf of the driver.
//
// The driver writes SRC, DST, LENGTH, optionally FENCE address/value, then LAUNCH. After
// `setup` (command fetch and decode, a YAML parameter), the engine copies in `burst`-byte
// pieces that never cross a page: each piece is read (up to `outstanding` reads in flight, as
// PCIe tags allow) and written as soon as its data is back. The link's shared bandwidth and
// latency therefore set the copy speed. When done it writes FENCE_VALUE to FENCE (if asked),
// raises PMC_INTR bit 0 (if asked) and counts the copy in COMPLETED. A fault on either side
// stops the copy: STATUS.error with the code, ERROR_ADDR = the failing virtual address.
//
// Registers (BAR0 0x104000, see gpu_regs.h): SRC_LO/HI, DST_LO/HI, LENGTH, FENCE_LO/HI,
// FENCE_VALUE, LAUNCH, STATUS, ERROR_LO/HI, COMPLETED.
#pragma once

#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "platform/access_info.h"
#include "platform/irq.h"
#include "platform/json.h"
#include "platform/params.h"
#include "platform/register_bank.h"

namespace hetvp::gpu {

class CopyEngine : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<CopyEngine> mem{"mem"};  // GPU virtual addresses (to the MMU)
  tlm_utils::simple_target_socket<CopyEngine> regs{"regs"};
  IrqPort intr{"intr"};

  // `index` selects the engine's interrupt bit (PMC_INTR: copy0 bit 0, copy1 bit 5).
  CopyEngine(sc_core::sc_module_name name, const Params& p, unsigned index = 0);
  static std::shared_ptr<Schema> schema();
  void dump_stats(JsonWriter& w) const;

 private:
  void run();
  // One timed access at absolute time `at`; returns the absolute completion time, or false.
  bool access(tlm::tlm_command cmd, uint64_t va, uint8_t* data, unsigned len, sc_core::sc_time at,
              sc_core::sc_time& done);
  void b_regs(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  unsigned dbg_regs(tlm::tlm_generic_payload& gp) { return regs_.debug(gp); }

  RegisterBank regs_;
  unsigned intr_bit_;
  sc_core::sc_time setup_, issue_cost_;
  unsigned burst_, outstanding_;
  sc_core::sc_event launch_;
  bool busy_ = false;
  uint32_t launch_flags_ = 0;
  tlm::tlm_generic_payload gp_;
  AccessInfo* info_ = new AccessInfo;  // owned by the payload it is attached to
  std::vector<uint8_t> buffer_;
  uint64_t copies_ = 0, bytes_ = 0, pieces_ = 0, errors_ = 0;
  sc_core::sc_time busy_time_;
};

}  // namespace hetvp::gpu
