// hetvp — the PGRAPH register file (pgraph_regfile.h).
#include "models/gpu/gr/pgraph_regfile.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "firmware/include/hetvp/pgraph_regfile.h"
#include "platform/access_info.h"
#include "platform/format.h"

namespace hetvp::gpu::gr {

PgraphRegfile::PgraphRegfile(sc_core::sc_module_name n, unsigned gpcs, unsigned tpcs,
                             const std::vector<const GrPack*>& packs, const std::vector<uint32_t>& extra, unsigned ppcs)
    : sc_core::sc_module(n), gpcs_(gpcs), tpcs_(tpcs), ppcs_(ppcs) {
  regs.register_b_transport(this, &PgraphRegfile::b_transport);
  regs.register_transport_dbg(this, &PgraphRegfile::transport_dbg);
  auto add = [this](uint32_t a, const std::string& from) {
    if (a & 3) throw std::invalid_argument(format("%s names 0x%06x, not a 32-bit register", from.c_str(), a));
    if (a >= PGRAPH_HUB_BASE && a < PGRAPH_HUB_END)
      hub_.emplace(a, 0);
    else if (a >= PGRAPH_GPC_BCAST_BASE && a < PGRAPH_TPC_BCAST_BASE)
      gpc_slot_.emplace(a - PGRAPH_GPC_BCAST_BASE, uint32_t(gpc_slot_.size()));
    else if (a >= PGRAPH_TPC_BCAST_BASE && a < PGRAPH_BCAST_END)
      tpc_slot_.emplace(a - PGRAPH_TPC_BCAST_BASE, uint32_t(tpc_slot_.size()));
    else if (a >= PGRAPH_PPC_BCAST_BASE && a < PGRAPH_PPC_BCAST_END && ppcs_ > 0)
      ppc_slot_.emplace(a - PGRAPH_PPC_BCAST_BASE, uint32_t(ppc_slot_.size()));
    else if (a >= PGRAPH_PPC_BCAST_BASE && a < PGRAPH_PPC_BCAST_END)
      throw std::invalid_argument(
          format("%s names 0x%06x, a PPC register, but the chip has no PPC units", from.c_str(), a));
    else
      throw std::invalid_argument(
          format("%s names 0x%06x, outside PGRAPH's hub (0x400000-0x417fff) and GPC/TPC broadcast "
                 "(0x418000-0x419fff) and PPC broadcast (0x41be00-0x41bfff) ranges the register file covers",
                 from.c_str(), a));
  };
  for (const GrPack* p : packs) p->for_each_word([&](uint32_t a, uint32_t) { add(a, std::string("pack ") + p->name); });
  for (uint32_t a : extra) add(a, "the register file's extra words");
  gpc_val_.assign(size_t(gpcs_) * gpc_slot_.size(), 0);
  tpc_val_.assign(size_t(gpcs_) * tpcs_ * tpc_slot_.size(), 0);
  ppc_val_.assign(size_t(gpcs_) * ppcs_ * ppc_slot_.size(), 0);
}

std::vector<std::pair<uint32_t, uint32_t>> PgraphRegfile::windows() const {
  std::vector<std::pair<uint32_t, uint32_t>> w = {{PGRAPH_HUB_BASE, PGRAPH_BCAST_END}};
  if (ppcs_) w.push_back({PGRAPH_PPC_BCAST_BASE, PGRAPH_PPC_BCAST_END});
  for (unsigned g = 0; g < gpcs_; ++g) {
    const uint32_t b = PGRAPH_GPC_BASE + g * PGRAPH_GPC_STRIDE;
    w.push_back({b, b + PGRAPH_GPC_TPC_BCAST + PGRAPH_TPC_STRIDE});  // units + the GPC's TPC broadcast
    if (ppcs_) {
      w.push_back({b + PGRAPH_GPC_PPC_BASE, b + PGRAPH_GPC_PPC_BASE + ppcs_ * PGRAPH_PPC_STRIDE});
      w.push_back({b + PGRAPH_GPC_PPC_BCAST, b + PGRAPH_GPC_PPC_BCAST + PGRAPH_PPC_STRIDE});
    }
    if (tpcs_) w.push_back({b + PGRAPH_GPC_TPC_BASE, b + PGRAPH_GPC_TPC_BASE + tpcs_ * PGRAPH_TPC_STRIDE});
  }
  return w;
}

// One address decoded: which copy (or copies) it names.
namespace {
enum class Kind { None, Hub, GpcBcast, TpcBcast, Gpc, GpcTpcBcast, Tpc, PpcBcast, GpcPpcBcast, Ppc };
struct Where {
  Kind kind = Kind::None;
  uint32_t off = 0;
  unsigned gpc = 0, tpc = 0;
};
Where decode(uint32_t a, unsigned gpcs, unsigned tpcs, unsigned ppcs) {
  Where w;
  if (a >= PGRAPH_HUB_BASE && a < PGRAPH_HUB_END) return {Kind::Hub, a, 0, 0};
  if (a >= PGRAPH_GPC_BCAST_BASE && a < PGRAPH_TPC_BCAST_BASE) return {Kind::GpcBcast, a - PGRAPH_GPC_BCAST_BASE, 0, 0};
  if (a >= PGRAPH_TPC_BCAST_BASE && a < PGRAPH_BCAST_END) return {Kind::TpcBcast, a - PGRAPH_TPC_BCAST_BASE, 0, 0};
  if (a >= PGRAPH_PPC_BCAST_BASE && a < PGRAPH_PPC_BCAST_END && ppcs)
    return {Kind::PpcBcast, a - PGRAPH_PPC_BCAST_BASE, 0, 0};
  if (a < PGRAPH_GPC_BASE) return w;
  const uint32_t g = (a - PGRAPH_GPC_BASE) / PGRAPH_GPC_STRIDE, x = (a - PGRAPH_GPC_BASE) % PGRAPH_GPC_STRIDE;
  if (g >= gpcs) return w;
  if (x < PGRAPH_GPC_TPC_BCAST) return {Kind::Gpc, x, g, 0};
  if (x < PGRAPH_GPC_TPC_BCAST + PGRAPH_TPC_STRIDE) return {Kind::GpcTpcBcast, x - PGRAPH_GPC_TPC_BCAST, g, 0};
  if (ppcs && x >= PGRAPH_GPC_PPC_BCAST && x < PGRAPH_GPC_PPC_BCAST + PGRAPH_PPC_STRIDE)
    return {Kind::GpcPpcBcast, x - PGRAPH_GPC_PPC_BCAST, g, 0};
  if (x >= PGRAPH_GPC_PPC_BASE && x < PGRAPH_GPC_PPC_BASE + ppcs * PGRAPH_PPC_STRIDE)
    return {Kind::Ppc, (x - PGRAPH_GPC_PPC_BASE) % PGRAPH_PPC_STRIDE, g, (x - PGRAPH_GPC_PPC_BASE) / PGRAPH_PPC_STRIDE};
  if (x >= PGRAPH_GPC_TPC_BASE) {
    const uint32_t t = (x - PGRAPH_GPC_TPC_BASE) / PGRAPH_TPC_STRIDE;
    if (t < tpcs) return {Kind::Tpc, (x - PGRAPH_GPC_TPC_BASE) % PGRAPH_TPC_STRIDE, g, t};
  }
  return w;
}
}  // namespace

const uint32_t* PgraphRegfile::word(uint32_t addr) const {
  const Where w = decode(addr, gpcs_, tpcs_, ppcs_);
  switch (w.kind) {
    case Kind::Hub: {
      auto it = hub_.find(w.off);
      return it == hub_.end() ? nullptr : &it->second;
    }
    case Kind::GpcBcast:
    case Kind::Gpc: {
      auto it = gpc_slot_.find(w.off);
      if (it == gpc_slot_.end() || gpcs_ == 0) return nullptr;
      return &gpc_val_[w.gpc * gpc_slot_.size() + it->second];
    }
    case Kind::TpcBcast:
    case Kind::GpcTpcBcast:
    case Kind::Tpc: {
      auto it = tpc_slot_.find(w.off);
      if (it == tpc_slot_.end() || gpcs_ == 0 || tpcs_ == 0) return nullptr;
      return &tpc_val_[(size_t(w.gpc) * tpcs_ + w.tpc) * tpc_slot_.size() + it->second];
    }
    case Kind::PpcBcast:
    case Kind::GpcPpcBcast:
    case Kind::Ppc: {  // Where::tpc holds the PPC
      auto it = ppc_slot_.find(w.off);
      if (it == ppc_slot_.end() || gpcs_ == 0 || ppcs_ == 0) return nullptr;
      return &ppc_val_[(size_t(w.gpc) * ppcs_ + w.tpc) * ppc_slot_.size() + it->second];
    }
    case Kind::None:
      break;
  }
  return nullptr;
}

bool PgraphRegfile::accepts(uint32_t addr) const { return word(addr) != nullptr; }

bool PgraphRegfile::peek(uint32_t addr, uint32_t& value) const {
  const uint32_t* p = word(addr);
  if (p) value = *p;
  return p != nullptr;
}

bool PgraphRegfile::store(uint32_t addr, uint32_t v, unsigned& fanout) {
  fanout = 0;
  uint32_t* p = word(addr);
  if (!p) return false;
  const Where w = decode(addr, gpcs_, tpcs_, ppcs_);
  const size_t gs = gpc_slot_.size(), ts = tpc_slot_.size(), ps = ppc_slot_.size();
  if (w.kind == Kind::GpcBcast) {
    const size_t slot = size_t(p - gpc_val_.data());  // GPC 0's slot
    for (unsigned g = 0; g < gpcs_; ++g, ++fanout) gpc_val_[g * gs + slot] = v;
  } else if (w.kind == Kind::TpcBcast || w.kind == Kind::GpcTpcBcast) {
    const size_t slot = size_t(p - tpc_val_.data()) % ts;
    const unsigned g0 = w.kind == Kind::TpcBcast ? 0 : w.gpc, g1 = w.kind == Kind::TpcBcast ? gpcs_ : w.gpc + 1;
    for (unsigned g = g0; g < g1; ++g)
      for (unsigned t = 0; t < tpcs_; ++t, ++fanout) tpc_val_[(size_t(g) * tpcs_ + t) * ts + slot] = v;
  } else if (w.kind == Kind::PpcBcast || w.kind == Kind::GpcPpcBcast) {
    const size_t slot = size_t(p - ppc_val_.data()) % ps;
    const unsigned g0 = w.kind == Kind::PpcBcast ? 0 : w.gpc, g1 = w.kind == Kind::PpcBcast ? gpcs_ : w.gpc + 1;
    for (unsigned g = g0; g < g1; ++g)
      for (unsigned q = 0; q < ppcs_; ++q, ++fanout) ppc_val_[(size_t(g) * ppcs_ + q) * ps + slot] = v;
  } else {
    *p = v;
    fanout = 1;
  }
  return true;
}

void PgraphRegfile::b_transport(int, tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
  const uint64_t a = gp.get_address();
  if (gp.get_data_length() != 4 || (a & 3) || gp.get_byte_enable_ptr()) {
    ++errors;
    SC_REPORT_WARNING("hetvp/pgraph",
                      format("%s: registers take aligned 32-bit accesses only (0x%06llx, %u bytes, by %s)", name(),
                             static_cast<unsigned long long>(a), gp.get_data_length(), initiator_of(gp))
                          .c_str());
    gp.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return;
  }
  uint32_t v = 0;
  bool ok;
  if (gp.is_read()) {
    uint32_t* p = word(uint32_t(a));
    ok = p != nullptr;
    if (ok) {
      std::memcpy(gp.get_data_ptr(), p, 4);
      ++reads;
    }
  } else {
    std::memcpy(&v, gp.get_data_ptr(), 4);
    unsigned fanout = 0;
    ok = store(uint32_t(a), v, fanout);
    if (ok) {
      ++writes;
      if (fanout > 1) ++broadcast_writes;
    }
  }
  if (!ok) {
    ++errors;
    SC_REPORT_WARNING(
        "hetvp/pgraph",
        format("%s: unmodelled register 0x%06llx %s by %s (in PGRAPH's window, but in no register "
               "list of the chip and no model: docs/falcon.md \"GF100's register lists\")",
               name(), static_cast<unsigned long long>(a), gp.is_read() ? "read" : "written", initiator_of(gp))
            .c_str());
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned PgraphRegfile::transport_dbg(int, tlm::tlm_generic_payload& gp) {
  const uint64_t a = gp.get_address();
  if (gp.get_data_length() != 4 || (a & 3)) return 0;
  uint32_t* p = word(uint32_t(a));
  if (!p) return 0;
  if (gp.is_read()) {
    std::memcpy(gp.get_data_ptr(), p, 4);
  } else {
    uint32_t v;
    std::memcpy(&v, gp.get_data_ptr(), 4);
    unsigned fanout;
    store(uint32_t(a), v, fanout);
  }
  return 4;
}

}  // namespace hetvp::gpu::gr
