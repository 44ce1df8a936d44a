// The current simulation time, read inline.
//
// sc_core::sc_time_stamp() is a function exported by libsystemc: every use is a call through the
// PLT. The simulation context's time_stamp() is inline in SystemC's header and returns the same
// reference. Transaction paths read the time several times per access (an uncached read reads it
// in the host CPU, the PCIe link and the quantum keeper), so they use this (#31: ~2 % of the main
// job was sc_time_stamp and its PLT stub).
#pragma once

#include <systemc>

namespace hetvp {

inline const sc_core::sc_time& sim_now() { return sc_core::sc_get_curr_simcontext()->time_stamp(); }

}  // namespace hetvp
