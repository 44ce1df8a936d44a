// An address router (a bus interconnect without arbitration timing beyond a fixed latency).
//
// YAML:
//   host_bus:
//     type: router
//     latency: 2 ns
//     map:
//       - {to: host_mem, base: 0x0, size: 1 GiB}          # target sees offsets from base
//       - {to: rc.mmio, base: 0x80000000, size: 1.5 GiB, absolute: true}  # target sees full address
//       - {to: gpc_{i}, base: 0x502000, size: 0x1000, repeat: 4, stride: 0x8000}
// Entries are sorted at build time; overlapping entries are a config error naming both.
// An access that hits no entry gets TLM_ADDRESS_ERROR_RESPONSE and a warning naming the
// address and the initiator. DMI and debug transport are forwarded with address translation.
#pragma once

#include <string>
#include <vector>

#include <tlm_utils/multi_passthrough_initiator_socket.h>

#include "platform/component.h"
#include "platform/direct_target_socket.h"
#include "platform/param_set.h"
#include "platform/trace_track.h"

namespace hetvp {

// One entry of a router's address map.
struct MapEntry : ParamSet {
  Str to{this, "to", nullptr, "target: instance or instance.port ({i} = repeat index)", Required{}};
  Int<uint64_t> base{this, "base", 0, "first address of the range", Required{}, Min{0}};
  Size size{this, "size", nullptr, "size of the range", Required{}};
  Bool absolute{this, "absolute", false, "pass the full address on (default: the offset from base)"};
  Int<unsigned> repeat{this, "repeat", 1, "map this entry N times, {i} in 'to' replaced by 0..N-1", Range{1, 4096}};
  Size stride{this, "stride", "0", "address step between repeated entries"};
};

// The parameters of a router (YAML type `router`).
struct RouterConfig : ParamSet {
  Time latency{this, "latency", "0 ns", "time added to every access crossing the router"};
  List<MapEntry> map{this, "map", "address map: list of {to, base, size, absolute, repeat, stride}"};
  void validate(Diagnostics& d) const override;
};

class Router : public Component {
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);  // (named by `in`)

 public:
  // Any number of initiators; the router does not ask which one called (a direct call per access
  // instead of a multi-socket's binder and functor, #31).
  DirectTargetSocket<Router, &Router::b_transport, 0> in{"in", this};
  tlm_utils::multi_passthrough_initiator_socket<Router> out{"out"};

  using Config = RouterConfig;
  Router(sc_core::sc_module_name name, const RouterConfig& c);

  // Adds a mapping programmatically (composite components build internal routers this way).
  // Overlapping ranges, or a range beyond limit(), are a ConfigError naming both labels and ranges.
  void map(const std::string& label, uint64_t base, uint64_t size, TargetSocketBase& target, bool absolute = false);
  // Every range must lie inside [0, size); `what` names that space in the error (e.g. "BAR0 of
  // 16 MiB (gpu0.pcie.bar0_size)"). Checked for ranges mapped before and after.
  void limit(uint64_t size, const std::string& what);
  // The ranges mapped so far (label, base, size), for a block that fills what others leave free.
  struct Range {
    std::string label;
    uint64_t base, size;
  };
  std::vector<Range> ranges() const;

  void connect_phase(Builder& b) override;
  void end_of_elaboration() override;

 private:
  void declare_stats();  // this component's statistics, declared once (platform/stats.h)
  struct Entry {
    std::string label;
    uint64_t base, size;
    unsigned out_index;
    bool absolute;
    mutable FwCall call;  // out[out_index]'s b_transport, resolved at the first access
  };
  // Accesses come in runs to one target: the last hit first, inline; the search out of line.
  const Entry* decode(uint64_t addr) const {
    if (last_ && addr - last_->base < last_->size) return last_;
    return search(addr);
  }
  const Entry* search(uint64_t addr) const;
  mutable const Entry* last_ = nullptr;  // the entry decode found last: checked first (#31)
  unsigned transport_dbg(tlm::tlm_generic_payload& gp);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);

  std::vector<MapEntry> map_;  // the YAML's map, resolved in connect_phase
  sc_core::sc_time latency_;
  void check_limit(const std::string& label, uint64_t base, uint64_t size) const;
  std::vector<Entry> entries_;  // sorted by base after elaboration
  uint64_t limit_ = 0;          // 0: the whole address space
  std::string limit_what_;
  TraceTrack track_;  // off unless asked (simulation.trace_routers, trace: true): a span per routed access
  unsigned next_out_ = 0;
  uint64_t transactions_ = 0, unmapped_ = 0, dmi_grants_ = 0;
};

}  // namespace hetvp
