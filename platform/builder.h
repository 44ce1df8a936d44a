// Builds a platform from a validated Config: instantiates every component through the
// registry, lets routers resolve their address maps, binds the `connect:` ports, terminates
// optional ports left open, and checks that nothing required is left unbound. Every problem is
// a ConfigError raised before simulation starts.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "platform/component.h"
#include "platform/config.h"

namespace hetvp {

class Builder {
 public:
  // Every component built joins `run` (platform/run_context.h).
  Builder(const Config& cfg, RunContext& run) : cfg_(cfg), run_(run) {}
  ~Builder();

  void build();

  const Config& config() const { return cfg_; }
  Component* find(const std::string& name) const;
  const std::vector<Component*>& components() const { return order_; }

  // Resolves "instance" or "instance.port" to a target socket and marks it bound.
  // `at`/`path` locate the reference for error messages.
  // `extent`, when given, receives the target port's declared extent (Component::target_extent).
  TargetSocketBase& resolve_target(const std::string& ref, const YAML::Node& at, const std::string& path,
                                   uint64_t* extent = nullptr);

 private:
  void bind_connections(Component* c, const YAML::Node& connect, const std::string& path, int index);
  void terminate_open_ports();

  const Config& cfg_;
  RunContext& run_;
  std::vector<std::unique_ptr<Component>> owned_;
  std::vector<Component*> order_;
  std::set<std::pair<Component*, std::string>> bound_;  // (component, port) already bound
  std::map<Component*, YAML::Node> where_;              // the instance's key in the YAML, for errors
  std::vector<std::unique_ptr<sc_core::sc_module>> terminators_;
};

// Replaces "{i}" in `text` by `index`.
std::string substitute_index(const std::string& text, int index);

}  // namespace hetvp
