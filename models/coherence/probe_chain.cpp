#include "models/coherence/probe_chain.h"

namespace hetvp::coherence {

std::shared_ptr<Schema> ProbeChain::schema(const Defaults& d) {
  auto s = std::make_shared<Schema>();
  s->choice("wait", {"ack", "receiver"}, std::string(d.wait),
            "ack: the directory sends the next probe after the previous ack (each probe pays the whole chain); "
            "receiver: probes stream, the receiver takes them in order (the chain's latency once, per probe the "
            "walk + occupancy)");
  s->integer("response_cycles", d.response_cycles,
             "directory cycles before a probe leaves (gem5 configs/ruby/GPU_VIPER.py: response_latency 30)")
      .min(0);
  s->integer("hops", d.hops, "routers + links one way (gem5 GPU_VIPER: 2 routers + 2 links)").min(0);
  s->time("hop_latency", std::string(d.hop_latency), "one router or link (gem5: 1 cycle at the 2 GHz ruby clock)");
  s->time("ack", std::string(d.ack), "the receiver's ack latency after its walk");
  s->time("occupancy", std::string(d.occupancy),
          "wait: receiver: time the receiver spends per probe beyond its walk before it takes the next");
  return s;
}

ProbeChain::ProbeChain(const Params& p, sc_core::sc_time directory_period, sc_core::sc_time completion_time)
    : wait_for_ack(p.string("wait") == "ack"),
      response(directory_period * static_cast<double>(p.integer("response_cycles"))),
      net(p.time("hop_latency") * static_cast<double>(p.integer("hops"))),
      ack(p.time("ack")),
      occupancy(p.time("occupancy")),
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
