#include "platform/builder.h"

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "platform/host_memory.h"
#include "platform/registry.h"

namespace hetvp {

namespace {

// Closes an optional target port nobody connected: SystemC insists every socket is bound.
struct OpenTargetTerminator : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<OpenTargetTerminator> socket{"socket"};
  explicit OpenTargetTerminator(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};

// Answers every access of an optional initiator port nobody connected with an address error.
struct OpenInitiatorTerminator : sc_core::sc_module {
  tlm_utils::simple_target_socket<OpenInitiatorTerminator> socket{"socket"};
  explicit OpenInitiatorTerminator(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    socket.register_b_transport(this, &OpenInitiatorTerminator::b_transport);
    socket.register_transport_dbg(this, &OpenInitiatorTerminator::dbg);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time&) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }
  unsigned dbg(tlm::tlm_generic_payload& gp) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
};

// Swallows interrupts of an optional interrupt output nobody connected.
struct OpenIrqTerminator : sc_core::sc_module, IrqIf {
  IrqExport in{"in"};
  explicit OpenIrqTerminator(sc_core::sc_module_name n) : sc_core::sc_module(n) { in.bind(*this); }
  void raise(unsigned, const sc_core::sc_time&) override {}
};

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s.empty() ? "none" : s;
}

}  // namespace

std::string substitute_index(const std::string& text, int index) {
  std::string out = text;
  for (size_t p; (p = out.find("{i}")) != std::string::npos;) out.replace(p, 3, std::to_string(index));
  return out;
}

Builder::~Builder() = default;

Component* Builder::find(const std::string& name) const {
  for (auto* c : order_)
    if (c->instance_name() == name) return c;
  return nullptr;
}

TargetSocketBase& Builder::resolve_target(const std::string& ref, const YAML::Node& at, const std::string& path,
                                          uint64_t* extent) {
  std::string inst = ref, port;
  auto dot = ref.find('.');
  if (dot != std::string::npos) {
    inst = ref.substr(0, dot);
    port = ref.substr(dot + 1);
  }
  Component* c = find(inst);
  if (!c) {
    std::vector<std::string> names;
    for (auto* x : order_) names.push_back(x->instance_name());
    std::string near = nearest_name(inst, names);
    throw ConfigError(cfg_.location(at) + ": " + path + ": no instance named '" + inst + "'" +
                      (near.empty() ? "" : " (did you mean '" + near + "'?)"));
  }
  auto ports = c->target_ports();
  if (port.empty()) {
    if (ports.size() == 1) {
      port = ports[0];
    } else if (c->target("in")) {
      port = "in";
    } else {
      throw ConfigError(cfg_.location(at) + ": " + path + ": '" + inst + "' has several target ports (" +
                        join(ports) + "); name one as " + inst + ".PORT");
    }
  }
  TargetSocketBase* t = c->target(port);
  if (!t) {
    std::string near = nearest_name(port, ports);
    throw ConfigError(cfg_.location(at) + ": " + path + ": '" + inst + "' has no target port '" + port + "'" +
                      (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; its target ports: " + join(ports));
  }
  bound_.insert({c, port});
  if (extent) *extent = c->target_extent(port);
  return *t;
}

void Builder::bind_connections(Component* c, const YAML::Node& connect, const std::string& path, int index) {
  for (auto it = connect.begin(); it != connect.end(); ++it) {
    std::string port = it->first.Scalar();
    std::string ref = substitute_index(it->second.Scalar(), index);
    std::string p = path + ".connect." + port;
    if (bound_.count({c, port}))
      throw ConfigError(cfg_.location(it->first) + ": " + p + ": port '" + port + "' is already connected");
    auto inits = c->initiator_ports();
    auto irqs = c->irq_out_ports();
    if (std::find(inits.begin(), inits.end(), port) != inits.end()) {
      TargetSocketBase& t = resolve_target(ref, it->second, p);
      c->bind_initiator(port, t);
    } else if (std::find(irqs.begin(), irqs.end(), port) != irqs.end()) {
      std::string inst = ref, tport = "irq";
      auto dot = ref.find('.');
      if (dot != std::string::npos) {
        inst = ref.substr(0, dot);
        tport = ref.substr(dot + 1);
      }
      Component* sink = find(inst);
      if (!sink) throw ConfigError(cfg_.location(it->second) + ": " + p + ": no instance named '" + inst + "'");
      IrqExport* e = sink->irq_in(tport);
      if (!e)
        throw ConfigError(cfg_.location(it->second) + ": " + p + ": '" + inst + "' has no interrupt input '" + tport +
                          "'; its interrupt inputs: " + join(sink->irq_in_ports()));
      c->bind_irq_out(port, *e);
    } else {
      std::vector<std::string> all = inits;
      all.insert(all.end(), irqs.begin(), irqs.end());
      std::string near = nearest_name(port, all);
      throw ConfigError(cfg_.location(it->first) + ": " + p + ": '" + c->instance_name() + "' has no output port '" +
                        port + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)") +
                        "; its ports: " + join(all));
    }
    bound_.insert({c, port});
  }
}

void Builder::terminate_open_ports() {
  for (auto* c : order_) {
    for (auto& port : c->initiator_ports()) {
      if (bound_.count({c, port})) continue;
      if (!c->is_optional(port))
        throw ConfigError(cfg_.location(where_[c]) + ": " + c->instance_name() + ": required port '" + port +
                          "' is not connected (add it under " + c->instance_name() + ".connect)");
      auto t = std::make_unique<OpenInitiatorTerminator>((c->instance_name() + "_" + port + "_open").c_str());
      c->bind_initiator(port, t->socket);
      terminators_.push_back(std::move(t));
    }
    for (auto& port : c->target_ports()) {
      if (bound_.count({c, port})) continue;
      if (!c->is_optional(port))
        throw ConfigError(cfg_.location(where_[c]) + ": " + c->instance_name() + ": target port '" + port +
                          "' is not connected to anything (map it in a router or connect an initiator to it)");
      auto t = std::make_unique<OpenTargetTerminator>((c->instance_name() + "_" + port + "_open").c_str());
      t->socket.bind(*c->target(port));
      terminators_.push_back(std::move(t));
    }
    for (auto& port : c->irq_out_ports()) {
      if (bound_.count({c, port})) continue;
      if (!c->is_optional(port))
        throw ConfigError(cfg_.location(where_[c]) + ": " + c->instance_name() + ": interrupt output '" + port +
                          "' is not connected");
      auto t = std::make_unique<OpenIrqTerminator>((c->instance_name() + "_" + port + "_open").c_str());
      c->bind_irq_out(port, t->in);
      terminators_.push_back(std::move(t));
    }
  }
}

void Builder::build() {
  cfg_.validate();
  const YAML::Node& root = cfg_.root;
  struct Pending {
    Component* c;
    YAML::Node connect;
    std::string path;
    int index;
  };
  std::vector<Pending> pending;
  std::map<std::string, YAML::Node> keys;  // instance name -> its key, which locates the instance
  for (auto it = root.begin(); it != root.end(); ++it) keys.emplace(it->first.Scalar(), it->first);
  for (auto& name : cfg_.instance_names()) {
    const YAML::Node& inst = root[name];
    const ComponentType* ct = ComponentRegistry::get().find(inst["type"].Scalar());
    auto schema = ct->schema();
    int count = inst["count"] ? static_cast<int>(parse_int(inst["count"].Scalar())) : 1;
    for (int i = 0; i < count; ++i) {
      std::string iname = count == 1 && !inst["count"] ? name : name + "_" + std::to_string(i);
      Params p(inst, schema, iname, cfg_.source);
      Component* c = nullptr;
      try {
        c = ct->create(iname.c_str(), p);
      } catch (const ConfigError&) {
        throw;
      } catch (const std::exception& e) {
        throw ConfigError(cfg_.location(inst) + ": " + iname + ": " + e.what());
      }
      owned_.emplace_back(c);
      join_run(*c, run_);
      order_.push_back(c);
      where_[c] = keys[name];
      pending.push_back({c, inst["connect"], iname, i});
    }
  }
  // Nothing sized by a parameter is allocated yet (platform/host_memory.h): refuse what would not fit.
  const SimulationConfig sim = cfg_.simulation();
  check_host_memory_budget(host_memory_shares(std::vector<sc_core::sc_object*>(order_.begin(), order_.end())),
                           sim.memory_budget,
                           sim.memory_budget.given() ? "set at " + sim.memory_budget.where() : "the default");
  for (auto* c : order_) c->connect_phase(*this);
  for (auto& p : pending)
    if (p.connect) bind_connections(p.c, p.connect, p.path, p.index);
  terminate_open_ports();
}

}  // namespace hetvp
