#include "models/coherence/probe_chain.h"

namespace hetvp::coherence {

ProbeChain::ProbeChain(const ProbeChainConfig& c, sc_core::sc_time directory_period, sc_core::sc_time completion_time)
    : wait_for_ack(c.wait == ProbeWait::ack),
      response(directory_period * static_cast<double>(c.response_cycles)),
      net(c.hop_latency() * static_cast<double>(c.hops)),
      ack(c.ack),
      occupancy(c.occupancy),
      completion(completion_time) {}

void ProbeChain::Run::walked(sc_core::sc_time walk) {
  const sc_core::sc_time done = walk_start() + walk;
  free_ = done + c_.occupancy;
  const sc_core::sc_time ack_back = done + c_.ack + c_.net;
  if (ack_back > last_ack_) last_ack_ = ack_back;
  // wait: ack -- the next probe leaves a response latency after this probe completed (its ack
  // back, then the directory's completion cycle: gem5 MOESI_AMD_Base-dir.sm:1157-1162, the
  // AcksComplete trigger 1 cycle after the last ack); receiver -- it left with this one (the
  // receiver queues it). The last probe's completion is the invalidation's, added by the caller.
  if (c_.wait_for_ack) leave_ = ack_back + c_.completion + c_.response;
  ++probes_;
}

}  // namespace hetvp::coherence
