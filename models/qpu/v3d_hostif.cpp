// The V3D host interface (v3d_hostif.h).
#include "models/qpu/v3d_hostif.h"

#include <algorithm>
#include <string>

#include "firmware/include/hetvp/v3d_regs.h"
#include "models/qpu/v3d.h"

namespace hetvp::qpu {

namespace {
const RegSpec kV3dRegs[] = {HETVP_REG_TABLE(HETVP_V3D_REGS)};
}

V3dHostIf::V3dHostIf(sc_core::sc_module_name name, V3d& v3d)
    : Peripheral(name, kV3dRegs),
      ident1(reg("IDENT1")),
      srqua(reg("SRQUA")),
      srqul(reg("SRQUL")),
      srqcs(reg("SRQCS")),
      dbqite(reg("DBQITE")),
      dbqitc(reg("DBQITC")),
      v3d_(v3d),
      l2cactl_(reg("L2CACTL")),
      slcactl_(reg("SLCACTL")),
      intena_(reg("INTENA")),
      intdis_(reg("INTDIS")),
      pctre_(reg("PCTRE")) {
  on_write("SRQPC", &V3dHostIf::write_srqpc);
  on_write("SRQCS", &V3dHostIf::write_srqcs);
  on_write("SLCACTL", &V3dHostIf::write_slcactl);
  on_write("L2CACTL", &V3dHostIf::write_l2cactl);
  on_write("INTENA", &V3dHostIf::write_intena);
  on_write("INTDIS", &V3dHostIf::write_intdis);
  on_write("PCTRC", &V3dHostIf::write_pctrc);
  on_write("PCTRE", &V3dHostIf::write_pctre);
  srqcs.read([this](const Register&) {
    return uint32_t(std::min<size_t>(v3d_.queue_.size(), 63)) | (v3d_.queue_error_ ? V3D_SRQCS_ERROR : 0u) |
           (v3d_.made_ & 0xffu) << 8 | (v3d_.completed_ & 0xffu) << 16;
  });
  slcactl_.read([](const Register&) { return 0u; });  // the clear bits clear themselves
  l2cactl_.read([](const Register& r) { return r.value & V3D_L2CACTL_ENABLE; });
  intena_.read([this](const Register&) { return int_enables_; });
  intdis_.read([this](const Register&) { return int_enables_; });
  for (unsigned n = 0; n < V3D_PCTR_COUNTERS; ++n) {
    const std::string i = std::to_string(n);
    pctrs_[n] = &reg(("PCTRS" + i).c_str());
    pctrs_[n]->on_write = [this, n](Register&, uint32_t v) { write_pctrs(n, v); };
    reg(("PCTR" + i).c_str()).read([this, n](const Register&) {
      return uint32_t(held_[n] + (counting(n) ? source_total(n) - base_[n] : 0));
    });
  }
}

void V3dHostIf::write_srqpc(uint32_t v) { v3d_.request(v, srqua.value, srqul.value, this_access().delay); }

void V3dHostIf::write_srqcs(uint32_t v) {
  // Clears act at the write's arrival, as the counts they clear change at simulated times.
  v3d_.arrivals_.at(this_access().delay, [this, v] {
    if (v & V3D_SRQCS_CLEAR_ERROR) v3d_.queue_error_ = false;
    if (v & V3D_SRQCS_CLEAR_MADE) v3d_.made_ = 0;
    if (v & V3D_SRQCS_CLEAR_DONE) v3d_.completed_ = 0;
  });
}

void V3dHostIf::write_slcactl(uint32_t v) {
  if (v & V3D_SLCACTL_ICC) v3d_.arrivals_.at(this_access().delay, [this] { v3d_.clear_instruction_cache(); });
}

void V3dHostIf::write_l2cactl(uint32_t v) {
  // Bit 0 reads back whether the L2 cache is enabled: ENABLE sets it, DISABLE clears it.
  l2_enabled_ = (v & V3D_L2CACTL_DISABLE) ? false : (v & V3D_L2CACTL_ENABLE) ? true : l2_enabled_;
  l2cactl_.value = l2_enabled_ ? V3D_L2CACTL_ENABLE : 0u;
  if (v & V3D_L2CACTL_CLEAR) v3d_.arrivals_.at(this_access().delay, [this] { v3d_.clear_instruction_cache(); });
}

void V3dHostIf::write_intena(uint32_t v) { int_enables_ |= v; }
void V3dHostIf::write_intdis(uint32_t v) { int_enables_ &= ~v; }

// --- performance counters ----------------------------------------------------------------------

uint64_t V3dHostIf::now_cycle() const {
  return v3d_.cycle_at(sc_core::sc_time_stamp() + const_cast<V3dHostIf*>(this)->this_access().delay);
}

uint64_t V3dHostIf::source_total(unsigned n) const { return v3d_.perf_source(src_[n], now_cycle()); }

bool V3dHostIf::counting(unsigned n) const { return (pctre_.value & V3D_PCTRE_EN) && (pctre_.value & (1u << n)); }

void V3dHostIf::write_pctrc(uint32_t v) {
  for (unsigned n = 0; n < V3D_PCTR_COUNTERS; ++n)
    if (v & (1u << n)) {
      held_[n] = 0;
      base_[n] = source_total(n);
    }
}

void V3dHostIf::write_pctre(uint32_t v) {
  // The register holds the new value already; compare each counter's state before and after.
  const uint32_t before = prev_pctre_;
  prev_pctre_ = v;
  for (unsigned n = 0; n < V3D_PCTR_COUNTERS; ++n) {
    const bool was = (before & V3D_PCTRE_EN) && (before & (1u << n)), is = counting(n);
    if (was && !is) held_[n] += source_total(n) - base_[n];
    if (!was && is) base_[n] = source_total(n);
  }
}

void V3dHostIf::write_pctrs(unsigned n, uint32_t v) {
  // A new source: what was counted stays, counting goes on from the new source's total now.
  if (counting(n)) held_[n] += source_total(n) - base_[n];
  src_[n] = v;
  base_[n] = source_total(n);
}

}  // namespace hetvp::qpu
