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

#include <systemc>

#include "platform/param_set.h"

namespace hetvp::coherence {

HETVP_ENUM(ProbeWait, ack, receiver);

// One side's keys (`directory.to_cpu`, `directory.to_gpu`). The defaults are gem5's chain towards
// the CPU core pairs; `to_gpu` changes `wait`, `ack` and `occupancy` (models/coherence/directory.h).
struct ProbeChainConfig : ParamSet {
  Enum<ProbeWait> wait{this, "wait", ProbeWait::ack,
                       "ack: the directory sends the next probe after the previous ack (each probe pays the whole "
                       "chain); receiver: probes stream, the receiver takes them in order (the chain's latency once, "
                       "per probe the walk + occupancy)"};
  Int<uint64_t> response_cycles{
      this, "response_cycles", 30,
      "directory cycles before a probe leaves (gem5 configs/ruby/GPU_VIPER.py: response_latency 30)", Min{0}};
  Int<uint64_t> hops{this, "hops", 4, "routers + links one way (gem5 GPU_VIPER: 2 routers + 2 links)", Min{0}};
  Time hop_latency{this, "hop_latency", "0.5 ns", "one router or link (gem5: 1 cycle at the 2 GHz ruby clock)"};
  Time ack{this, "ack", "60 ns", "the receiver's ack latency after its walk"};
  Time occupancy{this, "occupancy", "0 ns",
                 "wait: receiver: time the receiver spends per probe beyond its walk before it takes the next"};
};

// The timing of one side's chain, from its keys.
struct ProbeChain {
  ProbeChain() = default;
  // `directory_period`: one directory cycle (response_cycles are counted in it); `completion`: the
  // directory's completion after a probe's last ack (its `completion` key; wait: ack pays it per probe).
  ProbeChain(const ProbeChainConfig& c, sc_core::sc_time directory_period, sc_core::sc_time completion);

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
