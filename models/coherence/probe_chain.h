// What a probe costs towards one target side (the directory's `probe_timing: per_side`, YAML
// groups `directory.to_cpu` and `directory.to_gpu`; docs/coherence.md "Per-side probe chains").
//
// One probe's chain, as in gem5's GPU_VIPER (SPEC §7a): the directory's response latency before
// the probe leaves, the network one way (`hops` routers/links of `hop_latency`), the receiver's
// tag walk (reported by its cache controller), the receiver's ack latency, the network back.
// What differs between the sides is how probes overlap (`wait`):
//   ack       the directory sends the next probe only after the previous probe completed (its
//             ack arrived and the directory's completion cycle passed, as gem5's directory ends a
//             probe's transaction with its AcksComplete trigger): every probe pays the whole chain.
//   receiver  the directory streams the probes; the receiver takes them in order, each occupies it
//             for its walk plus `occupancy`: the chain's latency is paid once per invalidation.
// The values and their sources are in configs/coherence.yaml and docs/coherence.md.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include <systemc>

#include "platform/params.h"

namespace hetvp::coherence {

struct ProbeChain {
  // Defaults of one side's keys (the schema of `directory.to_cpu` / `directory.to_gpu`).
  struct Defaults {
    const char* wait;
    int response_cycles, hops;
    const char *hop_latency, *ack, *occupancy;
  };
  static std::shared_ptr<Schema> schema(const Defaults& d);

  ProbeChain() = default;
  // `directory_period`: one directory cycle (response_cycles are counted in it); `completion`: the
  // directory's completion after a probe's last ack (its `completion` key; wait: ack pays it per probe).
  ProbeChain(const Params& p, sc_core::sc_time directory_period, sc_core::sc_time completion);

  bool wait_for_ack = true;
  sc_core::sc_time response, net, ack, occupancy, completion;  // net: one way

  // The timing of one invalidation's probes, from `start` (all times relative to the caller's
  // SystemC time, as a b_transport delay).
  class Run {
   public:
    Run(const ProbeChain& c, sc_core::sc_time start)
        : c_(c), leave_(start + c.response), free_(start), last_ack_(start) {}
    // When the next probe reaches the receiver and its walk can start.
    sc_core::sc_time walk_start() const { return std::max(leave_ + c_.net, free_); }
    // The receiver walked that probe's lines in `walk`.
    void walked(sc_core::sc_time walk);
    // When the last ack is back at the directory (`start` when nothing was sent).
    sc_core::sc_time last_ack() const { return last_ack_; }
    unsigned long long probes() const { return probes_; }

   private:
    const ProbeChain& c_;
    sc_core::sc_time leave_, free_, last_ack_;  // next probe leaves; receiver free; last ack back
    unsigned long long probes_ = 0;
  };
};

}  // namespace hetvp::coherence
