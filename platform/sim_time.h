// The current simulation time, read inline.
//
// sc_core::sc_time_stamp() is a function exported by libsystemc: every use is a call through the
// PLT. The simulation context's time_stamp() is inline in SystemC's header and returns the same
// reference. Transaction paths read the time several times per access (an uncached read reads it
// in the host CPU, the PCIe link and the quantum keeper), so they use this (#31: ~2 % of the main
// job was sc_time_stamp and its PLT entry). sc_get_curr_simcontext() is inline too but large (it
// creates the default context when there is none), so compilers keep it out of line: the context
// pointer is read here, and the function called only before there is one.
#pragma once

#include <systemc>

namespace hetvp {

inline const sc_core::sc_time& sim_now() {
  sc_core::sc_simcontext* c = sc_core::sc_curr_simcontext;
  return (c ? c : sc_core::sc_get_curr_simcontext())->time_stamp();
}

}  // namespace hetvp
