// The copy engine: moves data between two GPU virtual addresses (VRAM or host memory through
// the MMU and PCIe) on behalf of the driver.
//
// The driver writes SRC, DST, LENGTH, optionally FENCE address/value, then LAUNCH. After
// `setup` (command fetch and decode, a YAML parameter), the engine copies in `burst`-byte
// pieces that never cross a page: each piece is read (up to `outstanding` reads in flight, as
// PCIe tags allow) and written as soon as its data is back. The link's shared bandwidth and
// latency therefore set the copy speed. The engine books the link for the pieces it issues in each
// `booking_window` when SystemC time reaches the window (or no other process could book before
// it), so that its requests and other initiators' are booked in the same order at every quantum. A copy whose destination is host memory (the MMU says
// so on the payload) then waits `to_host_completion` more (0 by default): Gdev ATC'12 measured
// its device-to-host DMA ~286 us slower than host-to-device at every size from 4 B to 4 KB with
// the same code path; the mechanism is unknown, so it is a measured term, not a modelled one
// (docs/calibration.md). When done it writes FENCE_VALUE to FENCE (if asked),
// raises PMC_INTR bit 0 (if asked) and counts the copy in COMPLETED. A fault on either side
// stops the copy: STATUS.error with the code, ERROR_ADDR = the failing virtual address.
//
// Registers: firmware/include/hetvp/copy_engine.h (BAR0 GPU_COPY_BASE + n * GPU_COPY_STRIDE).
// This is the register layer's worked example (docs/architecture.md): the table declares the
// registers, the constructor binds LAUNCH to launch(), and the engine keeps references to the
// registers it reads and sets.
//
// Channels: a copy launched with COPY_CHAN valid (the FIFO sets it for a channel's copy methods)
// carries that channel's tag (channel_tag.h): the MMU translates in the channel's address space.
#pragma once

#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "platform/access_info.h"
#include "platform/direct_target_socket.h"
#include "platform/irq.h"
#include "platform/json.h"
#include "platform/stats.h"
#include "platform/param_set.h"
#include "platform/peripheral.h"
#include "platform/run_context.h"
#include "platform/trace_track.h"
#include "platform/channel_tag.h"
#include "models/gpu/gpu_mmu.h"

namespace hetvp::gpu {

// One engine's parameters (the copy_engine block's group; every engine shares them).
struct CopyEngineConfig : ParamSet {
  Time setup{this, "setup", "2 us", "time from LAUNCH to the first data request (command fetch/decode)"};
  Time issue_cost{this, "issue_cost", "2 ns", "time between two requests the engine issues"};
  Size burst{this, "burst", "512", "bytes per piece (one read request)", Range{4, 4096}};
  Int<unsigned> outstanding{this, "outstanding", 32, "reads in flight at once (PCIe tags)", Range{1, 256}};
  Time booking_window{this, "booking_window", "1 us",
                      "the engine books the shared links' slots (PCIe) of the requests it issues in each window of "
                      "this length, counted from the copy's first request, when the window begins: ahead of other "
                      "initiators' requests inside it, after theirs before it. 0 s: each request at its own time "
                      "(more process switches). Assumption (arbitration not documented), docs/reliability.md"};
  Time to_host_completion{
      this, "to_host_completion", "0 s",
      "extra time before a copy whose destination is host memory reports completion (fence, interrupt): "
      "a measured direction asymmetry (Gdev ATC'12), mechanism unknown; docs/calibration.md"};
};

class CopyEngine : public Peripheral, public RunMember {
 public:
  DirectInitiator<tlm_utils::simple_initiator_socket<CopyEngine>> mem{"mem"};  // GPU virtual addresses (to the MMU)
  IrqPort intr{"intr"};

  // `index` selects the engine's interrupt bit (GPU_INTR_COPY(index)).
  CopyEngine(sc_core::sc_module_name name, const CopyEngineConfig& c, unsigned index = 0);
  // Statistics, declared once in the constructor (platform/stats.h); the GPU nests this group.
  StatGroup& stats() { return stats_; }
  void dump_stats(JsonWriter& w) const { stats_.dump(w); }

 private:
  void declare_stats();
  void launch(uint32_t value);  // LAUNCH written: start a copy when the write arrives
  void run();
  // One timed access at absolute time `at`; returns the absolute completion time, or false.
  bool access(tlm::tlm_command cmd, uint64_t va, uint8_t* data, unsigned len, sc_core::sc_time at,
              sc_core::sc_time& done);
  uint64_t reg64(const Register& lo, const Register& hi) const { return (uint64_t(hi.value) << 32) | lo.value; }

  Register &src_lo_, &src_hi_, &dst_lo_, &dst_hi_, &length_, &fence_lo_, &fence_hi_, &fence_value_, &status_,
      &error_lo_, &error_hi_, &completed_;
  unsigned intr_bit_;
  sc_core::sc_time setup_, issue_cost_, to_host_completion_, booking_window_;
  unsigned burst_, outstanding_;
  sc_core::sc_event launch_;
  bool busy_ = false;
  uint32_t launch_flags_ = 0;
  tlm::tlm_generic_payload gp_;
  AccessInfo* info_ = new AccessInfo;  // owned by the payload it is attached to
  MmuTargetInfo* target_ = new MmuTargetInfo;  // likewise; the MMU says where each access went
  ChannelTag* chan_ = new ChannelTag;          // likewise; COPY_CHAN: the channel the copy works for
  std::vector<uint8_t> buffer_;
  uint64_t copies_ = 0, bytes_ = 0, pieces_ = 0, errors_ = 0;
  sc_core::sc_time busy_time_;
  StatGroup stats_;  // after the hot members: keeps their layout as it was
  TraceTrack track_{name()};  // a span per copy
};

}  // namespace hetvp::gpu
