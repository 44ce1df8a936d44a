// hetvp — `hetvp run`'s progress line on stderr (simulated time and simulation rate).
//
// The simulation runs as consecutive sc_start() slices up to the limit instead of one
// sc_start(limit); between two slices nothing is simulated and only sc_time_stamp() is read, so
// the models see the same events in the same order (SystemC triggers the notifications at a
// slice's end time and runs them at the start of the next slice, as one sc_start would). The
// slice length adapts so that a slice takes about a tenth of a second of wall time.
#pragma once

#include <ostream>

#include <systemc>

namespace hetvp::cli {

// Runs the simulation from time 0 up to `limit` (as sc_start(limit)), or until it pauses or stops
// before (RunState: the workload finished or failed),
// printing progress to `err`: on a terminal one line rewritten in place (cleared at the end),
// otherwise a line a second and one at the end.
void simulate_with_progress(const sc_core::sc_time& limit, std::ostream& err, bool terminal);

}  // namespace hetvp::cli
