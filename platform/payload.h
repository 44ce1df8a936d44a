// Filling a generic payload for one plain access: every initiator in hetvp does this the same
// way (no byte enables, streaming width = length, response reset to incomplete).
#pragma once

#include <cstdint>

#include <tlm>

namespace hetvp {

inline void set_access(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, uint64_t addr, void* data, unsigned len) {
  gp.set_command(cmd);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(len);
  gp.set_streaming_width(len);
  gp.set_byte_enable_ptr(nullptr);
  gp.set_dmi_allowed(false);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace hetvp
