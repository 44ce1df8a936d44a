#include "platform/router.h"

#include <algorithm>
#include <cinttypes>

#include "platform/access_info.h"
#include "platform/builder.h"
#include "platform/registry.h"
#include "platform/format.h"
#include "platform/trace.h"
#include "platform/trace_track.h"
#include "platform/sim_time.h"

namespace hetvp {


HETVP_REGISTER_COMPONENT("router", Router, "address router: forwards each access to the target whose range holds it");

void RouterConfig::validate(Diagnostics& d) const {
  // view().where(): the router's own block, where a missing map would be.
  if (map.empty()) d.error(view().where() + ": a router needs a 'map' with at least one entry");
}

Router::Router(sc_core::sc_module_name name, const RouterConfig& c)
    : Component(name), map_(c.map()), track_(this->name(), false) {
  latency_ = c.latency;
  in.register_transport_dbg(&Router::transport_dbg);
  in.register_get_direct_mem_ptr(&Router::get_direct_mem_ptr);
  out.register_invalidate_direct_mem_ptr(this, &Router::invalidate_direct_mem_ptr);
  expose_target("in", in);
  declare_stats();
}

void Router::map(const std::string& label, uint64_t base, uint64_t size, TargetSocketBase& target, bool absolute) {
  if (size == 0) throw ConfigError(label + ": address range of size 0");
  if (base + size < base) throw ConfigError(label + ": address range wraps around the address space");
  for (auto& e : entries_) {
    if (base < e.base + e.size && e.base < base + size) {
      std::string buf = format("[0x%" PRIx64 ", 0x%" PRIx64 ") overlaps [0x%" PRIx64 ", 0x%" PRIx64 ") of ", base,
                               base + size, e.base, e.base + e.size);
      throw ConfigError(label + ": " + name() + ": range " + buf + e.label);
    }
  }
  check_limit(label, base, size);
  out.bind(target);
  entries_.push_back({label, base, size, next_out_++, absolute});
  last_ = nullptr;  // entries_ may have moved
}

std::vector<Router::Range> Router::ranges() const {
  std::vector<Range> v;
  for (const Entry& e : entries_) v.push_back({e.label, e.base, e.size});
  return v;
}

void Router::limit(uint64_t size, const std::string& what) {
  limit_ = size;
  limit_what_ = what;
  for (auto& e : entries_) check_limit(e.label, e.base, e.size);
}

void Router::check_limit(const std::string& label, uint64_t base, uint64_t size) const {
  if (limit_ == 0 || (base < limit_ && size <= limit_ - base)) return;
  throw ConfigError(label + ": " + name() + ": range " + format("[0x%" PRIx64 ", 0x%" PRIx64 ")", base, base + size) +
                    " lies outside " + limit_what_ + " " + format("[0x0, 0x%" PRIx64 ")", limit_));
}

void Router::connect_phase(Builder& b) {
  for (const MapEntry& e : map_) {
    for (unsigned i = 0; i < e.repeat; ++i) {
      std::string to = substitute_index(e.to, static_cast<int>(i));
      uint64_t base = e.base + i * e.stride;
      std::string label = b.config().location(e.to.value_node()) + " (" + e.yaml_path() + " -> " + to + ")";
      uint64_t extent = 0;
      TargetSocketBase& t = b.resolve_target(to, e.to.value_node(), e.yaml_path() + ".to", &extent);
      map(label, base, e.size, t, e.absolute);
      // The target answers offsets below its extent only (a memory's size): a range reaching past
      // it would fail at run time on the first access there (a debug write, a DMA).
      const uint64_t size = e.size, last = e.absolute ? base + size : size;
      if (extent != 0 && last > extent)
        throw ConfigError(
            label + ": " + name() + ": range " + format("[0x%" PRIx64 ", 0x%" PRIx64 ")", base, base + size) +
            (e.absolute ? " (absolute addresses)" : "") + " reaches offset " + format("0x%" PRIx64, last) + ", but " +
            to + " has only " + std::to_string(extent) + " bytes (its size)");
    }
  }
}

void Router::end_of_elaboration() {
  std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.base < b.base; });
  last_ = nullptr;
}

const Router::Entry* Router::search(uint64_t addr) const {
  // entries_ is sorted by base: the candidate is the last entry whose base <= addr.
  auto it =
      std::upper_bound(entries_.begin(), entries_.end(), addr, [](uint64_t a, const Entry& e) { return a < e.base; });
  if (it == entries_.begin()) return nullptr;
  --it;
  if (addr - it->base >= it->size) return nullptr;
  last_ = &*it;
  return last_;
}

void Router::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  ++transactions_;
  uint64_t addr = gp.get_address();
  const Entry* e = decode(addr);
  if (!e || addr + gp.get_data_length() - 1 - e->base >= e->size) {
    ++unmapped_;
    std::string buf = format("%s: access to unmapped address 0x%" PRIx64 " (%u bytes) by %s", name(), addr,
                             gp.get_data_length(), initiator_of(gp));
    SC_REPORT_WARNING("hetvp/router", buf.c_str());
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay += latency_;
  if (!e->absolute) gp.set_address(addr - e->base);
  // Routers are traced only when asked (simulation.trace_routers or this instance's trace: true):
  // a span per routed access is most of a trace's size.
  if (!e->call.resolved()) e->call.resolve(out[e->out_index]);
  if (track_.on(tracer())) {
    const sc_core::sc_time t0 = hetvp::sim_now() + delay - latency_;
    e->call(gp, delay);
    tracer().span(track_.name(), std::string(gp.is_read() ? "read " : "write ") + e->label, t0, hetvp::sim_now() + delay - t0,
                  format("\"addr\":%" PRIu64 ",\"size\":%u", addr, gp.get_data_length()));
  } else {
    e->call(gp, delay);
  }
  gp.set_address(addr);
}

unsigned Router::transport_dbg(tlm::tlm_generic_payload& gp) {
  uint64_t addr = gp.get_address();
  const Entry* e = decode(addr);
  if (!e) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  if (!e->absolute) gp.set_address(addr - e->base);
  unsigned n = out[e->out_index]->transport_dbg(gp);
  gp.set_address(addr);
  return n;
}

bool Router::get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
  uint64_t addr = gp.get_address();
  const Entry* e = decode(addr);
  if (!e) return false;
  uint64_t off = e->absolute ? 0 : e->base;
  gp.set_address(addr - off);
  bool ok = out[e->out_index]->get_direct_mem_ptr(gp, dmi);
  gp.set_address(addr);
  if (!ok) return false;
  // Translate the granted range back into this router's address space, clipped to the entry.
  uint64_t start = dmi.get_start_address() + off, end = dmi.get_end_address() + off;
  uint64_t lo = std::max(start, e->base), hi = std::min(end, e->base + e->size - 1);
  dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (lo - start));
  dmi.set_start_address(lo);
  dmi.set_end_address(hi);
  dmi.set_read_latency(dmi.get_read_latency() + latency_);
  dmi.set_write_latency(dmi.get_write_latency() + latency_);
  ++dmi_grants_;
  return true;
}

void Router::invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (auto& e : entries_) {
    if (e.out_index != static_cast<unsigned>(id)) continue;
    uint64_t off = e.absolute ? 0 : e.base;
    uint64_t s = start + off, t = end + off;
    if (t < s) t = ~0ull;  // overflow: invalidate to the top
    for (int i = 0; i < in.size(); ++i) in[i]->invalidate_direct_mem_ptr(s, t);
  }
}

void Router::declare_stats() {
  stats()
      .counter("transactions", "count", "transactions routed (b_transport)", transactions_)
      .counter("unmapped", "count", "transactions to an address no map entry covers (address error)", unmapped_)
      .counter("dmi_grants", "count", "DMI requests granted by a target behind this router", dmi_grants_);
}

}  // namespace hetvp
