// Coherence checker: a shadow memory of the latest value stored to every byte of shared data,
// fed by the cache controllers at the point a store enters a processor's cache hierarchy (program
// order). For a data-race-free program under release consistency every cached load must return
// the latest value stored (the stores of the other side were released before the load's side
// acquired). A load that returns anything else is a coherence violation: the run fails naming
// the address, the loading side and both values. Enabled by any cache controller with
// `checker: true` (YAML).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

#include "platform/run_context.h"

namespace hetvp::coherence {

class Checker {
 public:
  // One per run: RunContext::service<Checker>() (the run it fails on a violation).
  explicit Checker(RunContext& run) : run_(run.run_state) {}
  void enable() { enabled_ = true; }
  bool enabled() const { return enabled_; }
  void store(uint64_t key, const uint8_t* data, unsigned len);
  // Returns false (and fails the run) when a byte differs from the latest stored value. Only
  // bytes with a nonzero `consumed` entry are checked (nullptr: every byte): bytes a load fetched
  // but nobody uses may be stale (the GPU's L1s are not coherent with each other within a kernel).
  bool load(uint64_t key, const uint8_t* data, unsigned len, const char* who, const uint8_t* consumed = nullptr);
  uint64_t loads_checked() const { return loads_; }
  uint64_t violations() const { return violations_; }

 private:
  struct Page {
    uint8_t data[4096];
    uint8_t valid[4096];
  };
  Page& page(uint64_t key);
  RunState& run_;
  bool enabled_ = false;
  std::unordered_map<uint64_t, std::unique_ptr<Page>> pages_;
  uint64_t loads_ = 0, violations_ = 0;
};

}  // namespace hetvp::coherence
