// Base class of every model the builder instantiates from YAML.
//
// A component declares its ports by name in its constructor (expose_initiator / expose_target /
// expose_irq_out / expose_irq_in); the builder binds them as the YAML's `connect:` says. It
// declares its statistics in its StatGroup (stats(), platform/stats.h); dump_stats writes them
// into one deterministic JSON. It reports to its run (run_state(), tracer(): RunMember,
// platform/run_context.h), which the builder gives it once it is constructed.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>

#include "platform/irq.h"
#include "platform/json.h"
#include "platform/params.h"
#include "platform/run_context.h"
#include "platform/stats.h"

namespace hetvp {

using TargetSocketBase = tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;

class Builder;

class Component : public sc_core::sc_module, public RunMember {
 public:
  explicit Component(sc_core::sc_module_name name) : sc_core::sc_module(name), stats_(basename()) {}

  // The instance name as written in YAML (e.g. "pcie0", "gpc_2").
  std::string instance_name() const { return basename(); }

  // --- ports, by name -------------------------------------------------------------------
  // An optional port left unconnected in YAML is terminated by the builder (accesses to an
  // unconnected optional initiator get a TLM address error); a required one is a config error.
  template <class Socket>
  void expose_initiator(const std::string& port, Socket& s, bool optional = false) {
    initiators_[port] = [&s](TargetSocketBase& t) { s.bind(t); };
    if (optional) optional_.insert(port);
  }
  void expose_target(const std::string& port, TargetSocketBase& s, bool optional = false) {
    targets_[port] = &s;
    if (optional) optional_.insert(port);
  }
  void expose_irq_out(const std::string& port, IrqPort& p, bool optional = false) {
    irq_outs_[port] = &p;
    if (optional) optional_.insert(port);
  }
  void expose_irq_in(const std::string& port, IrqExport& e) { irq_ins_[port] = &e; }
  // A target port that answers offsets 0..bytes-1 only (a memory's size) says so, and a router
  // refuses at build time (hetvp check, too) a map entry reaching past it. 0 = not declared.
  void declare_target_extent(const std::string& port, uint64_t bytes) { extents_[port] = bytes; }
  uint64_t target_extent(const std::string& port) const {
    auto it = extents_.find(port);
    return it == extents_.end() ? 0 : it->second;
  }
  bool is_optional(const std::string& port) const { return optional_.count(port) != 0; }

  std::vector<std::string> initiator_ports() const;
  std::vector<std::string> target_ports() const;
  std::vector<std::string> irq_out_ports() const;
  std::vector<std::string> irq_in_ports() const;
  TargetSocketBase* target(const std::string& port) const;
  IrqExport* irq_in(const std::string& port) const;
  bool bind_initiator(const std::string& port, TargetSocketBase& t);  // false: no such port
  bool bind_irq_out(const std::string& port, IrqExport& e);

  // Called once every instance exists, for components that resolve references themselves
  // (a router's address map). Throws ConfigError on bad references.
  virtual void connect_phase(Builder&) {}
  // Called after sc_start returns, before stats are written.
  virtual void end_of_run() {}
  // This component's statistics, declared in its constructor (platform/stats.h).
  StatGroup& stats() { return stats_; }
  const StatGroup& stats() const { return stats_; }
  // Writes this component's statistics (declaration order) into `w`'s current object.
  virtual void dump_stats(JsonWriter& w) const { stats_.dump(w); }

 private:
  std::map<std::string, std::function<void(TargetSocketBase&)>> initiators_;
  std::map<std::string, TargetSocketBase*> targets_;
  std::map<std::string, IrqPort*> irq_outs_;
  std::map<std::string, IrqExport*> irq_ins_;
  std::set<std::string> optional_;
  std::map<std::string, uint64_t> extents_;
  StatGroup stats_;
};

}  // namespace hetvp
