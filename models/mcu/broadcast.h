// hetvp — the GPC broadcast window, one for every microcontroller block: a write reaches every
// GPC's model in index order (the response is the worst of theirs), a read is served by GPC 0.
// T serves a host access of its register window: void T::host_access(gp, delay).
#pragma once

#include <cstdint>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

namespace hetvp::mcu {

template <class T>
class Broadcast : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Broadcast> in{"in"};
  Broadcast(sc_core::sc_module_name n, std::vector<T*> gpcs) : sc_core::sc_module(n), gpcs_(std::move(gpcs)) {
    in.register_b_transport(this, &Broadcast::b_transport);
  }
  uint64_t writes = 0, reads = 0;

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    if (gp.is_read()) {
      ++reads;
      gpcs_.front()->host_access(gp, delay);
      return;
    }
    ++writes;
    tlm::tlm_response_status worst = tlm::TLM_OK_RESPONSE;
    for (T* m : gpcs_) {
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      m->host_access(gp, delay);
      if (!gp.is_response_ok()) worst = gp.get_response_status();
    }
    gp.set_response_status(worst);
  }
  std::vector<T*> gpcs_;
};

}  // namespace hetvp::mcu
