// GPU copy engine on a zero-latency memory: piece issue timing, and a launch while busy.
#include <gtest/gtest.h>

#include "common/test_run.h"
#include "common/tlm_harness.h"
#include "common/irq_counter.h"
#include "models/gpu/copy_engine.h"
#include "models/gpu/gpu_regs.h"
#include "models/memory/memory.h"

using namespace hetvp;
using namespace hetvp::gpu;
using namespace hetvp::test;
using sc_core::SC_NS;
using sc_core::sc_time;

namespace {
// A copy engine (no setup, 100 ns per 512-byte piece) on a zero-latency memory.
struct CopyBench {
  Memory mem{"mem", config_from<MemoryConfig>("{size: 16 MiB, latency: 0 ns}")};
  CopyEngine ce{"ce", config_from<CopyEngineConfig>("{setup: 0 ns, issue_cost: 100 ns, burst: 512}")};
  IrqCounter irq{"irq"};
  CopyBench() {
    ce.mem.bind(mem.in);
    ce.intr.bind(irq.in);
  }
};
}  // namespace

TEST(CopyEngine, PiecesGoOutIssueCostApartAndALaunchWhileBusyIsRefused) {
  CopyBench b;
  CopyEngine& ce = b.ce;
  uint32_t status_busy = 0, status_done = 0;
  sc_time done;
  TestInitiator regs("regs", [&](TestInitiator& r) {
    sc_time d;
    r.write32(COPY_SRC_LO, 0x0, d);
    r.write32(COPY_DST_LO, 0x100000, d);
    r.write32(COPY_LENGTH, 4096, d);
    r.write32(COPY_LAUNCH, COPY_LAUNCH_GO, d);
    r.write32(COPY_LAUNCH, COPY_LAUNCH_GO, d);  // while the first copy runs
    r.read32(COPY_STATUS, status_busy, d);
    uint32_t completed = 0;
    for (int ns = 0; ns < 10000 && !completed; ++ns) {
      sc_core::wait(1, SC_NS);
      r.read32(COPY_COMPLETED, completed, d);
    }
    done = sc_core::sc_time_stamp();
    r.read32(COPY_STATUS, status_done, d);
  });
  regs.socket.bind(ce.regs);
  hetvp::test::start();
  EXPECT_EQ(status_busy, COPY_STATUS_BUSY | COPY_STATUS_FAILED(COPY_ERR_BUSY))
      << "still busy, with the refused launch's error";
  // 4096 B in 512 B pieces: 8 pieces issued 100 ns apart, the last at 700 ns; the engine reports
  // completion by the end of that piece's issue slot (800 ns, seen by the 1 ns poll at 800-801 ns).
  EXPECT_GE(done, sc_time(800, SC_NS));
  EXPECT_LE(done, sc_time(801, SC_NS));
  EXPECT_EQ(status_done, 0u);
}

// A doorbell acts when it arrives: a LAUNCH written by an initiator running 5 us ahead of SystemC
// time (annotated delay) starts the copy at its arrival, not at the current SystemC time.
// On the first-wave engine (notify at SC_ZERO_TIME) the copy was done at 100 ns.
TEST(CopyEngine, LaunchTakesEffectAtTheDoorbellsArrivalTime) {
  CopyBench b;
  CopyEngine& ce = b.ce;
  sc_time done;
  TestInitiator regs("regs", [&](TestInitiator& r) {
    sc_time d;
    r.write32(COPY_SRC_LO, 0x0, d);
    r.write32(COPY_DST_LO, 0x100000, d);
    r.write32(COPY_LENGTH, 512, d);
    sc_time ahead(5000, SC_NS);  // the initiator's local time is 5 us ahead
    r.write32(COPY_LAUNCH, COPY_LAUNCH_GO, ahead);
    uint32_t completed = 0;
    for (int ns = 0; ns < 20000 && !completed; ++ns) {
      sc_core::wait(1, SC_NS);
      sc_time now;
      r.read32(COPY_COMPLETED, completed, now);
    }
    done = sc_core::sc_time_stamp();
  });
  regs.socket.bind(ce.regs);
  hetvp::test::start();
  // one 512 B piece: issued at the arrival (5 us), its slot ends 100 ns later
  EXPECT_GE(done, sc_time(5100, SC_NS));
  EXPECT_LE(done, sc_time(5101, SC_NS));
}
