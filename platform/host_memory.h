// The host memory a platform takes before it simulates anything, checked against a budget.
//
// A model whose storage is sized by its parameters (a cache's data and tags, a memory's chunk
// table) derives from HostMemoryUser and says how many bytes it allocates up front, and which
// parameter decides it. It allocates nothing while the platform is only built (`hetvp check`):
// a cache takes its arrays when the simulation starts. The builder sums every module's claim once
// the platform is built and refuses, with a ConfigError located at the largest contributor, a
// platform that would take more than `simulation.memory_budget`: a fixed number, not the host's
// size, so a configuration is accepted or refused the same on every machine (docs/reliability.md,
// "Memory a configuration cannot blow up"). Memory a run takes later (a sparse memory's chunks as
// they are touched) is not claimed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

namespace hetvp {

class HostMemoryUser {
 public:
  virtual ~HostMemoryUser() = default;
  // Bytes allocated before or when the simulation starts (storage sized by parameters).
  virtual uint64_t up_front_host_bytes() const = 0;
  // The parameter that sizes them, as ParamBase::where() gives it ("file:line:col (a.b.size)").
  virtual std::string host_bytes_origin() const = 0;
};

// One origin's share: the modules sized by one parameter (the four TCPs of one `tcp.size`).
struct HostMemoryShare {
  std::string origin;
  std::vector<std::string> modules;  // sc_object names
  uint64_t bytes = 0;
};

// Every claim of the modules under `tops` (their children included), grouped by origin, largest
// first (ties by origin).
std::vector<HostMemoryShare> host_memory_shares(const std::vector<sc_core::sc_object*>& tops);

// Throws ConfigError when the shares add up to more than `budget` bytes: "ORIGIN: the platform
// would allocate X of host memory before simulating, more than simulation.memory_budget (B,
// BUDGET_ORIGIN); largest: ...". `budget_origin`: "the default" or "set at FILE:LINE:COL (...)".
void check_host_memory_budget(const std::vector<HostMemoryShare>& shares, uint64_t budget,
                              const std::string& budget_origin);

// "1.5 GiB", "640 KiB", "12 bytes": a byte count for messages.
std::string byte_text(uint64_t bytes);

}  // namespace hetvp
