// The V3D host interface: the register window of the V3D block (firmware/include/hetvp/v3d_regs.h,
// every register of the Reference Guide's map, section 10). What it does per register:
//   IDENT0..2     identification (IDENT1 from the configuration)
//   L2CACTL       ENABLE/DISABLE set and clear the enable bit that reads back; CLEAR drops the
//                 QPUs' decoded instructions (a driver that rewrites code without it runs stale code)
//   SLCACTL       the instruction-cache clear bits drop the decoded instructions; reads 0
//   SRQ*          the user-program request queue (V3d::request)
//   PCTRC/PCTRE/PCTRn/PCTRSn  performance counters over the QPU sources hetvp measures
//   DBQITE/DBQITC the QPU host interrupts
//   INTENA/INTDIS one enable mask, set by one and cleared by the other
// Every other register stores what is written and reads it back (the read-only ones read their
// reset value): the control-list executors, binner and debug interface are not modelled.
#pragma once

#include <cstdint>

#include "platform/peripheral.h"

namespace hetvp::qpu {

class V3d;

class V3dHostIf : public Peripheral {
 public:
  V3dHostIf(sc_core::sc_module_name name, V3d& v3d);
  Register &ident1, &srqua, &srqul, &srqcs, &dbqite, &dbqitc;
  void set_ident1(uint32_t v) { bank_.set_reset("IDENT1", v); }

 private:
  void write_srqpc(uint32_t v);
  void write_srqcs(uint32_t v);
  void write_slcactl(uint32_t v);
  void write_l2cactl(uint32_t v);
  void write_intena(uint32_t v);
  void write_intdis(uint32_t v);
  void write_pctrc(uint32_t v);
  void write_pctre(uint32_t v);
  void write_pctrs(unsigned n, uint32_t v);
  uint64_t source_total(unsigned n) const;  // the running total of counter n's source, now
  bool counting(unsigned n) const;
  uint64_t now_cycle() const;

  V3d& v3d_;
  Register &l2cactl_, &slcactl_, &intena_, &intdis_, &pctre_;
  Register* pctrs_[16];
  // Counter n reads held_[n] plus, while it counts, its source's growth since base_[n].
  uint64_t held_[16] = {}, base_[16] = {};
  uint32_t src_[16] = {};  // each counter's source (PCTRSn as last written)
  uint32_t prev_pctre_ = 0, int_enables_ = 0;
  bool l2_enabled_ = false;
};

}  // namespace hetvp::qpu
