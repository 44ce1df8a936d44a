// Offloaded copies (Fujii 2014): the host asks a HUB or GPC microcontroller to copy between two
// GPU virtual addresses; the firmware moves the data in xfer steps through its data memory
// (firmware/lib/copy.c) and raises its host interrupt when done. Asynchronous: start several
// (GPC4, or an offload overlapped with a DMA or IORW copy), then wait once.
#pragma once

#include <cstdint>
#include <vector>

#include "sw/driver/gpu_driver.h"
#include "sw/driver/mcu_driver.h"

namespace hetvp::sw {

// How the driver commands an offloaded copy (workload args group `offload`).
struct OffloadOptions : ParamSet {
  // false: one FW_CMD_COPY per microcontroller, the firmware loops over the 256-byte blocks.
  // true: one command per 256-byte block, each waited for before the next (Fujii 2014 §5.2 read
  // literally: the copy function "must be called multiple times" above 256 B). With several
  // microcontrollers each gets its next block in turn, and the host waits for the round.
  Bool command_per_block{this, "command_per_block", false,
                         "one firmware command per 256-byte block, each waited for (Fujii 2014 §5.2 read literally), "
                         "instead of one command per microcontroller; docs/calibration.md"};
};

struct OffloadTicket {
  McuId mcu;
  uint32_t seq = 0;  // STATUS1 value that means "this command is done"
  uint64_t src = 0, dst = 0;
  uint32_t size = 0;
};

class OffloadCopier {
 public:
  OffloadCopier(HostApi& api, GpuDriver& gpu, McuDriver& mcu, const DriverOptions& opt = DriverOptions{},
                const OffloadOptions& oopt = OffloadOptions{});

  // Sends FW_CMD_COPY (with NOTIFY) to `m` and returns at once. Refuses (HostError) a zero-length
  // copy and overlapping source and destination ranges.
  OffloadTicket start(const McuId& m, uint64_t src_va, uint64_t dst_va, uint32_t size);
  // Waits for every ticket (interrupt-driven: MSI, then PMC_INTR says which microcontroller);
  // a firmware error or a microcontroller that stops answering is a HostError naming it.
  void wait(const std::vector<OffloadTicket>& tickets);

  // One synchronous copy split over `mcus` microcontrollers (HUB: {hub}; GPC1: {gpc0};
  // GPC4: {gpc0..gpc3}), each a contiguous part; the API call cost is paid once.
  // With command_per_block, start_split commands and waits for every round of blocks but the
  // last itself (the host is busy meanwhile) and returns the last round's tickets.
  void copy(const std::vector<McuId>& mcus, uint64_t src_va, uint64_t dst_va, uint64_t size);
  std::vector<OffloadTicket> start_split(const std::vector<McuId>& mcus, uint64_t src_va, uint64_t dst_va,
                                         uint64_t size);

 private:
  unsigned intr_bit(const McuId& m) const;
  struct Part {
    McuId mcu;
    uint64_t src, dst, size;
  };
  std::vector<Part> split(const std::vector<McuId>& mcus, uint64_t src_va, uint64_t dst_va, uint64_t size) const;
  std::vector<OffloadTicket> start_blocks(std::vector<Part> parts);
  HostApi& api_;
  GpuDriver& gpu_;
  McuDriver& mcu_;
  DriverOptions opt_;
  OffloadOptions oopt_;
};

}  // namespace hetvp::sw
