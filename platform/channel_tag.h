// The channel an engine works for, carried on its bus payloads (Fermi engines know their channel
// by its instance pointer). The GPU MMU translates a tagged access with that channel's page
// directory (instance block +0x200, fifo.h INST_PD_BASE) and names the channel in a fault; an
// untagged access uses MMU PD_BASE as before. Set by the FIFO (fetches, semaphores), the copy
// engine (COPY_CHAN) and the compute front end (CMP_CHAN); caches copy it onto their fills. It is
// here, beside AccessInfo, because models of other folders carry it (models/cache), and a cache
// must not include the GPU's folder that includes the cache.
#pragma once

#include <cstdint>

#include <tlm>

namespace hetvp::gpu {

struct ChannelTag : tlm::tlm_extension<ChannelTag> {
  bool valid = false;
  uint32_t chid = 0;
  uint64_t inst = 0;  // VRAM byte address of the channel's instance block
  tlm::tlm_extension_base* clone() const override { return new ChannelTag(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { *this = static_cast<const ChannelTag&>(e); }
};

// Copies `from`'s tag (or its absence) onto `to`, which must own a ChannelTag it keeps attached.
inline void forward_channel(const tlm::tlm_generic_payload& from, ChannelTag& to) {
  const ChannelTag* t = from.get_extension<ChannelTag>();
  if (t)
    to = *t;
  else
    to.valid = false;
}

}  // namespace hetvp::gpu
